"""Plugin generation: golden packages, determinism, ruff/mypy, a real HTTP round trip."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

import sktypes as sk
from sktypes.errors import GenerationError
from sktypes_codegen import generate_plugin, render_plugin
from tests.corpus_util import CORPUS
from tests.golden_util import GOLDEN

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "schemas" / "examples"
BIN = Path(sys.executable).parent
RUFF_RULES = "E,F,W,I,B,UP,SIM,RUF,C4,PIE,RET"

GOLDEN_SPECS = {
    "date_plugin": EXAMPLES / "date_plugin.openapi.yaml",
    "weather_plugin": EXAMPLES / "weather_plugin.openapi.yaml",
    "petstore_v3": CORPUS / "oai-v3.0-petstore" / "petstore.yaml",
    "petstore_v2_expanded": CORPUS / "oai-v2.0-petstore-expanded" / "petstore-expanded.json",
    "uber_split": CORPUS / "oai-v2.0-uber" / "uber.json",
    # allOf chains, oneOf beside properties, discriminators (with and without mapping), enums,
    # recursion, nullable versus optional, constraints on fields and parameters
    "composition": ROOT / "tests" / "specs" / "composition.yaml",
    # header precedence, wildcard, form, multipart and octet-stream bodies, text and bytes
    "requests_plugin": ROOT / "tests" / "specs" / "requests.yaml",
    # issue 27: typed errors, pagination (every style, guessed and declared), retries (an
    # idempotency key), OAuth2 client credentials and other schemes, streams (3.1 and 3.2)
    "remote_shop": ROOT / "tests" / "specs" / "remote_api.yaml",
    "streams_32": ROOT / "tests" / "specs" / "streams_32.yaml",
}
SPLIT_GOLDEN = {"uber_split"}
"""Golden packages generated with ``split=True`` (one module per tag)."""


def _available(specs: dict[str, Path]) -> dict[str, Path]:
    return {k: v for k, v in specs.items() if v.is_file()}


@pytest.mark.parametrize("name", sorted(_available(GOLDEN_SPECS)))
def test_golden_package_matches(name: str) -> None:
    _, files = render_plugin(
        GOLDEN_SPECS[name], name=name, sync=True, split=name in SPLIT_GOLDEN or None
    )
    target = GOLDEN / "generated" / name
    if os.environ.get("SKTYPES_UPDATE_GOLDEN") == "1":
        shutil.rmtree(target, ignore_errors=True)
        for f, content in files.items():
            (target / f).parent.mkdir(parents=True, exist_ok=True)
            (target / f).write_text(content, encoding="utf-8")
        return
    assert target.is_dir(), f"missing golden package {target}: run `make golden`"
    on_disk = sorted(
        p.relative_to(target).as_posix()
        for p in target.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    assert on_disk == sorted(files)
    for f, content in files.items():
        assert (target / f).read_text(encoding="utf-8") == content, f"{target / f} differs"


def test_golden_packages_pass_ruff_and_mypy_strict() -> None:
    generated = GOLDEN / "generated"
    if not generated.is_dir():
        pytest.skip("golden packages not generated yet")
    ruff = subprocess.run(
        [BIN / "ruff", "check", "--isolated", "--select", RUFF_RULES, "--line-length", "100", "."],
        cwd=generated,
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout
    fmt = subprocess.run(
        [BIN / "ruff", "format", "--isolated", "--line-length", "100", "--check", "."],
        cwd=generated,
        capture_output=True,
        text=True,
    )
    assert fmt.returncode == 0, fmt.stdout
    mypy = subprocess.run(
        [BIN / "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull, str(generated)],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(generated)},
        capture_output=True,
        text=True,
    )
    assert mypy.returncode == 0, mypy.stdout


@pytest.mark.parametrize(("name", "split"), [("petstore_v3", "None"), ("uber_split", "True")])
def test_generation_is_byte_identical_across_hash_seeds(name: str, split: str) -> None:
    if not GOLDEN_SPECS[name].is_file():
        pytest.skip("corpus not available")
    script = (
        "import sys, json; from sktypes_codegen import render_plugin; "
        f"print(json.dumps(render_plugin(sys.argv[1], sync=True, split={split})[1], "
        "sort_keys=True))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script, str(GOLDEN_SPECS[name])],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        ).stdout
        for seed in ("0", "12345")
    }
    assert len(outputs) == 1


def test_failed_generation_leaves_previous_package_intact(tmp_path: Path) -> None:
    target = generate_plugin(EXAMPLES / "date_plugin.openapi.yaml", tmp_path, name="pkg")
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    bad = tmp_path / "bad.yaml"
    bad.write_text("openapi: 3.0.0\ninfo: {title: x}\npaths: 12\n")
    with pytest.raises(GenerationError) as info:
        generate_plugin(bad, tmp_path, name="pkg")
    assert "bad.yaml" in str(info.value)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before


def test_header_names_spec_and_hash() -> None:
    _, files = render_plugin(EXAMPLES / "weather_plugin.openapi.yaml")
    digest = (
        __import__("hashlib")
        .sha256((EXAMPLES / "weather_plugin.openapi.yaml").read_bytes())
        .hexdigest()
    )
    for f in ("__init__.py", "plugin.py", "models.py"):
        assert "weather_plugin.openapi.yaml" in files[f]
        assert digest in files[f].replace("\n", "")


# --- a real server on 127.0.0.1 ---------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        url = urlparse(self.path)
        query = parse_qs(url.query)
        body: Any
        if url.path == "/forecast":
            body = {"degreesFahrenheit": 60 + len(query.get("date", [""])[0])}
        elif url.path == "/date":
            body = {"date": f"2026-01-{int(query.get('numDays', ['0'])[0]) + 1:02d}"}
        elif url.path == "/fail":
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b"down")
            return
        else:
            self.send_response(404)
            self.end_headers()
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def _import_generated(tmp_path: Path, spec: Path, name: str) -> Any:
    generate_plugin(spec, tmp_path, name=name, sync=True)
    sys.path.insert(0, str(tmp_path))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(tmp_path))


def test_generated_plugins_call_a_real_server(tmp_path: Path, server: str) -> None:
    weather = _import_generated(tmp_path, EXAMPLES / "weather_plugin.openapi.yaml", "e2e_weather")
    date = _import_generated(tmp_path, EXAMPLES / "date_plugin.openapi.yaml", "e2e_date")
    wp = weather.E2EWeatherPlugin(server)
    dp = date.E2EDatePlugin(server)
    forecast = asyncio.run(wp.get_weather_forecast1(date="2026-01-02"))
    assert forecast.degrees_fahrenheit == 70
    assert wp.get_weather_forecast1_sync(date="x").degrees_fahrenheit == 61
    got = asyncio.run(dp.get_date1(numDays=4))
    assert got.date == "2026-01-05"
    views = sk.plugin_views(wp)
    assert [v.name for v in views] == ["GetWeatherForecast1"]


def test_non_2xx_raises_typed_error_with_status_and_body(tmp_path: Path, server: str) -> None:
    weather = _import_generated(tmp_path, EXAMPLES / "weather_plugin.openapi.yaml", "e2e_fail")
    wp = weather.E2EFailPlugin(server + "/nothing")
    with pytest.raises(weather.ApiError) as info:
        asyncio.run(wp.get_weather_forecast1(date="x"))
    assert info.value.status_code == 404


def test_cli_generate_check_and_bad_input(tmp_path: Path) -> None:
    spec = str(EXAMPLES / "date_plugin.openapi.yaml")
    sktypes = str(BIN / "sktypes")
    wrote = subprocess.run(
        [sktypes, "generate", spec, "-o", str(tmp_path), "--name", "cli_pkg"],
        capture_output=True,
        text=True,
    )
    assert wrote.returncode == 0, wrote.stderr
    assert (tmp_path / "cli_pkg" / "plugin.py").is_file()
    check = [sktypes, "generate", spec, "-o", str(tmp_path), "--name", "cli_pkg", "--check"]
    assert subprocess.run(check, capture_output=True, text=True).returncode == 0
    (tmp_path / "cli_pkg" / "models.py").write_text("# edited\n")
    stale = subprocess.run(check, capture_output=True, text=True)
    assert stale.returncode == 1
    assert (
        stale.stdout.strip()
        == f"{tmp_path / 'cli_pkg' / 'models.py'}:1: differs from a fresh generation"
    )
    bad = tmp_path / "bad.yaml"
    bad.write_text("openapi: 3.0.0\ninfo: {title: x}\npaths: 12\n")
    failed = subprocess.run(
        [sktypes, "generate", str(bad), "-o", str(tmp_path)], capture_output=True, text=True
    )
    assert failed.returncode == 2
    assert failed.stderr.startswith(f"sktypes: error: {bad}")
    assert len(failed.stderr.strip().splitlines()) == 1
    assert "Traceback" not in failed.stderr


def test_invalid_spec_generates_with_validation_off(tmp_path: Path) -> None:
    spec = CORPUS / "googlemaps-multifile" / "index.yml"
    if not spec.exists():
        pytest.skip("the shared corpus is not next to this checkout")
    with pytest.raises(GenerationError, match=r"index\.yml"):
        generate_plugin(spec, tmp_path, name="gmaps_strict")
    target = generate_plugin(spec, tmp_path, name="gmaps_lax", validate=False)
    result = subprocess.run(
        [sys.executable, "-c", "import gmaps_lax; print(len(gmaps_lax.__all__) > 0)"],
        capture_output=True,
        text=True,
        cwd=target.parent,
    )
    assert result.stdout.strip() == "True", result.stderr


@pytest.mark.parametrize("uuid_format", [True, False])
def test_parameters_named_like_modules_do_not_import_them(
    tmp_path: Path, uuid_format: bool
) -> None:
    """A parameter called ``uuid`` or ``datetime`` is not a use of the module.

    (``uuid: uuid.UUID`` is fine: annotations are read at module level.)
    """
    spec = tmp_path / "names.json"
    spec.write_text(
        json.dumps(
            {
                "openapi": "3.0.3",
                "info": {"title": "Names", "version": "1"},
                "paths": {
                    "/things/{uuid}": {
                        "get": {
                            "operationId": "getThing",
                            "parameters": [
                                {
                                    "name": "uuid",
                                    "in": "path",
                                    "required": True,
                                    "schema": {"type": "string", "format": "uuid"}
                                    if uuid_format
                                    else {"type": "string"},
                                },
                                {"name": "datetime", "in": "query", "schema": {"type": "string"}},
                                {
                                    "name": "since",
                                    "in": "query",
                                    "schema": {"type": "string", "format": "date-time"},
                                },
                            ],
                            "responses": {"204": {"description": "ok"}},
                        }
                    }
                },
            }
        )
    )
    target = generate_plugin(spec, tmp_path / "out", name="names")
    plugin = (target / "plugin.py").read_text()
    assert "import datetime" in plugin
    assert ("import uuid" in plugin) is uuid_format
    ruff = subprocess.run(
        [BIN / "ruff", "check", "--isolated", "--select", RUFF_RULES, "--line-length", "100", "."],
        cwd=target,
        capture_output=True,
        text=True,
    )
    assert ruff.returncode == 0, ruff.stdout
