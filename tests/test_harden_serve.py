"""Issue 23, finding 2: ``serve --transport http`` checks Host and Origin, whatever ``--host`` is.

DNS-rebinding protection was on only for the literal strings ``127.0.0.1``, ``localhost`` and
``::1`` (the SDK's rule): with ``127.1``, ``127.0.0.2``, ``::ffff:127.0.0.1`` or ``LOCALHOST``
a foreign ``Host`` and ``Origin`` were answered 200 and tools listed and called; with
``0.0.0.0`` the ``Origin`` header was never checked, though the MCP specification requires
servers to check it on every connection and answer 403 to an invalid one. Now the decision is
made from the address bound, on every request (``sktypes/integrations/mcp/_access.py``).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

pytest.importorskip("mcp")

from sktypes.integrations.mcp._access import access_for, is_loopback, parse_address
from tests.mcp_helpers import EXAMPLES, http_server

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def _post(port: int, body: dict[str, Any], **headers: str) -> httpx.Response:
    """A raw POST to ``127.0.0.1:port/mcp`` with the given Host and Origin headers."""
    with httpx.Client(timeout=10) as client:
        return client.post(
            f"http://127.0.0.1:{port}/mcp",
            content=json.dumps(body),
            headers={**HEADERS, **headers},
        )


def _port(url: str) -> int:
    return httpx.URL(url).port or 80


@pytest.mark.parametrize(
    "host", ["127.1", "127.0.0.2", "::ffff:127.0.0.1", "LOCALHOST", "0.0.0.0", "127.0.0.1"]
)
def test_a_foreign_host_or_origin_is_refused_whatever_the_spelling_of_host(host: str) -> None:
    target = "127.0.0.2" if host == "127.0.0.2" else "127.0.0.1"
    with http_server(str(EXAMPLES / "date_weather.py"), "--host", host) as url:
        port = _port(url)

        def post(body: dict[str, Any], **headers: str) -> httpx.Response:
            with httpx.Client(timeout=10) as client:
                return client.post(
                    f"http://{target}:{port}/mcp",
                    content=json.dumps(body),
                    headers={**HEADERS, **headers},
                )

        for body in (INITIALIZE, LIST):
            refused = post(body, Host=f"evil.example:{port}")
            assert refused.status_code == 421, (host, refused.status_code, refused.text)
            assert "tools" not in refused.text and "serverInfo" not in refused.text
            refused = post(body, Host=f"{target}:{port}", Origin="http://evil.example")
            assert refused.status_code == 403, (host, refused.status_code, refused.text)
            assert "Origin" in refused.text
        for origin in ("null", "https://evil.example:443", "http://localhost.evil.example"):
            assert post(INITIALIZE, Host=f"localhost:{port}", Origin=origin).status_code == 403
        assert post(INITIALIZE, Host=f"{target}:{port}").status_code == 200
        assert post(INITIALIZE, Host=f"LocalHost:{port}").status_code == 200
        local = post(INITIALIZE, Host=f"localhost:{port}", Origin="http://localhost:5173")
        assert local.status_code == 200


def test_allowed_hosts_and_origins_are_configurable_and_nothing_else_is_let_through() -> None:
    args = ("--allow-host", "mcp.internal", "--allow-origin", "https://app.example.com")
    with http_server(str(EXAMPLES / "date_weather.py"), *args) as url:
        port = _port(url)
        assert _post(port, INITIALIZE, Host=f"MCP.internal:{port}").status_code == 200
        good = _post(
            port, INITIALIZE, Host=f"mcp.internal:{port}", Origin="https://app.example.com"
        )
        assert good.status_code == 200
        for origin in ("http://app.example.com", "https://app.example.com:8443"):
            assert (
                _post(port, INITIALIZE, Host=f"mcp.internal:{port}", Origin=origin).status_code
                == 403
            )
        assert _post(port, INITIALIZE, Host=f"other.internal:{port}").status_code == 421


def test_a_request_without_host_or_with_two_is_refused() -> None:
    access = access_for("127.0.0.1")
    assert access.host_problem([]) == "no Host header"
    assert access.host_problem(["localhost", "evil.example"]) == "more than one Host header"
    assert access.origin_problem(["http://localhost", "http://evil.example"]) is not None


@pytest.mark.parametrize(
    ("text", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.1", True),
        ("127.0.0.2", True),
        ("0x7f.1", True),
        ("2130706433", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("localhost", True),
        ("LOCALHOST", True),
        ("localhost.", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.1", False),
        ("::ffff:10.0.0.1", False),
        ("localhost.evil.example", False),
        ("127.0.0.1.nip.io", False),
    ],
)
def test_loopback_is_decided_from_the_parsed_address(text: str, loopback: bool) -> None:
    assert is_loopback(text) is loopback


HOSTS = ["localhost:8000", "LOCALHOST", "127.0.0.1:8000", "127.1:1", "[::1]:8000",
         "10.0.0.5:8000", "evil.example", "evil.example:8000", "127.0.0.1.nip.io",
         "localhost.evil.example", "localhost:80@evil.example", "localhost:x", "", " ",
         "a b", "[::1", "localhost/..", "%6cocalhost"]  # fmt: skip
ALLOWED = {
    # bound to a loopback address: loopback names and addresses only
    "127.0.0.1": {"localhost:8000", "LOCALHOST", "127.0.0.1:8000", "127.1:1", "[::1]:8000"},
    # bound to one address: that address only
    "10.0.0.5": {"10.0.0.5:8000"},
    # bound to every address: localhost and any address (an address cannot be rebound)
    "0.0.0.0": {
        "localhost:8000",
        "LOCALHOST",
        "127.0.0.1:8000",
        "127.1:1",
        "[::1]:8000",
        "10.0.0.5:8000",
    },
}


@pytest.mark.parametrize("bound", sorted(ALLOWED))
def test_which_hosts_each_binding_accepts(bound: str) -> None:
    access = access_for(bound)
    accepted = {h for h in HOSTS if access.host_problem([h]) is None}
    assert accepted == ALLOWED[bound]
    assert access_for(bound, allowed_hosts=["*"]).host_problem(["evil.example"]) is None
    assert (
        access_for(bound, allowed_hosts=["evil.example"]).host_problem(["EVIL.example:1"]) is None
    )


def test_origins_are_compared_as_parsed_origins() -> None:
    access = access_for(
        "0.0.0.0", allowed_origins=["https://App.Example.com", "http://dev.example:*"]
    )
    for origin in ("https://app.example.com", "https://app.example.com:443",
                   "http://dev.example:3000", "http://dev.example", "http://127.0.0.1:9",
                   "http://[::1]", "https://localhost"):  # fmt: skip
        assert access.origin_problem([origin]) is None, origin
    for origin in ("null", "https://app.example.com:444", "http://app.example.com",
                   "https://app.example.com.evil", "file://", "chrome-extension://abc",
                   "https://user@app.example.com", "https://app.example.com/path",
                   "http://localhost.evil.example", "http://127.0.0.1.nip.io",
                   "http://localhost?", "http://localhost#", "http://localhost/",
                   "https://app.example.com?", "http://localhost?x"):  # fmt: skip
        assert access.origin_problem([origin]) is not None, origin
    assert access.origin_problem([]) is None  # not a browser: no Origin header
    with pytest.raises(ValueError, match="not an origin"):
        access_for("127.0.0.1", allowed_origins=["app.example.com"])


def test_an_ipv4_mapped_address_is_its_ipv4_address() -> None:
    assert str(parse_address("::ffff:127.0.0.1")) == "127.0.0.1"
    assert parse_address("evil.example") is None


# --- finding 6: the tool list goes through the one document loader ---------------------------


def _alias_bomb() -> str:
    """A tool list (476 bytes) whose schema's anchors expand to 9**9 values."""
    anchors = ['ka: &a ["l","l","l","l","l","l","l","l","l"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        anchors.append(f"k{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    bomb = "\n".join("      " + a for a in anchors)
    return f"- name: f\n  parameters:\n    type: object\n    x-bomb:\n{bomb}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_alias_bomb(), "tools.yaml:6: YAML aliases expand to more than 2000000 nodes"),
        ("[" * 20_000 + "]" * 20_000, "tools.yaml:1:129: nested deeper than 128 levels"),
        ("- name: f\n  parameters: !!python/object:os.system {}\n", "tools.yaml:2"),
    ],
    ids=["alias-bomb", "deep", "python-tag"],
)
def test_a_hostile_tool_list_is_refused_in_one_line_as_manual_refuses_it(
    tmp_path: Any, text: str, message: str
) -> None:
    import subprocess
    import sys
    import time

    tools = tmp_path / "tools.yaml"
    tools.write_text(text)
    outputs = []
    for command in (
        ["serve", str(tools), "--impl", "examples.date_weather"],
        ["manual", str(tools)],
    ):
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "sktypes", *command],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=EXAMPLES.parent,
        )
        assert time.monotonic() - start < 20
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        outputs.append(lines[0])
    assert message in outputs[0]
    assert outputs[0] == outputs[1]  # the one loader: the same line from both commands
