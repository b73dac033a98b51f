"""A spec served from its record (per-user cache): listed and called as when it is loaded."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import anyio
import orjson
import pytest
from mcp import Client

from sktypes.errors import SktypesError
from sktypes.integrations import mcp
from sktypes.integrations.mcp import _spec_records
from tests.corpus_util import CORPUS
from tests.mcp_helpers import SPECS, Seen, Upstream, upstream

WEATHER = SPECS / "weather_plugin.openapi.yaml"
SEPARATE = CORPUS / "oai-v2.0-petstore-separate" / "spec" / "swagger.yaml"  # $ref'd files
FIDELITY = [
    "separate",  # the petstore-separate spec with its $ref'd files in its folder
    "oai-v3.0-uspto/uspto.yaml",
    "oai-v2.0-uber/uber.json",
    "twilio-messaging-v1/twilio_messaging_v1.json",
    "oai-v3.0-petstore-expanded/petstore-expanded.json",
]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKTYPES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("SKTYPES_NO_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every load of a document's views (a record read back makes none)."""
    seen: list[Path] = []
    real = _spec_records.load_spec

    def counted(path: Path, *args: Any) -> Any:
        seen.append(path)
        return real(path, *args)

    monkeypatch.setattr(_spec_records, "load_spec", counted)
    return seen


def _records(cache: Path) -> list[Path]:
    folder = cache / "mcp-spec"
    return sorted(folder.glob("*")) if folder.is_dir() else []


def _session(server: Any, calls: list[tuple[str, dict[str, Any]]]) -> Any:
    """The listing, then each call's result, through the SDK's client."""

    async def main() -> Any:
        try:
            async with Client(server) as client:
                listed = await client.list_tools()
                results = []
                for name, arguments in calls:
                    result = await client.call_tool(name, arguments)
                    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
                    results.append(dumped)
                return listed.model_dump(mode="json", by_alias=True, exclude_none=True), results
        finally:
            await server.aclose()  # its HTTP client: no socket left open

    return anyio.run(main)


def _answer(seen: Seen) -> tuple[int, Any]:
    return (200, {"id": 1, "name": "x", "path": seen.path})


def _served(spec: Path, url: str, calls: list[tuple[str, dict[str, Any]]], **kwargs: Any) -> Any:
    server = mcp.server(str(spec), base_url=url, **kwargs)
    return _session(server, calls)


def _calls(spec: Path) -> list[tuple[str, dict[str, Any]]]:
    """Up to four tools of ``spec``, each called without arguments and with a wrong one."""
    server = mcp.server(str(spec), base_url="http://127.0.0.1:9")
    names = server.toolset.names[:4]
    return [(n, {}) for n in names] + [(n, {"unknown": [1]}) for n in names]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
@pytest.mark.parametrize("name", FIDELITY)
def test_a_spec_is_listed_and_called_alike_from_its_record_and_loaded(
    name: str, cache: Path, loads: list[Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = _copy_separate(tmp_path) if name == "separate" else CORPUS / name
    calls = _calls(spec)  # a miss: loaded, recorded
    assert len(loads) == 1 and len(_records(cache)) == 1
    runs = []
    with upstream(Upstream(fallback=_answer)) as api:
        runs.append((_served(spec, api.url, calls), [(s.method, s.raw_path) for s in api.seen]))
        api.seen.clear()
        monkeypatch.setenv("SKTYPES_NO_CACHE", "1")  # loaded every time
        runs.append((_served(spec, api.url, calls), [(s.method, s.raw_path) for s in api.seen]))
    hit, loaded = runs
    assert hit == loaded
    assert len(loads) == 3  # the hit loaded the views only for its calls (the first one)
    (listing, results), requests = hit
    assert listing["tools"] and len(results) == len(calls)
    assert requests or all(r["isError"] for r in results)


def test_a_hit_lists_without_loading_the_document(cache: Path, loads: list[Path]) -> None:
    first = mcp.server(str(WEATHER), base_url="http://127.0.0.1:9")
    listed = first.toolset.listing_data("2025-11-25")
    second = mcp.server(str(WEATHER), base_url="http://127.0.0.1:9")
    assert second.toolset.listing_data("2025-11-25") == listed
    assert loads == [WEATHER]  # only the miss loaded it


def _copy_separate(tmp_path: Path) -> Path:
    """The petstore-separate spec, its ``../common`` file moved beside it (admitted)."""
    top = tmp_path / "petstore"
    shutil.copytree(SEPARATE.parent, top)
    shutil.copy(SEPARATE.parents[1] / "common" / "Error.yaml", top / "common-Error.yaml")
    for file in top.glob("*.yaml"):
        file.write_text(file.read_text().replace("../common/Error.yaml", "common-Error.yaml"))
    return top / "swagger.yaml"


@pytest.mark.skipif(not SEPARATE.is_file(), reason="no corpus")
@pytest.mark.parametrize(
    ("changed", "shown"), [("NewPet.yaml", True), ("common-Error.yaml", False)]
)
def test_a_changed_ref_file_is_a_miss(
    changed: str, shown: bool, cache: Path, loads: list[Path], tmp_path: Path
) -> None:
    spec = _copy_separate(tmp_path)
    before = mcp.server(str(spec), base_url="http://127.0.0.1:9").toolset.listing_data("x")
    mcp.server(str(spec), base_url="http://127.0.0.1:9")
    assert len(loads) == 1  # recorded, read back
    file = spec.parent / changed
    file.write_text(file.read_text() + "description: Changed here.\n")
    after = mcp.server(str(spec), base_url="http://127.0.0.1:9").toolset.listing_data("x")
    assert len(loads) == 2  # loaded again (an error response's schema is not listed)
    assert (after != before) is shown
    assert (b"Changed here." in orjson.dumps(after)) is shown


@pytest.mark.skipif(not SEPARATE.is_file(), reason="no corpus")
def test_a_removed_ref_file_is_a_miss(cache: Path, loads: list[Path], tmp_path: Path) -> None:
    spec = _copy_separate(tmp_path)
    mcp.server(str(spec), base_url="http://127.0.0.1:9")
    (spec.parent / "NewPet.yaml").unlink()
    with pytest.raises(SktypesError, match=r"NewPet\.yaml"):
        mcp.server(str(spec), base_url="http://127.0.0.1:9")
    assert len(loads) == 2


def test_the_options_that_shape_views_have_their_own_records(
    cache: Path, loads: list[Path]
) -> None:
    for _ in range(2):
        mcp.server(str(WEATHER), base_url="http://127.0.0.1:9")
        mcp.server(str(WEATHER), base_url="http://127.0.0.1:9", validate=False)
        mcp.server(str(WEATHER), base_url="http://127.0.0.1:9", strict=False)
        mcp.server(str(WEATHER), base_url="http://127.0.0.1:9", include=["GetWeatherForecast*"])
    assert len(loads) == 4
    assert len(_records(cache)) == 4


def test_a_spec_that_changed_after_start_says_so_at_its_first_call(
    cache: Path, tmp_path: Path
) -> None:
    spec = tmp_path / "weather.yaml"
    spec.write_bytes(WEATHER.read_bytes())
    mcp.server(str(spec), base_url="http://127.0.0.1:9")  # recorded
    server = mcp.server(str(spec), base_url="http://127.0.0.1:9")  # from the record
    spec.write_text(spec.read_text() + "\n# edited\n")
    _, (result,) = _session(server, [("GetWeatherForecast1", {"date": "2026-11-27"})])
    assert result["isError"]
    assert "changed since the server started" in result["content"][0]["text"]


def test_an_unreadable_record_is_a_miss(cache: Path, loads: list[Path]) -> None:
    built = mcp.server(str(WEATHER), base_url="http://127.0.0.1:9").toolset.listing_data("x")
    (record,) = _records(cache)
    record.write_bytes(b'{"format": "sktypes-served-spec/1"}\nnot views')
    again = mcp.server(str(WEATHER), base_url="http://127.0.0.1:9").toolset.listing_data("x")
    assert again == built and len(loads) == 2


def test_no_cache_neither_reads_nor_writes_records(
    cache: Path, loads: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKTYPES_NO_CACHE", "1")
    mcp.server(str(WEATHER), base_url="http://127.0.0.1:9")
    mcp.server(str(WEATHER), base_url="http://127.0.0.1:9")
    assert len(loads) == 2 and _records(cache) == []


def test_warnings_of_a_recorded_load_are_said_again(cache: Path) -> None:
    first = mcp.server(str(WEATHER), base_url="http://127.0.0.1:9", strict=False)
    second = mcp.server(str(WEATHER), base_url="http://127.0.0.1:9", strict=False)
    assert second.warnings == first.warnings


@pytest.mark.parametrize(("flags", "shown"), [((), True), (("-q",), False), (("--quiet",), False)])
def test_serve_shows_its_stages_unless_quiet(
    flags: tuple[str, ...], shown: bool, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from contextlib import nullcontext

    from click.testing import CliRunner

    from sktypes.cli import _serve, cli

    seen: list[bool] = []

    def recording(first: str, *, enabled: bool = True) -> Any:
        seen.append(enabled)
        return nullcontext()

    monkeypatch.setattr(_serve, "stages", recording)
    monkeypatch.setattr(mcp, "run", lambda *a, **k: None)
    result = CliRunner().invoke(cli, ["serve", str(WEATHER), "--base-url", "http://x", *flags])
    assert result.exit_code == 0, result.output
    assert seen == [shown]


def test_no_cache_help_names_everything_it_disables() -> None:
    from click.testing import CliRunner

    from sktypes.cli import cli

    text = " ".join(CliRunner().invoke(cli, ["--help"]).output.split())
    for what in ("validation verdicts", "check found clean", "loaded specs", "tools/list"):
        assert what in text
