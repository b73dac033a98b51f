"""Progress output: a rich bar on a terminal after a delay; nothing otherwise."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest
from rich.console import Console

from sktypes.cli import _progress
from sktypes.cli._progress import stages, steps


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


def test_a_long_load_shows_its_stages_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from sktypes.openapi import load_openapi

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    spec = tmp_path / "api.yaml"
    spec.write_text(
        'openapi: 3.0.3\ninfo: {title: T, version: "1"}\n'
        "paths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok}\n"
    )
    seen: list[str] = []
    from rich.progress import Progress

    monkeypatch.setattr(Progress, "update", lambda self, task, **kw: seen.append(kw["description"]))
    out = io.StringIO()
    with stages(console=_terminal(out)):
        load_openapi(spec)
    assert seen == [f"reading {spec}", f"building views of {spec}", f"validating {spec}"]


def test_stages_are_silent_off_a_terminal_or_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    from sktypes._stages import stage

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    plain, quiet = io.StringIO(), io.StringIO()
    with stages(console=Console(file=plain)):
        stage("validating")
        time.sleep(0.2)
    with stages(enabled=False, console=_terminal(quiet)):
        stage("validating")
        time.sleep(0.2)
    assert plain.getvalue() == quiet.getvalue() == ""
    stage("nobody listens")  # outside: nothing happens


def test_the_stage_is_drawn_after_the_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    from sktypes._stages import stage

    monkeypatch.setattr(_progress, "DELAY", 0.0)
    out = io.StringIO()
    with stages(console=_terminal(out)):
        stage("validating api.yaml")
        time.sleep(0.3)
    assert "validating api.yaml" in out.getvalue()
