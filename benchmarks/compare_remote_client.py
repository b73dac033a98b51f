"""The generated client against openapi-python-client's, feature by feature, as they behave.

    .bench-venv/bin/python benchmarks/compare_remote_client.py          # print the table
    .bench-venv/bin/python benchmarks/compare_remote_client.py --write  # and put it in the docs

Both clients are generated from ``tests/specs/remote_api.yaml`` (and, for OpenAPI 3.2,
``tests/specs/streams_32.yaml``) and called against ``tests/remote_server.py`` on 127.0.0.1.
Every cell is what the call did in this run: an item count, the exception raised, what was
returned. ``--write`` replaces the table between the ``compare-remote`` markers of
``docs/remote-client.md``. Needs openapi-python-client (the ``bench`` extra:
``make .bench-venv/.installed``).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sktypes_codegen import generate_plugin  # noqa: E402
from tests.remote_server import DROP, RESET, RemoteServer, Reply, http_date  # noqa: E402

SPEC = ROOT / "tests" / "specs" / "remote_api.yaml"
SPEC_32 = ROOT / "tests" / "specs" / "streams_32.yaml"
DOC = ROOT / "docs" / "remote-client.md"
START, END = "<!-- compare-remote -->", "<!-- /compare-remote -->"


def _opc(spec: Path, out: Path, name: str) -> tuple[Any, str]:
    """openapi-python-client's package for ``spec`` (``None`` and why, when it refuses)."""
    tool = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [str(tool), "generate", "--path", str(spec), "--meta", "none",
         "--output-path", str(out / name), "--overwrite"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    said = (done.stdout + done.stderr).splitlines()
    if not (out / name / "client.py").is_file():
        reason = next((line for line in said if "Value error" in line), "")
        return None, (reason or next((x for x in said if x.strip()), "no output")).strip()
    omitted = [line for line in said if "will be omitted" in line]
    return importlib.import_module(name), f"{len(omitted)} responses omitted"


def _ours(spec: Path, out: Path, name: str) -> Any:
    generate_plugin(spec, out, name=name, sync=True)
    return importlib.import_module(name)


def _outcome(call: Callable[[], Any]) -> str:
    try:
        value = call()
    except Exception as exc:  # the outcome is the row's content
        text = str(exc).splitlines()[0] if str(exc) else ""
        return f"raises `{type(exc).__name__}`" + (f": {text[:60]}" if text else "")
    return value if isinstance(value, str) else f"returns `{type(value).__name__}`"


class Compare:
    """One server, both clients, and the rows of the table."""

    def __init__(self, server: RemoteServer, ours: Any, opc: Any) -> None:
        self.server = server
        self.ours = ours.RemoteShopPlugin(server.url)
        self.opc_module = opc
        self.opc = opc.Client(base_url=server.url) if opc is not None else None
        self.rows: list[tuple[str, str, str]] = []

    def api(self, name: str) -> Any:
        return importlib.import_module(f"{self.opc_module.__name__}.api.default.{name}")

    def row(self, feature: str, ours: Callable[[], Any], theirs: Callable[[], Any]) -> None:
        self.server.requests.clear()
        mine = _outcome(ours)
        sent = len(self.server.requests)
        self.server.requests.clear()
        self.server.unscript()
        other = _outcome(theirs)
        self.server.unscript()
        other_sent = len(self.server.requests)
        self.rows.append((feature, f"{mine} ({sent} req.)", f"{other} ({other_sent} req.)"))


def _rows(c: Compare) -> None:
    s = c.server

    # typed errors --------------------------------------------------------------------------
    def ours_404() -> str:
        try:
            c.ours.get_item_sync(id=99)
        except Exception as exc:
            parsed = getattr(exc, "parsed", None)
            kind = type(parsed).__name__ if parsed is not None else "no .parsed"
            return f"raises `{type(exc).__name__}` {getattr(exc, 'status_code', '?')}, {kind}"
        return "returns"

    def theirs_404() -> str:
        value = c.api("get_item").sync(client=c.opc, id=99)
        return f"returns `{type(value).__name__}` (the error model, as a success value)"

    c.row("declared error (404 `Error`)", ours_404, theirs_404)

    def teapot_ours() -> Any:
        s.script("GET", "/items/1", Reply(418, "short and stout"))
        return c.ours.get_item_sync(id=1)

    def teapot_theirs() -> Any:
        s.script("GET", "/items/1", Reply(418, "short and stout"))
        value = c.api("get_item").sync(client=c.opc, id=1)
        return f"returns `{value!r}`"

    c.row("undeclared status (418)", teapot_ours, teapot_theirs)

    # pagination ----------------------------------------------------------------------------
    for style, method, kwargs, module in [
        ("Link header", "list_link_items", {"per_page": 3}, "list_link_items"),
        ("cursor", "list_cursor_items", {"limit": 3}, "list_cursor_items"),
        ("offset/limit", "list_offset_items", {"limit": 3}, "list_offset_items"),
    ]:

        def ours_pages(method: str = method, kwargs: dict[str, Any] = kwargs) -> str:
            items = list(getattr(c.ours, f"{method}_iter_sync")(**kwargs))
            return f"`{method}_iter`: {len(items)} of 7 items"

        def theirs_pages(module: str = module, kwargs: dict[str, Any] = kwargs) -> str:
            page = c.api(module).sync(client=c.opc, **kwargs)
            got = page if isinstance(page, list) else getattr(page, "items", [])
            return f"one page per call: {len(got)} of 7 items, no iterator"

        c.row(f"pagination: {style}", ours_pages, theirs_pages)

    # retries -------------------------------------------------------------------------------
    def burst(call: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            s.script("GET", "/items/1", Reply(503), Reply(503))
            return call()

        return run

    c.row(
        "503, 503, then 200 (GET)",
        burst(lambda: c.ours.get_item_sync(id=1)),
        burst(lambda: f"returns `{c.api('get_item').sync(client=c.opc, id=1)!r}`"),
    )

    def limited(call: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            s.script("GET", "/items/1", Reply(429, {"code": "slow", "message": "down"},
                                                  {"Retry-After": http_date(1)}))  # fmt: skip
            return call()

        return run

    c.row(
        "429 with Retry-After (an HTTP date)",
        limited(lambda: c.ours.get_item_sync(id=1)),
        limited(lambda: f"returns `{c.api('get_item').sync(client=c.opc, id=1)!r}`"),
    )

    def reset(call: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            s.script("GET", "/items/1", RESET, DROP)
            return call()

        return run

    c.row(
        "connection reset, then dropped, then 200",
        reset(lambda: c.ours.get_item_sync(id=1)),
        reset(lambda: c.api("get_item").sync(client=c.opc, id=1)),
    )

    def post_ours() -> Any:
        s.script("POST", "/orders", Reply(503))
        order = c.ours.create_order_sync(body={"item_id": 1})
        keys = {r.headers.get("idempotency-key") for r in s.requests}
        same = len(keys) == 1 and None not in keys
        return f"returns `{type(order).__name__}`, one idempotency key on every attempt: {same}"

    def post_theirs() -> Any:
        s.script("POST", "/orders", Reply(503))
        body = c.opc_module.models.OrderInput(item_id=1)
        return f"returns `{c.api('create_order').sync(client=c.opc, body=body)!r}`"

    c.row("POST with an idempotency-key header, 503 first", post_ours, post_theirs)

    # auth ----------------------------------------------------------------------------------
    def oauth_ours() -> Any:
        from sktypes import remote

        make = getattr(remote, "ClientCredentials", None)
        if make is None:
            return "no `ClientCredentials` (not in this version)"
        plugin = type(c.ours)(s.url, oauth=make("client-1", "secret-1", scopes=["read"]))
        who = plugin.who_am_i_sync()
        return f"token fetched from tokenUrl: {who.client_id}, {s.tokens_issued} grant"

    def oauth_theirs() -> Any:
        authed = c.opc_module.AuthenticatedClient(base_url=s.url, token="unfetched")
        value = c.api("who_am_i").sync(client=authed)
        name = type(value).__name__
        return f"no client-credentials flow (`AuthenticatedClient(token=...)`): returns `{name}`"

    c.row("OAuth2 client credentials (spec's `tokenUrl`)", oauth_ours, oauth_theirs)

    def key_ours() -> Any:
        return f"`api_key=` keyword: {type(c.ours)(s.url, api_key='key-1').check_key_sync().ok}"

    def key_theirs() -> Any:
        value = c.api("check_key").sync(client=c.opc)
        return f"no keyword (headers by hand): returns `{type(value).__name__}`"

    c.row("API key from `securitySchemes`", key_ours, key_theirs)

    # streams -------------------------------------------------------------------------------
    def sse_ours() -> Any:
        gate = s.hold_streams()
        events = c.ours.stream_events_sync(count=3)
        first = next(events)
        early = not gate.is_set()
        gate.set()
        rest = list(events)
        typed = f"{1 + len(rest)} typed events (`{first.event}`, id {first.id})"
        return f"{typed}, the first before the rest: {early}"

    def sse_theirs() -> Any:
        return c.api("stream_events").sync(client=c.opc, count=3)

    c.row("server-sent events", sse_ours, sse_theirs)

    def lines_ours() -> Any:
        return f"{len(list(c.ours.stream_lines_sync(count=3)))} typed `Tick` items"

    def lines_theirs() -> Any:
        response = c.api("stream_lines").sync_detailed(client=c.opc, count=3)
        return f"response omitted at generation: `parsed` is `{response.parsed!r}`"

    c.row("JSON lines", lines_ours, lines_theirs)

    def async_ours() -> Any:
        async def main() -> int:
            return len([i async for i in c.ours.list_cursor_items_iter(limit=3)])

        return f"`async for`: {asyncio.run(main())} items"

    def async_theirs() -> Any:
        value = asyncio.run(c.api("list_cursor_items").asyncio(client=c.opc, limit=3))
        return f"`await`: returns `{type(value).__name__}` (one page)"

    c.row("async", async_ours, async_theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="update docs/remote-client.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, RemoteServer() as server:
        out = Path(tmp)
        sys.path.insert(0, str(out))
        ours = _ours(SPEC, out, "compare_ours")
        opc, note = _opc(SPEC, out, "compare_opc")
        if opc is None:
            raise SystemExit(f"openapi-python-client failed: {note}")
        compare = Compare(server, ours, opc)
        _rows(compare)
        _, refused = _opc(SPEC_32, out, "compare_opc_32")

        def ours_32() -> str:
            package = _ours(SPEC_32, out, "compare_32")
            return f"generated, {len(package.Streams32Plugin.__function_views__())} operations"

        row = ("OpenAPI 3.2 document (`itemSchema`)", _outcome(ours_32), f"refused: {refused}")
        compare.rows.append(row)
        compare.rows.append(("generation of `remote_api.yaml`", "every operation", note))
    version = subprocess.run(
        [str(Path(sys.executable).with_name("openapi-python-client")), "--version"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    table = _table(compare.rows, version)
    print(table)
    if args.write:
        text = DOC.read_text()
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
        DOC.write_text(f"{head}{START}\n{table}{END}{tail}")


def _table(rows: list[tuple[str, str, str]], version: str) -> str:
    lines = [
        f"| feature | sktypes (generated) | {version} |",
        "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows),
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    threading.excepthook = lambda _args: None  # a reset connection in the server's thread
    main()
