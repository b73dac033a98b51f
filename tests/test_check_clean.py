"""``sktypes check`` of an unchanged spec: recorded clean by content, not loaded again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sktypes.check._run import run_check
from sktypes.openapi import _load
from tests.pets_util import write_pets_spec


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKTYPES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SKTYPES_NO_CACHE", raising=False)
    monkeypatch.chdir(tmp_path)
    return write_pets_spec(tmp_path, pet_in_file=True)


def _loads(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The specs ``load_document`` is called for from now on."""
    seen: list[Any] = []
    real = _load.load_document

    def counting(doc: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(doc.display)
        return real(doc, *args, **kwargs)

    monkeypatch.setattr(_load, "load_document", counting)
    return seen


def _findings(spec: Path) -> list[str]:
    return [str(f) for f in run_check([str(spec)], root=spec.parent).findings]


def test_an_unchanged_spec_is_not_loaded_again(spec: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = _loads(monkeypatch)
    assert _findings(spec) == []
    assert len(loads) == 1
    assert _findings(spec) == []
    assert len(loads) == 1  # recorded clean: nothing loaded


def test_a_changed_ref_file_is_loaded_and_its_finding_reported(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads = _loads(monkeypatch)
    assert _findings(spec) == []
    (spec.parent / "pet.yaml").write_text("type: object\nproperties: {name: {type: 3}}\n")
    found = _findings(spec)
    assert len(loads) == 2 and found and "/properties/name/type" in found[0]
    assert _findings(spec) == found and len(loads) == 3  # findings are never recorded


def test_a_changed_spec_and_the_cache_off_load_it(
    spec: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads = _loads(monkeypatch)
    _findings(spec)
    spec.write_text(spec.read_text().replace("title: Pets", "title: Pets 2"))
    assert _findings(spec) == [] and len(loads) == 2
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    assert _findings(spec) == [] and len(loads) == 3
