"""Golden-file comparison: ``SKTYPES_UPDATE_GOLDEN=1`` (``make golden``) rewrites them."""

from __future__ import annotations

import os
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"


def check_golden(relative: str, actual: str) -> None:
    """Assert ``actual`` equals the golden file, or rewrite it under ``make golden``."""
    path = GOLDEN / relative
    if os.environ.get("SKTYPES_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual)
        return
    assert path.exists(), f"missing golden file {path}: run `make golden`"
    assert actual == path.read_text(), f"{path} differs: run `make golden` and review the diff"
