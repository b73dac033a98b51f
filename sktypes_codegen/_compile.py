"""Generated code always compiles: every module is compiled before anything is written.

A module that does not compile is a bug of the generator, never the user's: it is reported
as a :class:`~sktypes.errors.GenerationError` naming the module, the line and the operation
(or model) the line belongs to, and no package is written. ``sktypes check`` compiles the
modules of the packages it checks the same way (:func:`compile_errors`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from sktypes.errors import GenerationError

__all__ = ["compile_errors", "compile_modules"]

_OWNER = re.compile(
    r"^(?:\s*@kernel_function\(name=(?P<operation>'[^']*'|\"[^\"]*\")"
    r"|class (?P<cls>\w+)|(?P<alias>\w+)(?::[^=]*)? = )"
)


def compile_errors(modules: Iterable[tuple[str, str]]) -> list[tuple[str, int, str]]:
    """``(module, line, message)`` for each ``(name, source)`` that does not compile."""
    found = []
    for name, source in modules:
        try:
            compile(source, name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:  # ValueError: a NUL byte (Python 3.11)
            line = getattr(exc, "lineno", None) or 1
            owner = owner_of(source, line)
            where = f" (in {owner})" if owner else ""
            found.append((name, line, f"{getattr(exc, 'msg', exc)}{where}"))
    return found


def owner_of(source: str, line: int) -> str | None:
    """The operation, class or alias the 1-based ``line`` of ``source`` belongs to."""
    lines = source.splitlines()
    for text in reversed(lines[: max(line, 1)]):
        match = _OWNER.match(text)
        if match is None:
            continue
        if match["operation"]:
            return f"operation {match['operation'][1:-1]}"
        if match["cls"]:
            return f"class {match['cls']}"
        return f"{match['alias']}"
    # a request builder sits above the @kernel_function of its operation
    for text in lines[max(line, 1) :]:
        match = _OWNER.match(text)
        if match is not None and match["operation"]:
            return f"operation {match['operation'][1:-1]}"
    return None


def compile_modules(package: str, files: Mapping[str, str], spec: str) -> None:
    """Compile every ``.py`` file of ``files``.

    Raises:
        GenerationError: a module does not compile (a generator bug: the message says so,
            with the module, line and operation).
    """
    errors = compile_errors(
        (f"{package}/{name}", source) for name, source in files.items() if name.endswith(".py")
    )
    if errors:
        module, line, message = errors[0]
        raise GenerationError(
            f"generated code does not compile ({module}:{line}: {message}): "
            "this is a bug in sktypes, please report it with the spec; nothing was written",
            file=spec,
        )
