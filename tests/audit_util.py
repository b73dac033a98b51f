"""Proof that nothing compiles or executes Python: an audit hook on ``compile`` and ``exec``.

CPython raises the ``compile`` audit event for ``compile()`` (and source imports) and
``exec`` for ``exec()``/``eval()`` of code. A module imported lazily inside the block is the
library's own code and is not counted; anything compiled from a string is. The hook is
installed once per process and only records while :func:`no_code_runs` is active.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["no_code_runs"]

_WATCH: list[bool] = [False]
_SEEN: list[str] = []


def _from_a_module(event: str, args: tuple[Any, ...]) -> bool:
    """Whether the event is an import of a ``.py`` module (lazy imports are not template code)."""
    if event == "compile":
        filename = args[1] if len(args) > 1 else None
    else:
        filename = getattr(args[0], "co_filename", None) if args else None
    return isinstance(filename, str) and filename.endswith(".py")


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _WATCH[0] and event in ("compile", "exec") and not _from_a_module(event, args):
        _SEEN.append(event)


sys.addaudithook(_audit)


@contextmanager
def no_code_runs() -> Iterator[None]:
    """Fail when Python source is compiled or code is executed inside the block."""
    _SEEN.clear()
    _WATCH[0] = True
    try:
        yield
    finally:
        _WATCH[0] = False
    assert not _SEEN, f"code was compiled or executed: {_SEEN}"
