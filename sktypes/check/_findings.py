"""What ``sktypes check`` reports: findings, and how paths are shown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sktypes._documents import locate_error
from sktypes.errors import SktypesError, format_error

__all__ = ["Finding", "display"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: the file, the place and the reason.

    Printed as every sktypes error is (:func:`sktypes.errors.format_error`):
    ``file:line:column: /json/pointer: reason``, the parts that are known.
    """

    path: str
    where: str
    reason: str
    line: int | None = None
    column: int | None = None

    @classmethod
    def of(cls, exc: SktypesError, path: str) -> Finding:
        """The finding for an error; ``path`` when it names no file; its pointer's line found."""
        if exc.file is None:
            exc = type(exc)(exc.message, **exc.location()._replace(file=path)._asdict())
        exc = locate_error(exc)
        assert exc.file is not None
        file = display(Path(exc.file))  # relative to where the command ran, as given
        return cls(file, exc.where or "", exc.message, exc.line, exc.column)

    def __str__(self) -> str:
        return format_error(
            self.reason,
            file=self.path,
            line=self.line,
            column=self.column,
            where=self.where or None,
        )


def display(path: Path) -> str:
    """``path`` relative to the working directory when it lies inside it, else absolute."""
    if not path.is_absolute():
        return str(path)
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
