"""Progress output: a rich bar on a terminal after a delay; nothing otherwise."""

from __future__ import annotations

import io
import time

import pytest
from rich.console import Console

from sktypes.cli import _progress
from sktypes.cli._progress import steps


def _terminal(out: io.StringIO) -> Console:
    return Console(file=out, force_terminal=True, width=80)


def test_slow_work_on_a_terminal_shows_the_bar_with_the_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    out = io.StringIO()
    with steps(2, console=_terminal(out)) as progress:
        progress.advance("generating from api.yaml")
        time.sleep(0.3)
    assert "generating from api.yaml" in out.getvalue()


def test_quick_work_draws_nothing() -> None:
    out = io.StringIO()
    with steps(2, console=_terminal(out)) as progress:
        progress.advance("generating")
    assert out.getvalue().strip() == ""


def test_not_a_terminal_or_quiet_draws_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    plain = io.StringIO()
    with steps(2, console=Console(file=plain)) as progress:
        progress.advance("generating")
        time.sleep(0.2)
    quiet = io.StringIO()
    with steps(2, enabled=False, console=_terminal(quiet)) as progress:
        progress.advance("generating")
        time.sleep(0.2)
    assert plain.getvalue() == quiet.getvalue() == ""
