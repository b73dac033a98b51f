"""sktypes.remote: requests go through the user's httpx client; unsafe values cannot escape.

The client tests use ``httpx.MockTransport`` (what reaches the transport is what would go on
the wire) and a real HTTP server on 127.0.0.1 that echoes what it received, raw.
"""

from __future__ import annotations

import asyncio
import importlib
import io
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pydantic
import pytest

from sktypes.errors import SktypesError
from sktypes.remote import (
    ApiClient,
    Credential,
    RemoteRequestError,
    Request,
    build_request,
    cookie_pairs,
    path_value,
)
from sktypes_codegen import generate_plugin

Seen = list[httpx.Request]


def _recording(seen: Seen, status: int = 200) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, json={"ok": True})

    return httpx.MockTransport(handler)


def _bearer(request: httpx.Request) -> httpx.Request:
    request.headers["Authorization"] = "Bearer from-auth"
    return request


# --- the user's client -------------------------------------------------------------------


def test_client_headers_params_cookies_and_auth_reach_the_request() -> None:
    seen: Seen = []
    hooked: list[str] = []
    client = httpx.AsyncClient(
        transport=_recording(seen),
        headers={"User-Agent": "my-app/1.0", "X-Team": "a"},
        params={"api-version": "2024-01-01"},
        cookies={"session": "s1"},
        auth=httpx.BasicAuth("user", "pass"),
        event_hooks={"request": [lambda r: _hook(hooked, r)]},
    )
    api = ApiClient("https://api.test/v1", client=client)
    request = Request("listItems", "get", "/items", query=[("page", 2, "form", True)])
    asyncio.run(api._send(request))
    (sent,) = seen
    assert str(sent.url) == "https://api.test/v1/items?api-version=2024-01-01&page=2"
    assert sent.headers["User-Agent"] == "my-app/1.0"
    assert sent.headers["X-Team"] == "a"
    assert sent.headers["Cookie"] == "session=s1"
    assert sent.headers["Authorization"] == "Basic dXNlcjpwYXNz"
    assert hooked == ["GET /v1/items"]


async def _hook(hooked: list[str], request: httpx.Request) -> None:
    hooked.append(f"{request.method} {request.url.path}")


def test_explicit_arguments_win_over_the_client_defaults() -> None:
    seen: Seen = []
    client = httpx.Client(
        transport=_recording(seen),
        headers={"X-Team": "default"},
        params={"page": "1"},
        cookies={"theme": "dark"},
    )
    api = ApiClient("https://api.test", sync_client=client)
    api._send_sync(
        Request(
            "op",
            "get",
            "/x",
            query=[("page", 5, "form", True)],
            headers=[("X-Team", "explicit", "simple", False)],
            cookies=[("theme", "light", "form", True)],
        )
    )
    (sent,) = seen
    assert sent.url.params.get_list("page") == ["5"]
    assert sent.headers.get_list("X-Team") == ["explicit"]
    assert sent.headers["Cookie"] == "theme=light"


def test_the_clients_auth_and_base_url_apply_when_the_plugin_has_none() -> None:
    seen: Seen = []
    client = httpx.Client(
        transport=_recording(seen), base_url="https://staging.test/api/", auth=_bearer
    )
    api = ApiClient(None, sync_client=client, default_base_url="https://prod.test")
    api._send_sync(Request("op", "get", "/pets"))
    assert str(seen[-1].url) == "https://staging.test/api/pets"
    assert seen[-1].headers["Authorization"] == "Bearer from-auth"
    plain = httpx.Client(transport=_recording(seen))
    bare = ApiClient(None, sync_client=plain, default_base_url="https://prod.test")
    bare._send_sync(Request("op", "get", "/pets"))
    assert str(seen[-1].url) == "https://prod.test/pets"
    explicit = ApiClient("https://mine.test", sync_client=client)
    explicit._send_sync(Request("op", "get", "/pets"))
    assert str(seen[-1].url) == "https://mine.test/pets"


def test_the_clients_timeout_is_kept() -> None:
    client = httpx.Client(timeout=httpx.Timeout(3.5))
    built = build_request("https://a.test", Request("op", "get", "/"), client=client)
    assert built.extensions["timeout"]["read"] == 3.5


def test_explicit_header_parameter_wins_over_a_credential_of_the_same_name() -> None:
    built = build_request(
        "https://a.test",
        Request(
            "op",
            "get",
            "/",
            headers=[("X-Api-Key", "per-call", "simple", False)],
            query=[("key", "per-call", "form", True)],
            cookies=[("sid", "per-call", "form", True)],
        ),
        credentials=[
            Credential("header", "x-api-key", "configured"),
            Credential("query", "key", "configured"),
            Credential("cookie", "sid", "configured"),
        ],
    )
    assert built.headers.get_list("X-Api-Key") == ["per-call"]
    assert built.url.params.get_list("key") == ["per-call"]
    assert built.headers["Cookie"] == "sid=per-call"
    without = build_request(
        "https://a.test",
        Request("op", "get", "/", headers=[("X-Api-Key", None, "simple", False)]),
        credentials=[Credential("header", "X-Api-Key", "configured")],
    )
    assert without.headers["X-Api-Key"] == "configured"


# --- issue 13 item 4: values cannot escape their place -------------------------------------


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ("..", "/v1/users/%2E%2E/profile"),
        (".", "/v1/users/%2E/profile"),
        ("...", "/v1/users/.../profile"),
        ("../admin", "/v1/users/..%2Fadmin/profile"),
        ("a.b", "/v1/users/a.b/profile"),
    ],
)
def test_dot_segments_in_path_parameters_are_encoded(value: str, path: str) -> None:
    built = build_request(
        "https://api.test/v1",
        Request("op", "get", "/users/{id}/profile", path_params=[("id", value, "simple", False)]),
        credentials=[Credential("header", "Authorization", "Bearer t")],
    )
    assert built.url.raw_path.decode() == path


def test_label_style_dot_cannot_become_a_dot_segment() -> None:
    assert path_value("x", ".", "label", False) == ".%2E"
    assert path_value("x", ["", ""], "label", True) == "%2E%2E"


def test_a_value_cannot_fill_another_placeholder() -> None:
    built = build_request(
        "https://a.test",
        Request(
            "op",
            "get",
            "/{a}/{b}",
            path_params=[("a", "{b}", "simple", False), ("b", "x", "simple", False)],
        ),
    )
    assert built.url.raw_path == b"/%7Bb%7D/x"


def test_cookie_values_cannot_add_a_cookie() -> None:
    built = build_request(
        "https://a.test",
        Request("op", "get", "/", cookies=[("session", "abc; apikey=ATTACKER", "form", True)]),
        credentials=[Credential("cookie", "apikey", "real")],
    )
    cookie = built.headers["Cookie"]
    assert cookie == "apikey=real; session=abc%3B%20apikey=ATTACKER"
    assert [c.split("=", 1)[0] for c in cookie.split("; ")] == ["apikey", "session"]


def test_cookie_values_encode_commas_quotes_and_controls_but_keep_style_delimiters() -> None:
    assert cookie_pairs([("c", 'a,b"\\\r\n%', "form", True)]) == [("c", "a%2Cb%22%5C%0D%0A%25")]
    assert cookie_pairs([("c", ["x,y", "z"], "form", False)]) == [("c", "x%2Cy,z")]


def test_a_cookie_name_that_is_not_a_token_is_refused() -> None:
    request = Request("op", "get", "/", cookies=[("p", {"a;b": 1}, "form", True)])
    with pytest.raises(RemoteRequestError, match="cookie name 'a;b'"):
        build_request("https://a.test", request)


@pytest.mark.parametrize("value", ["a\r\nX-Injected: 1", "a\nb", "a\rb", "nul\x00", "bell\x07"])
def test_line_breaks_and_controls_in_header_values_raise_an_sktypes_error(value: str) -> None:
    request = Request("getThing", "get", "/", headers=[("X-Trace", value, "simple", False)])
    with pytest.raises(RemoteRequestError) as info:
        build_request("https://a.test", request)
    assert isinstance(info.value, SktypesError)
    assert info.value.where == "getThing"
    assert "X-Trace" in str(info.value)


def test_a_credential_with_a_line_break_is_refused_too() -> None:
    with pytest.raises(RemoteRequestError, match="Authorization"):
        build_request(
            "https://a.test",
            Request("op", "get", "/"),
            credentials=[Credential("header", "Authorization", "Bearer t\r\nX: y")],
        )


def test_a_tab_in_a_header_value_is_allowed() -> None:
    built = build_request(
        "https://a.test", Request("op", "get", "/", headers=[("X-T", "a\tb", "simple", False)])
    )
    assert built.headers["X-T"] == "a\tb"


def test_non_ascii_header_values_are_refused_not_mangled() -> None:
    with pytest.raises(RemoteRequestError, match="not ASCII"):
        build_request(
            "https://a.test", Request("op", "get", "/", headers=[("X-T", "é", "simple", False)])
        )


# --- bodies ------------------------------------------------------------------------------


def _body(body: Any, content_type: str | None) -> httpx.Request:
    return build_request(
        "https://a.test",
        Request("op", "post", "/", body=body, content_type=content_type, send_body=True),
    )


@pytest.mark.parametrize(
    ("declared", "body", "content_type", "content"),
    [
        ("*/*", {"a": 1}, "application/json", b'{"a":1}'),
        ("application/*", [1, 2], "application/json", b"[1,2]"),
        ("*/*", "hello", "text/plain; charset=utf-8", b"hello"),
        ("text/*", "hello", "text/plain; charset=utf-8", b"hello"),
        ("*/*", b"\x00\x01", "application/octet-stream", b"\x00\x01"),
        ("application/*", b"\x00", "application/octet-stream", b"\x00"),
        ("application/vnd.api+json", {"a": None}, "application/vnd.api+json", b'{"a":null}'),
    ],
)
def test_wildcard_media_types_become_concrete(
    declared: str, body: Any, content_type: str, content: bytes
) -> None:
    built = _body(body, declared)
    assert built.headers["Content-Type"] == content_type
    assert built.read() == content


def test_octet_stream_bodies_are_sent_raw_from_bytes_or_files() -> None:
    assert _body(b"\xff\xfe", "application/octet-stream").read() == b"\xff\xfe"
    assert _body(io.BytesIO(b"file bytes"), "application/octet-stream").read() == b"file bytes"
    assert _body(bytearray(b"ab"), "image/png").headers["Content-Type"] == "image/png"


def test_a_body_the_media_type_cannot_carry_is_refused() -> None:
    with pytest.raises(RemoteRequestError, match="dict body cannot be sent as application/xml"):
        _body({"a": 1}, "application/xml")
    with pytest.raises(RemoteRequestError, match="form body must be an object"):
        _body([1], "application/x-www-form-urlencoded")


def test_form_bodies_follow_the_form_style_with_repeated_names() -> None:
    built = _body({"tags": ["a", "b"], "n": 1, "skip": None}, "application/x-www-form-urlencoded")
    assert built.read() == b"tags=a&tags=b&n=1"


class Upload(pydantic.BaseModel):
    title: str
    file: bytes
    meta: dict[str, int] | None = None


def test_multipart_bodies_carry_file_fields_as_file_parts() -> None:
    built = _body(
        Upload(title="report", file=b"%PDF-1.7 \x00\xff", meta={"pages": 3}), "multipart/form-data"
    )
    raw = built.read()
    assert built.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'name="title"\r\n\r\nreport\r\n' in raw
    assert b'name="file"; filename="file"' in raw
    assert b"%PDF-1.7 \x00\xff" in raw
    assert b'name="meta"\r\nContent-Type: application/json\r\n\r\n{"pages":3}' in raw


def test_multipart_file_objects_tuples_and_lists() -> None:
    handle = io.BytesIO(b"one")
    handle.name = "/tmp/dir/one.txt"
    built = _body(
        {"a": handle, "b": ("b.csv", b"x,y", "text/csv"), "many": [b"1", b"2"], "n": [1, 2]},
        "multipart/form-data",
    )
    raw = built.read()
    assert b'name="a"; filename="one.txt"' in raw
    assert b'name="b"; filename="b.csv"\r\nContent-Type: text/csv' in raw
    assert raw.count(b'filename="many"') == 2
    assert raw.count(b'name="n"') == 2


def test_multipart_without_files_is_still_multipart() -> None:
    built = _body({"a": "x"}, "multipart/form-data")
    assert built.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    assert b'name="a"\r\n\r\nx' in built.read()


def test_text_bodies_use_the_declared_charset() -> None:
    built = _body("é", "text/plain; charset=latin-1")
    assert built.read() == b"\xe9"


# --- a real server, and a generated plugin -----------------------------------------------


class _Echo(BaseHTTPRequestHandler):
    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        payload = {
            "method": self.command,
            "path": self.path,
            "headers": {k.lower(): v for k, v in self.headers.items()},
            "body": body.decode("latin-1"),
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = _answer

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture(scope="module")
def echo() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_real_server_receives_the_clients_defaults_and_encoded_values(echo: str) -> None:
    with httpx.Client(base_url=echo + "/v1", headers={"User-Agent": "gh-app"}) as client:
        api = ApiClient(None, [Credential("cookie", "key", "k")], sync_client=client)
        response = api._send_sync(
            Request(
                "op",
                "get",
                "/users/{id}/profile",
                path_params=[("id", "..", "simple", False)],
                cookies=[("session", "abc; key=ATTACKER", "form", True)],
            )
        )
    seen = response.json()
    assert seen["path"] == "/v1/users/%2E%2E/profile"
    assert seen["headers"]["user-agent"] == "gh-app"
    assert seen["headers"]["cookie"] == "key=k; session=abc%3B%20key=ATTACKER"


_SPEC = {
    "openapi": "3.0.3",
    "info": {"title": "Echo", "version": "1"},
    "servers": [{"url": "https://unreachable.invalid/v1"}],
    "components": {"securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}},
    "security": [{"key": []}],
    "paths": {
        "/things/{id}": {
            "get": {
                "operationId": "getThing",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "X-Key", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        }
    },
}


def test_a_generated_plugin_uses_the_clients_base_url_headers_and_auth(
    echo: str, tmp_path: Path
) -> None:
    spec = tmp_path / "echo.json"
    spec.write_text(json.dumps(_SPEC))
    generate_plugin(spec, tmp_path, name="echo_client_pkg", sync=True)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("echo_client_pkg")
    finally:
        sys.path.remove(str(tmp_path))
    plugin_class = module.EchoClientPkgPlugin
    with httpx.Client(base_url=echo + "/v1", headers={"User-Agent": "ua"}, auth=_bearer) as c:
        plugin = plugin_class(key="configured", sync_client=c)
        seen = plugin.get_thing_sync(id="..")
        assert seen["path"] == "/v1/things/%2E%2E"
        assert seen["headers"]["user-agent"] == "ua"
        assert seen["headers"]["authorization"] == "Bearer from-auth"
        assert seen["headers"]["x-key"] == "configured"
        seen = plugin.get_thing_sync(id="a", x_key="per-call")
        assert seen["headers"]["x-key"] == "per-call"
