"""Where the shared real-world spec corpus is (outside the repository; tests skip without it).

``SKTYPES_CORPUS_DIR`` points elsewhere (a worktree's ``..`` is not the checkout's); the
default is ``../shared/corpus/openapi`` next to the checkout.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

__all__ = ["CORPUS", "corpus_specs"]

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("SKTYPES_CORPUS_DIR") or ROOT.parent / "shared" / "corpus" / "openapi")


def corpus_specs(*, valid_only: bool = True) -> list[tuple[str, Path]]:
    """``(id, spec file)`` of the corpus specs (the valid ones by default), manifest order."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [(r["id"], CORPUS / r["file"]) for r in rows if not valid_only or r["valid"] == "yes"]
