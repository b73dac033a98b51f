"""``sktypes serve`` (issue 23): the HTTP server's Host/Origin checks, and the tool-list loader.

- ``serve_http``: a bound address, allow-lists and any ``Host``/``Origin`` headers (none, one
  or two of each, in any spelling) sent through the guard in front of the MCP app. The oracle
  is independent of the guard's parser: the C library reads addresses
  (``getaddrinfo(AI_NUMERICHOST)``), and a request reaches the app only when its one Host
  names this server (a loopback name or address on loopback, the bound address, any address
  on a wildcard binding, or an allowed name) and its Origin, when sent, is a loopback or an
  allowed web origin; a refused request gets 421 (Host) or 403 (Origin) and nothing else.
- ``tool_list``: the bytes of a tool list served with ``--impl``: a server, or an
  ``SktypesError``, within the time limit (alias bombs, deep nesting, YAML tags).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from sktypes.errors import SktypesError
from tests.fuzz._guard import watching
from tests.fuzz._inputs import json_values, mutated, to_json, to_yaml
from tests.fuzz._registry import Finding, target
from tests.fuzz.targets_documents import SYSTEM_DIRS

# -- serve_http ------------------------------------------------------------------------------

BOUND = ["127.0.0.1", "127.0.0.2", "::1", "0.0.0.0", "::", "10.0.0.5", "fe80::1"]
ALLOWED_HOSTS = [[], ["mcp.internal"], ["*"], ["10.0.0.6"]]
ALLOWED_ORIGINS = [[], ["https://app.example.com"], ["http://dev.example:*"], ["*"]]
_NAMES = ["localhost", "LOCALHOST", "LocalHost.", "localhost.evil.example", "evil.example",
          "mcp.internal", "MCP.Internal", "127.0.0.1", "127.1", "0x7f.1", "2130706433",
          "127.0.0.2", "10.0.0.5", "10.0.0.6", "0.0.0.0", "::1", "[::1]", "[::ffff:127.0.0.1]",
          "[::ffff:7f00:1]", "[fe80::1]", "[::]", "127.0.0.1.nip.io", "app.example.com",
          "dev.example", "xn--e1afmkfd", "", "a_b", "-x", "x-"]  # fmt: skip
_PORTS = ["", ":8000", ":", ":0", ":99999", ":-1", ":80:80", ":x"]
_JUNK = ["", "", "", "@evil.example", "/", "/..", "%2e", " ", "\t", ".", "\x00", "?", "#", "\\"]
_SCHEMES = ["http://", "https://", "HTTP://", "file://", "chrome-extension://", "", "//"]


@st.composite
def _host(draw: st.DrawFn) -> str:
    return (
        draw(st.sampled_from(_NAMES)) + draw(st.sampled_from(_PORTS)) + draw(st.sampled_from(_JUNK))
    )


@st.composite
def _origin(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["null", "*", "", "http://", "https://app.example.com/x"]))
    return draw(st.sampled_from(_SCHEMES)) + draw(_host())


@st.composite
def _requests(draw: st.DrawFn) -> bytes:
    fields = [
        str(draw(st.integers(0, len(BOUND) - 1))),
        str(draw(st.integers(0, len(ALLOWED_HOSTS) - 1))),
        str(draw(st.integers(0, len(ALLOWED_ORIGINS) - 1))),
        "\x1f".join(draw(st.lists(_host(), max_size=2))),
        "\x1f".join(draw(st.lists(_origin(), max_size=2))),
    ]
    return "\x1e".join(fields).encode("utf-8", "surrogatepass")


def _address(name: str) -> Any:
    """What the C library reads as a numeric address (no name lookup), or ``None``."""
    try:
        info = socket.getaddrinfo(name, None, flags=socket.AI_NUMERICHOST)
    except (socket.gaierror, UnicodeError, ValueError):
        return None
    address = ipaddress.ip_address(str(info[0][4][0]).split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _split(value: str) -> tuple[str, str] | None:
    """``(name, port)`` of a Host value a browser could send, or ``None``.

    Spaces and tabs around it are HTTP's optional whitespace (servers strip them).
    """
    value = value.strip(" \t")
    if any(c in value for c in "@/\\?#% \t\x00"):
        return None
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1 :]
        if rest and not rest.startswith(":"):
            return None
        return name, rest[1:]
    if value.count(":") > 1:
        return None
    name, _, port = value.partition(":")
    return name, port


def _localhost(name: str) -> bool:
    return name.lower().rstrip(".") == "localhost"


def _may_pass_host(values: list[str], bound: Any, allowed: list[str]) -> bool:
    if len(values) != 1:
        return False
    parts = _split(values[0])
    if parts is None or not parts[0]:
        return False
    name, port = parts
    if port and not (port.isdigit() and int(port) <= 65535):
        return False
    if "*" in allowed or name.lower().rstrip(".") in allowed:
        return True
    address = _address(name)
    if bound.is_loopback:
        return _localhost(name) or (address is not None and bool(address.is_loopback))
    if bound.is_unspecified:
        return _localhost(name) or address is not None
    return bool(address == bound)


def _may_pass_origin(values: list[str], allowed: list[str]) -> bool:
    if not values:
        return True
    if len(values) != 1:
        return False
    if "*" in allowed:
        return True
    value = values[0]
    scheme, sep, rest = value.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        return False
    parts = _split(rest)
    if parts is None:
        return False
    name, _port = parts
    if any(o.split("://", 1)[-1].split(":")[0] == name.lower() for o in allowed):
        return True  # an allowed origin's host (scheme and port compared by the guard)
    return _localhost(name) or ((a := _address(name)) is not None and a.is_loopback)


async def _through_guard(app_called: list[bool], scope: dict[str, Any], guard: Any) -> int:
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await guard(scope, receive, send)
    return statuses[0] if statuses else 200


@target("serve_http", _requests() | mutated(_requests()))
def serve_http(data: bytes) -> None:
    """Host/Origin headers: a request reaches the tools only from this server's names."""
    from sktypes.integrations.mcp._access import access_for, guarded

    fields = data.decode("utf-8", "replace").split("\x1e")
    if len(fields) != 5 or not all(f.isdigit() for f in fields[:3]):
        return
    bound_text = BOUND[int(fields[0]) % len(BOUND)]
    hosts = ALLOWED_HOSTS[int(fields[1]) % len(ALLOWED_HOSTS)]
    origins = ALLOWED_ORIGINS[int(fields[2]) % len(ALLOWED_ORIGINS)]
    host_values = [v for v in fields[3].split("\x1f") if fields[3]]
    origin_values = [v for v in fields[4].split("\x1f") if fields[4]]
    access = access_for(bound_text, hosts, origins)
    called: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        called.append(True)
        await send({"type": "http.response.start", "status": 200, "headers": []})

    headers = [(b"host", v.encode("latin-1", "replace")) for v in host_values]
    headers += [(b"origin", v.encode("latin-1", "replace")) for v in origin_values]
    scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": headers}
    status = asyncio.run(_through_guard(called, scope, guarded(app, access)))
    bound = ipaddress.ip_address(bound_text)
    if called:
        decoded = [v.encode("latin-1", "replace").decode("latin-1") for v in host_values]
        if not _may_pass_host(decoded, bound, [h.lower() for h in hosts]):
            raise Finding(f"Host {host_values!r} reached the tools of a server on {bound_text}")
        if not _may_pass_origin(origin_values, [o.lower() for o in origins]):
            raise Finding(f"Origin {origin_values!r} reached the tools (allowed: {origins})")
    elif status not in (421, 403):
        raise Finding(f"a refused request was answered {status}")


# -- tool_list -------------------------------------------------------------------------------

_TOOL = st.fixed_dictionaries(
    {"name": st.sampled_from(["DatePluginSimpleComplex-GetDate1", "GetDate1", "x", ""])},
    optional={
        "description": st.text(max_size=8),
        "parameters": json_values,
        "input_schema": json_values,
        "inputSchema": json_values,
    },
)
_tools = st.lists(_TOOL, max_size=3)
_BOMB = "- name: f\n  parameters:\n    type: object\n    x-bomb:\n" + "\n".join(
    "      " + line
    for line in [
        'ka: &a ["l","l","l","l","l","l","l","l","l"]',
        *(
            f"k{c}: &{c} [" + ",".join([f"*{p}"] * 9) + "]"
            for p, c in zip("abcdefgh", "bcdefghi", strict=True)
        ),
    ]
)
_TOOL_SEEDS = (
    _BOMB.encode(),
    b"[" * 20_000 + b"]" * 20_000,
    b"- " * 20_000 + b"x\n",
    b"- name: f\n  parameters: !!python/object:os.system {}\n",
    b'[{"name": "GetDate1", "parameters": {"type": "object", "properties": {"numDays": '
    b'{"type": "integer"}}}}]',
)
_TOOLS_DIR = Path(tempfile.mkdtemp(prefix="sktypes-fuzz-tools-"))


@target(
    "tool_list",
    _tools.map(to_yaml) | _tools.map(to_json) | mutated(_tools.map(to_yaml)),
    seeds=_TOOL_SEEDS,
    timeout=15.0,
)
def tool_list(data: bytes) -> None:
    """A tool list served with --impl: a server, or one SktypesError, in bounded time."""
    from sktypes.integrations import mcp

    path = _TOOLS_DIR / ("tools.json" if data[:1] in (b"[", b"{") else "tools.yaml")
    path.write_bytes(data)
    with watching(SYSTEM_DIRS):
        try:
            app = mcp.server(str(path), implementations=["examples.date_weather"])
        except SktypesError:
            return
        asyncio.run(app.aclose())


__all__ = ["serve_http", "tool_list"]
