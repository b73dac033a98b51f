"""Every valid corpus spec: generated, imported, ruff-clean and -formatted, mypy-clean, and
carrying exactly the views ``load_openapi`` builds (``plugin_views(Plugin()) == views``).

Prints the counts (``-s`` shows them); the target is all of them. Specs the manifest marks
invalid are skipped: ``load_openapi`` refuses them (validation), so there is nothing to
generate from. How each type behaves is the round-trip test's job
(``tests/test_generate_roundtrip.py``).
"""

from __future__ import annotations

import csv
import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import sktypes as sk
from sktypes_codegen._package import render_loaded
from tests.corpus_util import CORPUS
from tests.test_generate_consistency import assert_same_views

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
RUFF_RULES = "E,F,W,I,B,UP,SIM,RUF,C4,PIE,RET"


def _valid_specs() -> list[tuple[str, Path]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open() as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [(r["id"], CORPUS / r["file"]) for r in rows if r["valid"] == "yes"]


@pytest.mark.slow
def test_corpus_generates_imports_and_type_checks(tmp_path: Path) -> None:
    specs = _valid_specs()
    if not specs:
        pytest.skip("corpus not available")
    generated: list[str] = []
    imported: list[str] = []
    failures: list[str] = []
    start = time.perf_counter()
    for spec_id, spec in specs:
        package = "corpus_" + "".join(c if c.isalnum() else "_" for c in spec_id)
        try:
            plugin = sk.load_openapi(spec, ref_roots=[CORPUS / spec_id])
            _, files = render_loaded(plugin, spec, name=package)
        except Exception as exc:  # counted and reported below
            failures.append(f"{spec_id}: generation: {type(exc).__name__}: {exc}")
            continue
        for name, content in files.items():
            (tmp_path / package / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / package / name).write_text(content, encoding="utf-8")
        generated.append(package)
        sys.path.insert(0, str(tmp_path))
        try:
            module = importlib.import_module(package)
            plugin_cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
            assert_same_views(plugin_cls, plugin)
            imported.append(package)
        except Exception as exc:
            failures.append(f"{spec_id}: import/views: {type(exc).__name__}: {exc}")
        finally:
            sys.path.remove(str(tmp_path))
    ruff = subprocess.run(
        [
            BIN / "ruff",
            "check",
            "--isolated",
            "--select",
            RUFF_RULES,
            "--line-length",
            "100",
            "--output-format",
            "concise",
            ".",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    ruff_bad = {line.split("/", 1)[0] for line in ruff.stdout.splitlines() if "/" in line}
    fmt = subprocess.run(
        [BIN / "ruff", "format", "--isolated", "--line-length", "100", "--check", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    mypy = subprocess.run(
        [
            BIN / "mypy",
            "--strict",
            "--follow-imports=silent",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            *(str(tmp_path / p) for p in generated),
        ],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    mypy_bad = {
        Path(line.split(":", 1)[0]).relative_to(tmp_path).parts[0]
        for line in mypy.stdout.splitlines()
        if line.startswith(str(tmp_path)) and ": error:" in line
    }
    clean = [p for p in generated if p not in mypy_bad and p not in ruff_bad]
    split = [p for p in generated if (tmp_path / p / "operations").is_dir()]
    print(
        f"\ncorpus: {len(specs)} valid specs, {len(generated)} generated, {len(imported)} "
        f"imported and consistent, {len(clean)} ruff check + ruff format + mypy --strict clean, "
        f"{len(split)} split by tag ({', '.join(split)}) ({time.perf_counter() - start:.0f} s)"
    )
    if "corpus_kubernetes" in generated:  # 1,123 operations under 64 tags
        assert "corpus_kubernetes" in split
    assert not failures, "\n".join(failures)
    assert ruff.returncode == 0, ruff.stdout[-3000:]
    assert fmt.returncode == 0, fmt.stdout[-3000:]  # generated code is ruff-formatted as is
    assert mypy.returncode == 0, mypy.stdout[-3000:]
    assert len(clean) == len(specs)
