"""Which stage a long step is in (reading, validating, building views, writing), for a display.

The library announces its stages with :func:`stage`; nothing happens unless a caller is
listening (:func:`reporting`: the CLI's progress line on a terminal, ``sktypes.cli._progress``).
A context variable carries the listener, so threads and tasks that did not ask hear nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["reporting", "stage"]

_LISTENER: ContextVar[Callable[[str], None] | None] = ContextVar("sktypes_stage", default=None)


def stage(name: str) -> None:
    """Say that the current step is now ``name`` (``"validating api.yaml"``)."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(name)


@contextmanager
def reporting(listener: Callable[[str], None]) -> Iterator[None]:
    """Call ``listener`` with each stage announced inside the block."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)
