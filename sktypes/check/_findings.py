"""What ``sktypes check`` reports: findings, and how paths are shown."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Finding", "display"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem: the file, the place (``line N`` or a JSON pointer) and the reason."""

    path: str
    where: str
    reason: str

    def __str__(self) -> str:
        if self.where:
            return f"{self.path}:{self.where}: {self.reason}"
        return f"{self.path}: {self.reason}"


def display(path: Path) -> str:
    """``path`` relative to the working directory when it lies inside it, else absolute."""
    if not path.is_absolute():
        return str(path)
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
