"""``tools/list`` recorded by content: read back equal, keyed by what the tools show."""

from __future__ import annotations

from pathlib import Path

import pytest

from sktypes.integrations import mcp
from sktypes.integrations.mcp._tools import MODERN_VERSION
from tests.mcp_helpers import SPECS

SPEC = SPECS / "weather_plugin.openapi.yaml"
OLD = "2025-11-25"


def _listed(spec: Path = SPEC, version: str = OLD, **kwargs: object) -> object:
    server = mcp.server(str(spec), base_url="http://127.0.0.1:9", **kwargs)  # type: ignore[arg-type]
    return server.toolset.listing(version).model_dump(by_alias=True, exclude_none=True)


def _files(cache: Path) -> list[Path]:
    return sorted((cache / "mcp-listing").glob("*")) if (cache / "mcp-listing").is_dir() else []


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKTYPES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SKTYPES_NO_CACHE", raising=False)
    return tmp_path / "cache"


def test_a_listing_read_back_equals_the_one_built(cache: Path) -> None:
    built = _listed()
    assert len(_files(cache)) == 1
    again = _listed()
    assert again == built
    assert len(_files(cache)) == 1  # the same tools: the same record


def test_each_era_and_detail_level_has_its_own_record(cache: Path) -> None:
    old = _listed()
    modern = _listed(version=MODERN_VERSION)
    compact = _listed(detail="compact")
    assert len(_files(cache)) == 3
    assert _listed(version=MODERN_VERSION) == modern
    assert _listed(detail="compact") == compact
    assert _listed() == old


def test_a_changed_tool_is_built_again(cache: Path, tmp_path: Path) -> None:
    text = SPEC.read_text()
    changed = tmp_path / "weather.openapi.yaml"
    marker = "Gets the weather forecast"  # the operation's description
    assert marker in text
    changed.write_text(text.replace(marker, "Changed, gets the weather forecast", 1))
    first = _listed()
    second = _listed(changed)
    assert len(_files(cache)) == 2
    assert first != second
    assert second == _listed(changed)  # read back


def test_a_listing_read_back_equals_one_built_without_the_cache(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _listed()
    recorded = _listed()
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    assert _listed() == recorded


def test_an_unreadable_record_is_a_miss(cache: Path) -> None:
    built = _listed()
    (record,) = _files(cache)
    record.write_bytes(b'{"tools": [{"name": 3}]}')
    assert _listed() == built
    assert _listed() == built  # written again, read back


def test_no_cache_neither_reads_nor_writes(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    _listed()
    assert _files(cache) == []
