"""A bounded, seeded sample of ``make conformance`` (docs/conformance.md), run by ``make test``.

A few operations of the small vendor specs, in both Prism modes: each package must import,
and every sampled operation the committed results (``tests/vendor/results.json``) record as
passing must pass again (a regression fails the test; a failure turned into a pass is
welcome, and ``make conformance`` records it). Prism comes from ``make test``'s
``npm ci``; without it (a plain pytest run) the test skips and says why.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.vendor.prism import prism_available
from tests.vendor.report import RESULTS
from tests.vendor.run import run_spec
from tests.vendor.specs import spec_path

SAMPLE = {"petstore-swagger2": 6, "scalar-galaxy": 5, "netlify": 8, "readme": 6}
SEED = 1

pytestmark = [
    pytest.mark.skipif(not prism_available(), reason="Prism not installed (make node_modules)"),
    pytest.mark.skipif(shutil.which("npm") is None, reason="npm not found"),
    pytest.mark.xdist_group("prism"),
]


def _recorded() -> dict[str, dict[str, set[str] | None]]:
    """Per spec and mode, the operations recorded as failing (``None``: mode not recorded)."""
    stored = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    out: dict[str, dict[str, set[str] | None]] = {}
    for key, result in stored.items():
        modes = result.get("modes", {})
        out[key] = {
            mode: (
                {f["operation"] for f in modes[mode]["failures"]}
                if mode in modes and not modes[mode].get("error")
                else None
            )
            for mode in ("static", "dynamic")
        }
    return out


@pytest.mark.parametrize("key", sorted(SAMPLE))
def test_a_seeded_sample_does_what_the_results_table_records(key: str, tmp_path: Path) -> None:
    try:
        path = spec_path(key)
    except Exception as exc:  # the registry cannot be reached: not this test's subject
        pytest.skip(f"{key}: the pinned spec cannot be fetched: {exc}")
    result = run_spec(key, path, tmp_path, sample=SAMPLE[key], seed=SEED, mypy=False)
    assert result.importable, result.cause
    recorded = _recorded().get(key, {})
    passed_somewhere = 0
    for mode, counts in result.modes.items():
        assert counts.error is None, counts.error
        assert counts.run == SAMPLE[key]
        failing_now = {f.operation: f for f in counts.failures}
        passed_somewhere += counts.run - len(failing_now)
        failing_before = recorded.get(mode)
        if failing_before is None:
            continue
        regressions = [
            f"{mode} {op}: not {f.stage}: {f.cause}"
            for op, f in failing_now.items()
            if op not in failing_before
        ]
        assert not regressions, "\n".join(regressions)
    assert passed_somewhere, "no sampled operation passed in any mode"
