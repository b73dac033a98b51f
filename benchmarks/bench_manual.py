"""Manuals within a token budget: tools/list tokens against FastMCP, the corpus's schema sizes.

Run ``python benchmarks/bench_manual.py`` in ``.bench-mcp-venv`` (FastMCP and the o200k
tokenizer are there; ``make bench`` builds it). Each target is printed with its figure and
whether it is met.

1. GitHub's whole REST spec (``@octokit/openapi`` 23.0.2, fetched by pinned version, see
   ``_github.py``) served over MCP stdio, ``tools/list`` as a client receives it (JSON,
   compact separators), counted in o200k tokens: ``sktypes serve --detail full|compact|names``
   against FastMCP's ``from_openapi``. Targets: compact ≤ 50% of FastMCP's, full ≤ FastMCP's.
2. The 63-function corpus of typical Python tools (``_functions.py``: Annotated, Field,
   docstrings, models, enums, dates): the arguments schema of each function at ``full``
   (compact JSON), median characters. Target ≤ 250 with no fact lost: every call of the
   corpus (valid and invalid) gets the same verdict from the manual's schema as from the
   view's own (jsonschema, formats checked), and every parameter's description is there.
3. Code-mode stubs (``sktypes stubs --code-mode``) over the corpus specs' operations that
   declare a 2xx JSON schema: the share whose return type is not ``Any``. Target ≥ 90%.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _github import github_spec  # noqa: E402
from bench_mcp import RawClient  # noqa: E402

# as tests/corpus_util.py finds it (a worktree's ``..`` is not the checkout's)
CORPUS = Path(
    os.environ.get("SKTYPES_CORPUS_DIR") or HERE.parent.parent / "shared" / "corpus" / "openapi"
)


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


async def _tools(command: list[str]) -> list[dict[str, Any]]:
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=2**28,
    )
    client = RawClient(process)
    try:
        await client.initialize()
        await client.notify("notifications/initialized")
        tools: list[dict[str, Any]] = []
        cursor = None
        while True:
            page = await client.request("tools/list", {"cursor": cursor} if cursor else {})
            tools += page["tools"]
            cursor = page.get("nextCursor")
            if not cursor:
                return tools
    finally:
        await client.close()


def tools_list(spec: Path) -> None:
    from sktypes.manual import token_counter

    counter = token_counter()
    base = "http://127.0.0.1:9"
    rows: dict[str, tuple[int, int, int]] = {}
    for detail in ("full", "compact", "names"):
        command = [sys.executable, "-m", "sktypes", "serve", str(spec), "--base-url", base]
        listed = asyncio.run(_tools([*command, "--detail", detail, "--no-validate"]))
        text = json.dumps(listed, separators=(",", ":"))
        rows[f"sktypes {detail}"] = (len(listed), len(text), counter.count(text))
    listed = asyncio.run(
        _tools([sys.executable, str(HERE / "bench_mcp.py"), "fastmcp", str(spec), base])
    )
    text = json.dumps(listed, separators=(",", ":"))
    rows["fastmcp from_openapi"] = (len(listed), len(text), counter.count(text))
    print(f"GitHub REST spec as MCP tools/list (tokens: {counter.name})")
    print(f"{'server':24}{'tools':>7}{'characters':>14}{'tokens':>12}{'vs fastmcp':>12}")
    fast = rows["fastmcp from_openapi"][2]
    for name, (n, chars, tokens) in rows.items():
        print(f"{name:24}{n:>7}{chars:>14,}{tokens:>12,}{tokens / fast:>11.0%}")
    full, compact = rows["sktypes full"][2], rows["sktypes compact"][2]
    print(
        f"target compact <= 50% of FastMCP's: {verdict(compact <= fast / 2)} ({compact / fast:.0%})"
    )
    print(f"target full <= FastMCP's: {verdict(full <= fast)} ({full / fast:.0%})")


def corpus_functions() -> None:
    from _functions import CASES
    from jsonschema import Draft202012Validator

    import sktypes as sk

    sizes, lost = [], []
    for case in CASES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            [tool] = sk.functions_manual([sk.function_view(case.fn)], "openai")
        params = tool["function"]["parameters"]
        sizes.append(len(json.dumps(params, separators=(",", ":"))))
        view = sk.function_view(case.fn)
        formats = Draft202012Validator.FORMAT_CHECKER
        check = Draft202012Validator(params, format_checker=formats)
        own = Draft202012Validator(view.parameters_schema, format_checker=formats)
        calls = [("valid", a) for a in case.valid] + case.all_invalid()
        lost += [
            f"{case.name}: {kind} call {'accepted' if own.is_valid(a) else 'refused'} by the "
            "view, not by the manual"
            for kind, a in calls
            if check.is_valid(a) != own.is_valid(a)
        ]
        lost += [
            f"{case.name}.{p.name}: description lost"
            for p in view.parameters
            if p.description and not params["properties"][p.name].get("description")
        ]
    median = statistics.median(sizes)
    print(f"\n{len(CASES)}-function corpus, arguments schema at full (compact JSON characters)")
    print(
        f"median {median:.0f}, smallest {min(sizes)}, largest {max(sizes)}; facts lost: {len(lost)}"
    )
    for line in lost[:10]:
        print(f"  {line}")
    print(f"target median <= 250 with no fact lost: {verdict(median <= 250 and not lost)}")


def stubs_share() -> None:
    import sktypes as sk
    from sktypes_codegen import code_mode_stubs

    total = typed = 0
    for path in sorted(CORPUS.glob("*/*")):
        if path.suffix not in (".json", ".yaml", ".yml") or "separate" in str(path):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                views = sk.load_openapi(str(path), validate=False).views
        except sk.SktypesError:
            continue
        declared = [v for v in views if v.return_parameter.schema is not None]
        if not declared:
            continue
        result = code_mode_stubs(declared, source=path.name)
        total += result.declared
        typed += result.typed
    share = typed / total if total else 0.0
    print(
        f"\ncode-mode stubs over the corpus: {typed} of {total} operations with a 2xx JSON schema"
    )
    print(f"return a type that is not Any ({share:.1%}); target >= 90%: {verdict(share >= 0.9)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--github", default=None, help="GitHub's spec (else fetched by npm)")
    parser.add_argument("--skip-github", action="store_true")
    args = parser.parse_args()
    if not args.skip_github:
        spec = github_spec(args.github)
        if spec is not None:
            with tempfile.TemporaryDirectory():
                tools_list(spec)
    corpus_functions()
    if CORPUS.is_dir():
        stubs_share()


if __name__ == "__main__":
    main()
