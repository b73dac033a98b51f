"""``sktypes check`` of an unchanged package: digests, not a fresh generation, while it can.

The link record lists every generated file by digest with the generator that wrote it and
the spec's validation verdict. With the same inputs and the same generator, a fresh
generation would write exactly those files, so comparing digests is the same check; with
another generator the package is generated again, its spec not validated again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import sktypes_codegen
from sktypes.check import check_paths
from sktypes.openapi import _verdicts
from sktypes_codegen import generate_plugin
from sktypes_codegen._link import LINK_FILE, generator_identity, read_link
from tests.pets_util import write_pets_spec


@pytest.fixture
def package(tmp_path: Path) -> Path:
    spec = write_pets_spec(tmp_path)
    return generate_plugin(spec, tmp_path / "out", name="pets")


@pytest.fixture
def no_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("generated again")

    monkeypatch.setattr(sktypes_codegen, "render_plugin", refuse)


def test_the_record_lists_files_generator_and_verdict(package: Path) -> None:
    record = json.loads((package / LINK_FILE).read_text())
    assert record["generator"] == generator_identity()
    assert set(record["files"]) == {
        "__init__.py",
        "models.py",
        "plugin.py",
        "py.typed",
        "views.json",
    }
    assert record["validation"]["valid"] is True
    assert record["validation"]["validator"].startswith("openapi-spec-validator ")


def test_an_unchanged_package_is_checked_without_generating(
    package: Path, no_generation: None
) -> None:
    assert check_paths([str(package)]) == []


def test_hand_edits_deletions_and_strays_are_found_without_generating(
    package: Path, no_generation: None
) -> None:
    (package / "plugin.py").write_text((package / "plugin.py").read_text() + "# edited\n")
    (package / "py.typed").unlink()
    (package / "extra.py").write_text("")
    found = {(Path(f.path).name, f.reason.split(":")[0]) for f in check_paths([str(package)])}
    assert found == {
        ("plugin.py", "differs from a fresh generation"),
        ("py.typed", "missing"),
        ("extra.py", "not generated"),
    }


def test_another_generator_generates_again_without_validating_again(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = json.loads((package / LINK_FILE).read_text())
    record["generator"] = "sktypes 0.0.1 (code 0)"
    (package / LINK_FILE).write_text(json.dumps(record))
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    monkeypatch.setattr(_verdicts, "_REMEMBERED", {})
    calls: list[str] = []
    monkeypatch.setattr(
        "sktypes.openapi._checking.validate_spec", lambda doc, *a: calls.append(doc.display)
    )
    assert check_paths([str(package)]) == []
    assert calls == []  # the link record's verdict stood for the validator's
    (package / "models.py").write_text("# edited\n")
    assert [Path(f.path).name for f in check_paths([str(package)])] == ["models.py"]


def test_a_changed_input_is_named_first(package: Path, no_generation: None) -> None:
    spec = package.parent.parent / "api.yaml"
    spec.write_text(spec.read_text().replace("name:", "nick:"))
    (finding,) = check_paths([str(package)])
    assert Path(finding.path).name == "api.yaml" and "changed since" in finding.reason


def test_a_malformed_files_record_falls_back_to_generating(package: Path) -> None:
    record = json.loads((package / LINK_FILE).read_text())
    record["files"] = {"../../escape.py": "0" * 64}
    (package / LINK_FILE).write_text(json.dumps(record))
    link = read_link(package)
    assert link is not None and not link.recorded_output()
    assert check_paths([str(package)]) == []
