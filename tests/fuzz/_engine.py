"""Running one target: hypothesis (in process, structured inputs) or atheris (coverage-guided).

Both engines call :func:`run_one`, which applies the target's time limit (hypothesis only:
libFuzzer has its own ``-timeout``). A finding is the input and the traceback, written to
``.fuzz/findings/<target>-<digest>.{bin,txt}``.
"""

from __future__ import annotations

import hashlib
import time
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import seed as with_seed
from hypothesis.errors import NonInteractiveExampleWarning

from tests.fuzz._guard import time_limit
from tests.fuzz._registry import Target

__all__ = ["OUT", "Result", "fuzz_with_hypothesis", "run_one", "save_finding", "write_corpus"]

OUT = Path(".fuzz")


@dataclass
class Result:
    """What one run of one target did."""

    target: str
    engine: str
    executions: int = 0
    seconds: float = 0.0
    finding: str = ""  # the traceback's last line, when the oracle failed
    saved: str = ""  # where the input was written


def run_one(target: Target, data: bytes, *, limit: bool = True) -> None:
    """Run the oracle on one input (with the target's time limit when ``limit``)."""
    if limit:
        with time_limit(target.timeout):
            target.check(data)
    else:
        target.check(data)


def save_finding(target: Target, data: bytes, text: str) -> Path:
    """Write a failing input and its traceback under ``.fuzz/findings``."""
    out = OUT / "findings"
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{target.name}-{hashlib.sha1(data).hexdigest()[:12]}"
    stem.with_suffix(".bin").write_bytes(data)
    stem.with_suffix(".txt").write_text(text)
    return stem.with_suffix(".bin")


def fuzz_with_hypothesis(
    target: Target, seconds: float, *, batch: int = 100, random_seed: int | None = None
) -> Result:
    """Run ``target`` on structured inputs until ``seconds`` have passed or it fails.

    The seeds run first; then batches of fresh inputs (no example database: every run
    explores anew). The first failure is shrunk by hypothesis and saved. With
    ``random_seed`` the n-th batch draws the same inputs on every run (``make test`` must
    not fail on an input no earlier run saw; ``make fuzz`` explores without one).
    """
    result = Result(target.name, "hypothesis")
    last: list[tuple[bytes, str]] = []
    start = time.monotonic()

    def one(data: bytes) -> None:
        result.executions += 1
        try:
            run_one(target, data)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            last.append((data, traceback.format_exc()))
            raise

    first = True
    batches = 0
    while time.monotonic() - start < seconds:
        prop = given(target.strategy)(lambda data: one(data))
        if random_seed is not None:
            prop = with_seed(random_seed + batches)(prop)
        batches += 1
        if first:
            for seed in target.seeds:
                prop = example(seed)(prop)
        prop = settings(
            max_examples=batch,
            deadline=None,
            database=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            phases=[Phase.explicit, Phase.generate, Phase.shrink]
            if first
            else [Phase.generate, Phase.shrink],
        )(prop)
        first = False
        try:
            prop()
        except BaseException as exc:  # the oracle failed: hypothesis shrank it
            if isinstance(exc, KeyboardInterrupt):
                raise
            data, text = last[-1] if last else (b"", traceback.format_exc())
            result.finding = text.strip().splitlines()[-1] if text.strip() else repr(exc)
            result.saved = str(save_finding(target, data, text))
            break
    result.seconds = time.monotonic() - start
    return result


def write_corpus(target: Target, directory: Path, count: int = 200) -> None:
    """Seed a libFuzzer corpus: the target's seeds and ``count`` structured examples."""
    directory.mkdir(parents=True, exist_ok=True)
    samples = list(target.seeds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        for _ in range(count):
            try:
                samples.append(target.strategy.example())
            except Exception:  # a strategy that cannot draw outside a test: seeds only
                break
    for data in samples:
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)
