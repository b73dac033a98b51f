"""MCP servers from an OpenAPI spec: ``sktypes serve`` vs FastMCP's ``from_openapi``.

Run: ``python benchmarks/bench_mcp.py [--calls N] [--concurrency C] [--rounds R]`` in the
MCP benchmark venv (``make bench`` builds ``.bench-mcp-venv``: FastMCP needs ``mcp`` 2, the
other benchmarks' venv pins ``mcp<2`` for semantic-kernel).

The same spec (a small bookstore: a list with query parameters, a read by id, a create with a
JSON body; ``$ref``s, formats, enums, descriptions) is served by both, each as a stdio
subprocess, against the same local upstream API (uvicorn in its own process). The same
client (the official ``mcp`` ``ClientSession``) makes the same calls to each:

- ``tools/list`` size: the tools as JSON (compact, ``None`` fields left out), in characters;
- latency: sequential calls, median and 95th percentile;
- calls per second: ``C`` calls in flight at once.

sktypes validates every call's arguments and every result against the output schema;
FastMCP runs with its defaults (``validate_output=True``). Servers take turns, ``R`` rounds;
each figure is the best round. Ratios are sktypes over FastMCP.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import yaml
from _github import github_spec

ROOT = Path(__file__).resolve().parents[1]

BOOK = {
    "type": "object",
    "description": "A book in the catalog.",
    "required": ["id", "title", "author", "genre"],
    "properties": {
        "id": {"type": "integer", "format": "int64", "description": "Catalog number."},
        "title": {"type": "string", "maxLength": 200},
        "author": {"$ref": "#/components/schemas/Author"},
        "genre": {"type": "string", "enum": ["fiction", "history", "science", "poetry"]},
        "published": {"type": "string", "format": "date"},
        "price": {"type": "number", "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
    },
}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Bookstore", "version": "1.0"},
    "servers": [{"url": "http://127.0.0.1:1"}],
    "paths": {
        "/books": {
            "get": {
                "operationId": "listBooks",
                "summary": "List books, newest first.",
                "parameters": [
                    {
                        "name": "genre",
                        "in": "query",
                        "description": "Only books of this genre.",
                        "schema": {
                            "type": "string",
                            "enum": ["fiction", "history", "science", "poetry"],
                        },
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "description": "How many books to return.",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                    },
                    {
                        "name": "tags",
                        "in": "query",
                        "description": "Books carrying all of these tags.",
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                ],
                "responses": {
                    "200": {
                        "description": "The books.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Book"},
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": "addBook",
                "summary": "Add a book to the catalog.",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/NewBook"}}
                    },
                },
                "responses": {
                    "201": {
                        "description": "The book as stored.",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Book"}}
                        },
                    }
                },
            },
        },
        "/books/{bookId}": {
            "get": {
                "operationId": "getBook",
                "summary": "One book by its catalog number.",
                "parameters": [
                    {
                        "name": "bookId",
                        "in": "path",
                        "required": True,
                        "description": "The catalog number.",
                        "schema": {"type": "integer", "format": "int64", "minimum": 1},
                    }
                ],
                "responses": {
                    "200": {
                        "description": "The book.",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Book"}}
                        },
                    },
                    "404": {"description": "No such book."},
                },
            }
        },
    },
    "components": {
        "schemas": {
            "Author": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "description": "Full name."},
                    "born": {"type": "integer", "description": "Year of birth."},
                },
            },
            "Book": BOOK,
            "NewBook": {
                "type": "object",
                "required": ["title", "author", "genre"],
                "properties": {k: v for k, v in BOOK["properties"].items() if k != "id"},
            },
        }
    },
}

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("listBooks", {"genre": "fiction", "limit": 5}),
    ("getBook", {"bookId": 3}),
    (
        "addBook",
        {
            "body": {
                "title": "Small Gods",
                "author": {"name": "Terry Pratchett", "born": 1948},
                "genre": "fiction",
                "published": "1992-01-01",
                "price": 9.5,
                "tags": ["satire"],
            }
        },
    ),
]

# --- the upstream API -----------------------------------------------------------------


def _books() -> list[dict[str, Any]]:
    return [
        {
            "id": i,
            "title": f"Book {i}",
            "author": {"name": f"Author {i}", "born": 1900 + i},
            "genre": "fiction",
            "published": f"20{10 + i}-05-0{1 + i % 9}",
            "price": 10.0 + i,
            "tags": ["a", "b"],
        }
        for i in range(1, 6)
    ]


async def upstream_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A minimal ASGI bookstore (no framework: the upstream should cost next to nothing)."""
    if scope["type"] != "http":
        return
    body = b""
    more = True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    path, method = scope["path"], scope["method"]
    status, payload = 200, None
    if path == "/books" and method == "GET":
        payload = _books()
    elif path == "/books" and method == "POST":
        status, payload = 201, {"id": 99, **json.loads(body)}
    elif path.startswith("/books/") and method == "GET":
        payload = _books()[int(path.rsplit("/", 1)[1]) % 5]
    else:
        status, payload = 404, {"error": "not found"}
    data = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


def run_upstream(port: int) -> None:
    import uvicorn

    uvicorn.run(upstream_app, host="127.0.0.1", port=port, log_level="warning", access_log=False)


def run_fastmcp(spec_path: str, base_url: str) -> None:
    import httpx2
    from fastmcp import FastMCP

    spec = json.loads(Path(spec_path).read_text())
    server = FastMCP.from_openapi(spec, client=httpx2.AsyncClient(base_url=base_url, timeout=30))
    server.run(show_banner=False)


# --- the client -----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"the upstream API did not start on port {port}")


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process so far, from ``/proc`` (0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tool_name(names: list[str], operation: str) -> str:
    for name in names:
        if name == operation or name.endswith("." + operation):
            return name
    raise SystemExit(f"no tool for {operation} in {names}")


def _arguments(flat_body: bool, args: dict[str, Any]) -> dict[str, Any]:
    """The same call for either server: FastMCP takes a JSON body's properties as arguments."""
    if flat_body and "body" in args:
        return {**{k: v for k, v in args.items() if k != "body"}, **args["body"]}
    return args


class RawClient:
    """A minimal JSON-RPC client on the server's stdin/stdout (asyncio pipes, orjson).

    The official client parses every message into pydantic models and checks results
    against output schemas; in one process with the benchmark that costs as much as the
    servers being compared. This client only frames, sends and matches replies, so the
    figures are the servers'. (The tests drive ``sktypes serve`` with the official client.)
    """

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = orjson.loads(line)
            future = self.pending.pop(message.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(message)

    async def request(self, method: str, params: dict[str, Any] | None = None) -> Any:
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[self.next_id] = future
        await self._send(
            {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        )
        reply = await future
        if "error" in reply:
            raise SystemExit(f"{method}: {reply['error']}")
        return reply["result"]

    async def initialize(self) -> Any:
        """The ``initialize`` request every benchmark sends first (its result)."""
        params = {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        }
        return await self.request("initialize", params)

    async def notify(self, method: str) -> None:
        await self._send({"jsonrpc": "2.0", "method": method})

    async def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(orjson.dumps(message) + b"\n")
        await self.process.stdin.drain()

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()  # reaped inside the loop (no warning at exit)
        self.reader.cancel()


async def measure(
    command: list[str], calls: int, concurrency: int, flat_body: bool
) -> dict[str, Any]:
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=str(ROOT),
        limit=2**24,
    )
    client = RawClient(process)
    try:
        await client.initialize()
        await client.notify("notifications/initialized")
        listed = (await client.request("tools/list"))["tools"]
        size = len(json.dumps(listed, separators=(",", ":")))
        names = [t["name"] for t in listed]
        plan = [(_tool_name(names, op), _arguments(flat_body, args)) for op, args in CALLS]
        results = []
        for name, args in plan:  # warm up, and check every call works
            result = await client.request("tools/call", {"name": name, "arguments": args})
            if result.get("isError"):
                raise SystemExit(f"{command[:4]}: {name} failed: {result['content']}")
            results.append(result.get("structuredContent"))
        for _ in range(20):
            for name, args in plan:
                await client.request("tools/call", {"name": name, "arguments": args})
        cpu_start = _cpu_seconds(process.pid)
        latencies = []
        for i in range(calls):
            name, args = plan[i % len(plan)]
            start = time.perf_counter()
            await client.request("tools/call", {"name": name, "arguments": args})
            latencies.append(time.perf_counter() - start)
        done = 0

        async def worker() -> None:
            nonlocal done
            while done < calls:
                name, args = plan[done % len(plan)]
                done += 1
                await client.request("tools/call", {"name": name, "arguments": args})

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
        cpu = (_cpu_seconds(process.pid) - cpu_start) / (calls + done)
    finally:
        await client.close()
    latencies.sort()
    return {
        "tools": len(listed),
        "list_chars": size,
        "median_ms": statistics.median(latencies) * 1000,
        "p95_ms": latencies[int(len(latencies) * 0.95)] * 1000,
        "calls_per_s": done / elapsed,
        "cpu_ms": cpu * 1000,
        "results": results,
    }


CORPUS = ROOT.parent / "shared" / "corpus" / "openapi"
LIST_SPECS = [  # OpenAPI 3.x: FastMCP reads Swagger 2.0 without types or output schemas
    "oai-v3.0-petstore/petstore.yaml",
    "oai-v3.0-petstore-expanded/petstore-expanded.json",
    "oai-v3.0-uspto/uspto.yaml",
    "oai-v3.0-link-example/link-example.yaml",
    "oai-v3.0-api-with-examples/api-with-examples.yaml",
    "twilio-messaging-v1/twilio_messaging_v1.json",
    "twilio-api-v2010/twilio_api_v2010.yaml",
]


async def list_size(command: list[str]) -> tuple[int, int]:
    """``(tools, characters)`` of a server's ``tools/list``."""
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=str(ROOT),
        limit=2**26,
    )
    client = RawClient(process)
    try:
        await client.initialize()
        await client.notify("notifications/initialized")
        listed = (await client.request("tools/list"))["tools"]
    finally:
        await client.close()
    return len(listed), len(json.dumps(listed, separators=(",", ":")))


async def first_reply(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from starting a stdio server to its answers to ``initialize``, ``tools/list``."""
    start = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=str(ROOT),
        limit=2**26,
        env=env,
    )
    client = RawClient(process)
    try:
        await client.initialize()
        first = time.perf_counter() - start
        await client.notify("notifications/initialized")
        await client.request("tools/list")
        return first, time.perf_counter() - start
    finally:
        await client.close()


def startup(spec: Path, rounds: int) -> None:
    """Start-up on GitHub's spec: until ``initialize`` and ``tools/list`` are answered.

    What a user waits for is the reply carrying the tool list (a client sends
    ``initialize``, then ``tools/list`` before it can call anything): the targets are
    about that reply, from the start of the process. Modules are compiled once
    (``PYTHONDONTWRITEBYTECODE`` is dropped), as on a user's machine; a warm-up run of each
    server comes first. sktypes is measured with its per-user cache (the spec validated
    and the listing written once, by the warm-up: the figure the target is about), with the
    cache off (``SKTYPES_NO_CACHE=1``: validated and listed in that run: the cold figure),
    and serving the package ``sktypes generate`` writes for the spec (served from its
    ``views.json``: the spec is not read, its models are imported at the first call).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        env["SKTYPES_CACHE_DIR"] = tmp
        base = "http://127.0.0.1:9"
        sk = [sys.executable, "-m", "sktypes", "serve", str(spec), "--base-url", base]
        generate = [sys.executable, "-m", "sktypes", "generate", str(spec), "-o", tmp, "-q"]
        subprocess.run([*generate, "--name", "bench_gh"], check=True, env=env, cwd=str(ROOT))
        package = [sys.executable, "-m", "sktypes", "serve", f"{tmp}/bench_gh", "--base-url", base]
        runs: dict[str, tuple[list[str], dict[str, str]]] = {
            "sktypes serve": (sk, env),
            "sktypes serve, cache off": (sk, {**env, "SKTYPES_NO_CACHE": "1"}),
            "sktypes serve, its package": (package, env),
            "FastMCP from_openapi": ([sys.executable, __file__, "fastmcp", str(spec), base], env),
        }
        for command, run_env in runs.values():
            asyncio.run(first_reply(command, run_env))  # compiles modules, records the verdict
        best = {name: float("inf") for name in runs}
        listed = {name: float("inf") for name in runs}
        for _ in range(rounds):
            for name, (command, run_env) in runs.items():
                first, tools = asyncio.run(first_reply(command, run_env))
                best[name] = min(best[name], first)
                listed[name] = min(listed[name], tools)
    fm = best["FastMCP from_openapi"]
    print(f"start-up on GitHub's spec ({spec.stat().st_size / 1e6:.0f} MB), best of {rounds}:")
    print(f"  {'':30}{'initialize':>11}{'x':>7}{'tools/list':>12}{'x':>7}")
    for name, took in best.items():
        ratio = listed["FastMCP from_openapi"] / listed[name]
        print(f"  {name:30}{took:9.2f} s{fm / took:7.2f}{listed[name]:10.2f} s{ratio:7.2f}")
    # what a user waits for is the tool list: the targets are about the tools/list reply
    peer = listed["FastMCP from_openapi"]
    for name in ("sktypes serve", "sktypes serve, its package"):
        ours = listed[name]
        print(
            f"target {name}: tools/list <= 2 s: {'met' if ours <= 2 else 'not met'} "
            f"({ours:.2f} s); >= 2x FastMCP: {'met' if peer / ours >= 2 else 'not met'} "
            f"({peer / ours:.2f}x)"
        )
    cold = listed["sktypes serve, cache off"]
    print(
        f"(cold: nothing recorded, the spec validated in the run: {cold:.2f} s, "
        f"{peer / cold:.2f}x FastMCP)"
    )


def corpus_sizes() -> None:
    """tools/list of corpus specs, both servers (when the shared corpus is here)."""
    if not CORPUS.is_dir():
        print("(the shared OpenAPI corpus is not here: tools/list sizes of real specs skipped)")
        return
    print(
        f"{'tools/list of corpus specs':44}{'tools':>6}{'sktypes':>10}{'fastmcp':>10}{'ratio':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name in LIST_SPECS:
            path = CORPUS / name
            if not path.is_file():
                continue
            data = (
                yaml.safe_load(path.read_text())
                if path.suffix != ".json"
                else json.loads(path.read_text())
            )
            spec = Path(tmp) / "spec.json"
            spec.write_text(json.dumps(data))
            base = "http://127.0.0.1:9"
            sk = asyncio.run(
                list_size([sys.executable, "-m", "sktypes", "serve", str(spec), "--base-url", base])
            )
            fm = asyncio.run(list_size([sys.executable, __file__, "fastmcp", str(spec), base]))
            print(f"{name[:43]:44}{sk[0]:>6}{sk[1]:>10}{fm[1]:>10}{fm[1] / sk[1]:>7.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=600, help="calls per measurement")
    parser.add_argument("--concurrency", type=int, default=8, help="calls in flight")
    parser.add_argument("--rounds", type=int, default=3, help="turns per server")
    parser.add_argument("--no-corpus", action="store_true", help="skip the corpus tools/list sizes")
    parser.add_argument("--github", default=None, help="GitHub's spec (default: npm, pinned)")
    parser.add_argument("--startup-only", action="store_true", help="only the start-up figures")
    args = parser.parse_args()
    github = github_spec(args.github)
    if github is not None:
        startup(github, args.rounds)
    if args.startup_only:
        return 0
    port = _free_port()
    upstream = subprocess.Popen([sys.executable, __file__, "upstream", str(port)])
    try:
        _wait_for(port)
        base = f"http://127.0.0.1:{port}"
        with tempfile.TemporaryDirectory() as tmp:
            spec = Path(tmp) / "bookstore.json"
            spec.write_text(json.dumps(SPEC))
            servers = {
                "sktypes": [
                    sys.executable,
                    "-m",
                    "sktypes",
                    "serve",
                    str(spec),
                    "--base-url",
                    base,
                ],
                "fastmcp": [sys.executable, __file__, "fastmcp", str(spec), base],
            }
            best: dict[str, dict[str, Any]] = {}
            for _ in range(args.rounds):
                for name, command in servers.items():
                    flat = name == "fastmcp"
                    got = asyncio.run(measure(command, args.calls, args.concurrency, flat))
                    old = best.get(name)
                    if old is None:
                        best[name] = got
                    else:
                        old["median_ms"] = min(old["median_ms"], got["median_ms"])
                        old["p95_ms"] = min(old["p95_ms"], got["p95_ms"])
                        old["calls_per_s"] = max(old["calls_per_s"], got["calls_per_s"])
                        old["cpu_ms"] = min(old["cpu_ms"], got["cpu_ms"])
    finally:
        upstream.terminate()
        upstream.wait(timeout=10)
    sk, fm = best["sktypes"], best["fastmcp"]
    same = _unwrap(sk["results"]) == _unwrap(fm["results"])
    print(
        f"spec: bookstore, {sk['tools']} operations; {args.calls} calls per measurement, "
        f"best of {args.rounds} rounds"
    )
    print(f"{'':28}{'sktypes':>10}{'fastmcp':>10}{'ratio':>9}")
    speed = sk["calls_per_s"] / fm["calls_per_s"]
    cpu = fm["cpu_ms"] / sk["cpu_ms"]
    size = fm["list_chars"] / sk["list_chars"]
    rows = [
        ("tools/list (characters)", "list_chars", "{:.0f}", size),
        ("latency median (ms)", "median_ms", "{:.2f}", fm["median_ms"] / sk["median_ms"]),
        ("latency p95 (ms)", "p95_ms", "{:.2f}", fm["p95_ms"] / sk["p95_ms"]),
        ("server CPU per call (ms)", "cpu_ms", "{:.2f}", cpu),
        (f"calls/s ({args.concurrency} in flight)", "calls_per_s", "{:.0f}", speed),
    ]
    for label, key, fmt, ratio in rows:
        print(f"{label:28}{fmt.format(sk[key]):>10}{fmt.format(fm[key]):>10}{ratio:>8.2f}x")
    print("ratios: FastMCP's figure over sktypes' (calls/s the other way); > 1 favours sktypes")
    print(f"same structured results from both: {same}")
    print(f"target calls/s >= 2x FastMCP: {'met' if speed >= 2 else 'not met'} ({speed:.2f}x)")
    print(f"target tools/list <= FastMCP's: {'met' if size >= 1 else 'not met'} ({size:.2f}x)")
    if not args.no_corpus:
        corpus_sizes()
    return 0


def _unwrap(results: list[Any]) -> list[Any]:
    out = []
    for r in results:
        if isinstance(r, dict) and set(r) == {"result"}:
            r = r["result"]
        out.append(r)
    return out


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "upstream":
        run_upstream(int(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "fastmcp":
        run_fastmcp(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main())
