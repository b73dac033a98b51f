"""Progress output for slow commands: a ``rich`` bar on stderr, only where a person looks.

Nothing is drawn when stderr is not a terminal (CI logs, pre-commit, pipes), under
``--quiet``, or for work that ends within :data:`DELAY` seconds; the bar is transient, so
the terminal keeps only the command's own output.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

__all__ = ["DELAY", "Steps", "steps"]

DELAY = 1.0
"""Seconds of work before the bar appears."""


class Steps:
    """A bar over a known number of steps; :meth:`advance` names the step that starts."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self._progress = progress
        self._task = progress.add_task("", total=total) if progress is not None else None

    def advance(self, label: str) -> None:
        """Mark the previous step done and show ``label`` for the next one."""
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, description=label)
            self._progress.advance(self._task)


@contextmanager
def steps(total: int, *, enabled: bool = True, console: Console | None = None) -> Iterator[Steps]:
    """A progress bar of ``total`` steps on stderr, shown after :data:`DELAY` seconds."""
    console = console or Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield Steps(None, total)
        return
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    timer = threading.Timer(DELAY, progress.start)  # read at call time: tests may lower it
    timer.daemon = True
    timer.start()
    try:
        yield Steps(progress, total)
    finally:
        timer.cancel()
        progress.stop()
