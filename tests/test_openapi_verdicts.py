"""A spec is validated once per content: verdicts recorded by digest, per user, disableable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner

from sktypes.cli import cli
from sktypes.errors import OpenApiError
from sktypes.openapi import _validate, _verdicts, load_openapi
from sktypes.openapi._verdicts import Verdict

SPEC = """openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: './pet.yaml'}
"""
PET = "type: object\nproperties:\n  name: {type: string}\n"
INVALID = SPEC.replace('version: "1"', "x-version: 1")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SKTYPES_CACHE_DIR", str(folder))
    monkeypatch.delenv("SKTYPES_NO_CACHE", raising=False)
    monkeypatch.setattr(_verdicts, "_REMEMBERED", {})
    return folder


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every run of the validator (spied on, still run)."""
    seen: list[str] = []
    real = _validate.validate_spec

    def spy(doc: Any, version: int, refs: Any, report: Any = None) -> None:
        seen.append(doc.display)
        real(doc, version, refs, report)

    monkeypatch.setattr("sktypes.openapi._checking.validate_spec", spy)
    return seen


def _write(folder: Path, spec: str = SPEC, pet: str = PET) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pet.yaml").write_text(pet)
    path = folder / "api.yaml"
    path.write_text(spec)
    return path


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process: only the per-user cache is left."""
    monkeypatch.setattr(_verdicts, "_REMEMBERED", {})


def test_the_same_content_is_validated_once(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path / "a")
    first = load_openapi(spec)
    _forget(monkeypatch)
    again = load_openapi(spec)
    moved = load_openapi(_write(tmp_path / "elsewhere"))  # same bytes, another checkout
    assert len(calls) == 1
    assert first.validation == again.validation == moved.validation
    assert first.validation is not None and first.validation.valid
    assert first.validation.validator.startswith("openapi-spec-validator ")
    assert len(list((cache / "validation").glob("*.json"))) == 1


def test_a_changed_ref_file_is_validated_again(
    tmp_path: Path, cache: Path, calls: list[str]
) -> None:
    spec = _write(tmp_path)
    load_openapi(spec)
    (tmp_path / "pet.yaml").write_text(PET + "required: [name]\n")
    load_openapi(spec)
    assert len(calls) == 2


def test_an_invalid_spec_fails_the_same_way_from_its_recorded_verdict(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path, INVALID)
    with pytest.raises(OpenApiError) as fresh:
        load_openapi(spec)
    _forget(monkeypatch)
    with pytest.raises(OpenApiError) as recorded:
        load_openapi(spec)
    assert len(calls) == 1
    assert str(recorded.value) == str(fresh.value)
    assert "not a valid OpenAPI document" in str(fresh.value)


def test_no_cache_env_neither_reads_nor_writes(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    spec = _write(tmp_path)
    load_openapi(spec)
    _forget(monkeypatch)
    load_openapi(spec)
    assert len(calls) == 2
    assert not cache.exists()


def test_xdg_cache_home_is_the_default_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SKTYPES_CACHE_DIR", raising=False)
    monkeypatch.delenv("SKTYPES_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _verdicts.cache_dir() == tmp_path / "xdg" / "sktypes"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _verdicts.cache_dir() == tmp_path / "home" / ".cache" / "sktypes"


def test_the_cli_flag_disables_the_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path)
    monkeypatch.setenv("SKTYPES_NO_CACHE", "0")  # restored after the flag sets it
    result = CliRunner().invoke(cli, ["--no-cache", "manual", str(spec)])
    assert result.exit_code == 0, result.output
    assert not cache.exists()


def test_a_corrupt_or_foreign_cache_entry_is_a_miss(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path, INVALID)
    with pytest.raises(OpenApiError):
        load_openapi(spec)
    (entry,) = (cache / "validation").glob("*.json")
    for junk in (b"{", b"[]", orjson.dumps({"digest": "other", "validator": "x", "valid": True})):
        entry.write_bytes(junk)
        _forget(monkeypatch)
        with pytest.raises(OpenApiError):  # never taken as "valid"
            load_openapi(spec)
    assert len(calls) == 4


def test_a_remembered_verdict_from_a_link_record_is_used(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path)
    verdict = load_openapi(spec).validation
    assert verdict is not None
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    _forget(monkeypatch)
    back = Verdict.from_dict(orjson.loads(orjson.dumps(verdict.to_dict())))
    assert back == verdict
    _verdicts.remember(back)
    load_openapi(spec)
    assert len(calls) == 1


def test_a_spec_given_as_a_dict_has_a_verdict_too(cache: Path, calls: list[str]) -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}},
    }
    load_openapi(spec)
    load_openapi(dict(spec))
    assert len(calls) == 1


def test_problems_reported_as_warnings_are_recorded_too(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path, INVALID)
    first = load_openapi(spec, strict=False)
    _forget(monkeypatch)
    again = load_openapi(spec, strict=False)
    assert len(calls) == 1
    assert first.warnings == again.warnings
    assert any("not a valid OpenAPI document" in w or "version" in w for w in first.warnings)
    with pytest.raises(OpenApiError):  # the strict way is its own verdict: validated once more
        load_openapi(spec)
    assert len(calls) == 2


def test_a_valid_verdict_serves_both_ways(
    tmp_path: Path, cache: Path, calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _write(tmp_path)
    load_openapi(spec, strict=False)
    _forget(monkeypatch)
    load_openapi(spec)
    assert len(calls) == 1
