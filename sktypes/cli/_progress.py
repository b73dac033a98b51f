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

from sktypes._stages import reporting

__all__ = ["DELAY", "Steps", "stages", "steps"]

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


@contextmanager
def stages(
    first: str = "starting", *, enabled: bool = True, console: Console | None = None
) -> Iterator[None]:
    """Show the stage the work inside is in (what the library announces), after a delay.

    One transient line on stderr: a spinner, the stage (``reading api.yaml``,
    ``validating api.yaml``, ``building views``, ``writing 12 files``...) and the time
    elapsed. Nothing off a terminal, with ``enabled=False`` (``--quiet``), or for work that
    ends within :data:`DELAY` seconds.
    """
    console = console or Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield
        return
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    task = progress.add_task(first, total=None)
    timer = threading.Timer(DELAY, progress.start)
    timer.daemon = True
    timer.start()
    try:
        with reporting(lambda name: progress.update(task, description=name)):
            yield
    finally:
        timer.cancel()
        progress.stop()
