"""Issue 13, items 2 and 3: a ``$ref`` fetches nothing and reads nothing it was not allowed to.

Remote refs are refused by their *parsed* scheme (any case, whitespace and control
characters around or inside the scheme), in every file reached, and openapi-spec-validator
is handed only the documents sktypes admitted. Local refs stay under the spec's directory
(or ``ref_roots``), are regular files, and are size-limited.
"""

from __future__ import annotations

import http.server
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sktypes.errors import OpenApiError
from sktypes.limits import DocumentLimits
from sktypes.openapi import load_openapi
from sktypes.openapi._refs import Refs
from sktypes.openapi._source import read_path
from sktypes.openapi._validate import validate_spec


class _Counting(http.server.BaseHTTPRequestHandler):
    hits: list[str]

    def do_GET(self) -> None:
        self.hits.append(self.path)
        body = b'{"type": "string", "description": "FETCHED"}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, list[str]]]:
    """A local HTTP server that records every request; yields (host:port, hits)."""
    hits: list[str] = []
    handler = type("Handler", (_Counting,), {"hits": hits})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{httpd.server_address[1]}", hits
    finally:
        httpd.shutdown()
        httpd.server_close()


def _spec(ref: str, **components: Any) -> dict[str, Any]:
    schema = {"$ref": ref}
    spec: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": "T", "version": "1"},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": schema}},
                        }
                    },
                }
            }
        },
    }
    if components:
        spec["components"] = {"schemas": components}
    return spec


def _write(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


REMOTE_SPELLINGS = [
    "http://{host}/x.json",
    "HTTP://{host}/x.json",
    "Http://{host}/x.json",
    "hTTpS://{host}/x.json",
    " http://{host}/x.json",
    "\thttp://{host}/x.json",
    "\nhttp://{host}/x.json",
    "\x00http://{host}/x.json",
    "\x1f http://{host}/x.json",
    "http://{host}/x.json \n",
    "ht\ttp://{host}/x.json",
    "ht\ntp://{host}/x.json",
]


@pytest.mark.parametrize("spelling", REMOTE_SPELLINGS, ids=repr)
@pytest.mark.parametrize("validate", [True, False])
def test_remote_ref_in_any_spelling_is_refused_and_never_fetched(
    tmp_path: Path, server: tuple[str, list[str]], spelling: str, validate: bool
) -> None:
    host, hits = server
    spec = _write(tmp_path / "api.json", _spec(spelling.format(host=host)))
    if validate:
        with pytest.raises(OpenApiError, match="refused"):
            load_openapi(spec)
    else:
        plugin = load_openapi(spec, validate=False)
        assert plugin.views == []
        assert "refused" in plugin.warnings[0]
    assert hits == []


@pytest.mark.parametrize("spelling", REMOTE_SPELLINGS[:6], ids=repr)
def test_unused_remote_ref_in_the_root_file_is_refused_before_validation(
    tmp_path: Path, server: tuple[str, list[str]], spelling: str
) -> None:
    host, hits = server
    spec = _spec("#/components/schemas/S", S={"type": "string"})
    spec["components"]["schemas"]["Unused"] = {"$ref": spelling.format(host=host)}
    path = _write(tmp_path / "api.json", spec)
    with pytest.raises(OpenApiError) as info:
        load_openapi(path)
    assert str(info.value) == (
        f"{path}:1:299: /components/schemas/Unused/$ref: remote $ref refused"
        " (pass allow_remote_refs=True to fetch it)"
    )
    assert hits == []


def test_remote_ref_in_a_sibling_file_only_an_unused_component_reaches(
    tmp_path: Path, server: tuple[str, list[str]]
) -> None:
    host, hits = server
    _write(
        tmp_path / "common.json",
        {"S": {"type": "string"}, "U": {"$ref": f"HTTP://{host}/u.json"}},
    )
    spec = _spec("common.json#/S", Unused={"$ref": "common.json#/U"})
    path = _write(tmp_path / "api.json", spec)
    with pytest.raises(OpenApiError) as info:
        load_openapi(path)
    expected = f"{tmp_path / 'common.json'}:1:33: /U/$ref: remote $ref refused"
    assert str(info.value).startswith(expected)
    assert load_openapi(path, validate=False).view("a").return_parameter.schema is not None
    assert hits == []


def test_allowed_remote_documents_are_fetched_once_by_sktypes_not_by_the_validator(
    tmp_path: Path, server: tuple[str, list[str]]
) -> None:
    host, hits = server
    spec = _spec(f"http://{host}/used.json", Unused={"$ref": f"http://{host}/unused.json"})
    path = _write(tmp_path / "api.json", spec)
    plugin = load_openapi(path, allow_remote_refs=True)
    schema = plugin.view("a").return_parameter.schema
    assert schema is not None and "FETCHED" in schema.to_json()
    assert sorted(hits) == ["/unused.json", "/used.json"]


def test_the_validator_resolves_nothing_sktypes_did_not_admit(
    tmp_path: Path, server: tuple[str, list[str]]
) -> None:
    host, hits = server
    secret = _write(tmp_path / "secret.json", {"type": "string"})
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    spec = _spec(
        "#/components/schemas/S",
        S={"type": "string"},
        Remote={"$ref": f"http://{host}/x.json"},
        Local={"$ref": secret.as_uri()},
        Fifo={"$ref": "fifo.json"},
    )
    path = _write(tmp_path / "api.json", spec)
    doc = read_path(path, str(path), DocumentLimits())
    refs = Refs(doc, allow_remote=True, limits=DocumentLimits())
    # nothing admitted beyond the root: validation must fail, not read, fetch or block
    done: list[BaseException] = []

    def run() -> None:
        try:
            validate_spec(doc, 30, refs)
        except BaseException as exc:  # collected and checked below
            done.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the validator blocked on a FIFO"
    assert len(done) == 1 and isinstance(done[0], OpenApiError)
    said = str(done[0])
    assert "not admitted" in said or "not a regular file" in said, said
    assert hits == []


@pytest.mark.parametrize(
    "ref",
    [
        "{secret}",  # an absolute path
        "../../outside/secret.json",
        "../outside/secret.json",
        "file://{secret}",
        "FILE://{secret}",
        "file://localhost{secret}",
        " file://{secret}",
        "file://evil.example{secret}",
        "//evil.example/{secret}",
        "%2e%2e/%2e%2e/outside/secret.json",
    ],
)
@pytest.mark.parametrize("validate", [True, False])
def test_local_ref_outside_the_spec_directory_is_refused(
    tmp_path: Path, ref: str, validate: bool
) -> None:
    secret = _write(tmp_path / "outside" / "secret.json", {"description": "SECRET"})
    spec = _write(tmp_path / "a" / "b" / "api.json", _spec(ref.format(secret=secret)))
    if validate:
        with pytest.raises(OpenApiError, match=r"refused|no such file") as info:
            load_openapi(spec)
        assert "SECRET" not in str(info.value)
    else:
        plugin = load_openapi(spec, validate=False)
        assert plugin.views == []
        assert "SECRET" not in " ".join(plugin.warnings)


def test_ref_roots_allow_a_directory_outside_the_spec_directory(tmp_path: Path) -> None:
    _write(tmp_path / "common" / "Error.json", {"type": "string", "description": "shared"})
    spec = _write(tmp_path / "spec" / "api.json", _spec("../common/Error.json"))
    with pytest.raises(OpenApiError, match=r"outside the spec's directory .*ref_roots"):
        load_openapi(spec)
    plugin = load_openapi(spec, ref_roots=[tmp_path / "common"])
    schema = plugin.view("a").return_parameter.schema
    assert schema is not None and "shared" in schema.to_json()


def test_a_symlink_inside_the_spec_directory_cannot_point_outside(tmp_path: Path) -> None:
    secret = _write(tmp_path / "outside" / "secret.json", {"description": "SECRET"})
    spec = _write(tmp_path / "spec" / "api.json", _spec("link.json"))
    (tmp_path / "spec" / "link.json").symlink_to(secret)
    with pytest.raises(OpenApiError, match="outside the spec's directory"):
        load_openapi(spec)


def test_files_below_the_spec_directory_are_read(tmp_path: Path) -> None:
    _write(tmp_path / "models" / "pet.json", {"type": "string", "description": "pet"})
    spec = _write(tmp_path / "api.json", _spec("./models/../models/pet.json"))
    schema = load_openapi(spec).view("a").return_parameter.schema
    assert schema is not None and "pet" in schema.to_json()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "file:///dev/zero"])
def test_a_device_is_refused_without_reading_it(tmp_path: Path, device: str) -> None:
    spec = _write(tmp_path / "api.json", _spec(device))
    start = time.monotonic()
    with pytest.raises(OpenApiError, match="refused"):
        load_openapi(spec, ref_roots=["/dev"])
    assert time.monotonic() - start < 5


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    spec = _write(tmp_path / "api.json", _spec("pipe.json"))
    result: list[BaseException] = []

    def run() -> None:
        try:
            load_openapi(spec)
        except BaseException as exc:  # checked below
            result.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "opening the FIFO blocked"
    assert isinstance(result[0], OpenApiError)
    assert "not a regular file" in str(result[0])


def test_a_referenced_file_has_the_size_limit(tmp_path: Path) -> None:
    (tmp_path / "big.json").write_text(json.dumps({"description": "x" * 5000}))
    spec = _write(tmp_path / "api.json", _spec("big.json"))
    with pytest.raises(OpenApiError, match="over the 2000-byte limit") as info:
        load_openapi(spec, max_bytes=2000)
    assert info.value.file is not None and info.value.file.endswith("big.json")


def test_a_remote_document_cannot_refer_to_local_files(
    tmp_path: Path, server: tuple[str, list[str]]
) -> None:
    secret = _write(tmp_path / "secret.json", {"description": "SECRET"})

    class Evil(_Counting):
        def do_GET(self) -> None:
            body = json.dumps({"$ref": secret.as_uri()}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        spec = _write(tmp_path / "api.json", _spec(f"http://127.0.0.1:{httpd.server_address[1]}/e"))
        with pytest.raises(OpenApiError, match="remote document cannot refer to local files"):
            load_openapi(spec, allow_remote_refs=True)
        plugin = load_openapi(spec, allow_remote_refs=True, validate=False)
        assert plugin.views == []
        assert "remote document cannot refer to local files" in plugin.warnings[0]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_in_memory_specs_read_no_local_file(tmp_path: Path) -> None:
    secret = _write(tmp_path / "secret.json", {"description": "SECRET"})
    for ref in (secret.as_uri(), str(secret), "secret.json"):
        plugin = load_openapi(_spec(ref), validate=False)
        assert plugin.views == []
        with pytest.raises(OpenApiError):
            load_openapi(_spec(ref))


def test_spec_files_are_the_files_the_loader_admits(tmp_path: Path) -> None:
    from sktypes.openapi import spec_files

    secret = _write(tmp_path / "outside" / "secret.json", {"description": "SECRET"})
    _write(tmp_path / "spec" / "models" / "pet.json", {"type": "string"})
    os.mkfifo(tmp_path / "spec" / "pipe.json")
    spec = _write(
        tmp_path / "spec" / "api.json",
        _spec(
            "models/pet.json",
            Out={"$ref": str(secret)},
            Pipe={"$ref": "pipe.json"},
            Remote={"$ref": "http://127.0.0.1:9/x.json"},
            Missing={"$ref": "nope.json"},
        ),
    )
    assert spec_files(spec) == [
        spec.resolve(),
        (tmp_path / "spec" / "models" / "pet.json").resolve(),
    ]
    assert secret.resolve() in spec_files(spec, ref_roots=[tmp_path / "outside"])


def test_generate_and_check_with_ref_roots_on_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    sktypes = str(Path(sys.executable).parent / "sktypes")
    _write(tmp_path / "common" / "Error.json", {"type": "string", "description": "shared"})
    spec = _write(tmp_path / "spec" / "api.json", _spec("../common/Error.json"))
    out = tmp_path / "out"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sktypes, *args], capture_output=True, text=True, cwd=tmp_path)

    refused = run("generate", str(spec), "-o", str(out), "--name", "api")
    assert refused.returncode == 2
    assert "ref_roots" in refused.stderr and "Traceback" not in refused.stderr
    done = run("generate", str(spec), "-o", str(out), "--name", "api", "--ref-root", "common")
    assert done.returncode == 0, done.stderr
    link = json.loads((out / "api" / "sktypes.json").read_text())
    assert link["options"]["ref_roots"] == ["../../common"]
    assert "../../common/Error.json" in link["inputs"]
    assert run("check", str(out / "api")).returncode == 0
    (tmp_path / "common" / "Error.json").write_text('{"type": "integer"}')
    changed = run("check", str(out / "api"))
    assert changed.returncode == 1 and "Error.json" in changed.stdout


def test_a_spec_reached_through_a_symlinked_directory_reads_its_own_files(
    tmp_path: Path,
) -> None:
    """The corpus is reached as /work/wt/shared -> /work/shared: roots compare resolved."""
    _write(tmp_path / "real" / "spec" / "models" / "pet.json", {"description": "pet"})
    _write(tmp_path / "real" / "common" / "Error.json", {"description": "shared"})
    _write(tmp_path / "real" / "spec" / "api.json", _spec("models/pet.json"))
    (tmp_path / "link").symlink_to(tmp_path / "real")
    schema = load_openapi(tmp_path / "link" / "spec" / "api.json").view("a").return_parameter
    assert schema.schema is not None and "pet" in schema.schema.to_json()
    outside = _write(tmp_path / "real" / "spec" / "api2.json", _spec("../common/Error.json"))
    linked = tmp_path / "link" / "spec" / outside.name
    with pytest.raises(OpenApiError, match="outside the spec's directory"):
        load_openapi(linked)  # a sibling directory stays refused, symlinked or not
    plugin = load_openapi(linked, ref_roots=[tmp_path / "link" / "common"])  # a symlinked root
    schema = plugin.view("a").return_parameter
    assert schema.schema is not None and "shared" in schema.schema.to_json()
