"""OpenAPI ingestion: sktypes vs prance, openapi-spec-validator and semantic-kernel.

Run: ``python benchmarks/bench_openapi.py [--repeat N] [--peer-python PATH] [SPEC_ID ...]``

Every run is a fresh subprocess (imports and caches do not leak between runs or tools; prance
caches resolved files): the best wall time of ``--repeat`` cold runs (one run if it takes over
20 s), and one more cold run under ``tracemalloc`` for the peak of Python allocations. Tools:

- ``sktypes``          ``load_openapi(path, validate=False)`` (read, resolve, views)
- ``sktypes+validate`` ``load_openapi(path)`` (the same plus openapi-spec-validator)
- ``osv``              openapi-spec-validator alone: its own reader + ``validate``
- ``prance``           ``prance.ResolvingParser(path, backend="openapi-spec-validator")``
- ``semantic-kernel``  ``Kernel().add_plugin_from_openapi(...)``

``sktypes+validate`` runs with sktypes' per-user cache of validation verdicts off
(``SKTYPES_NO_CACHE=1``): every run validates. Then GitHub's REST spec (fetched by pinned
version, ``benchmarks/_github.py``): the same tools, ``load_openapi`` with its verdict
recorded (a second run on the same content), and ``sktypes manual --include tag:issues``.

Peers that are not importable are skipped with a note. ``--peer-python`` runs the peers
with another interpreter (e.g. a throwaway venv holding them); ``osv`` always runs in
this interpreter, the version sktypes itself validates with. Specs come from
``../shared/corpus/openapi`` (skipped with a note when absent).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _github import github_spec

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "openapi"
DEFAULT_SPECS = [
    "stripe",
    "kubernetes",
    "openai",
    "plaid",
    "googlemaps-multifile",
    "twilio-api-v2010",
]
TIMEOUT = 600

WORKER = r"""
import gc, json, sys, time, tracemalloc
tool, path, repeat, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def setup():
    if tool in ("sktypes", "sktypes+validate"):
        from sktypes.openapi import load_openapi
        validate = tool == "sktypes+validate"
        return lambda: len(load_openapi(path, validate=validate).views)
    if tool == "osv":
        from openapi_spec_validator import validate
        from openapi_spec_validator.readers import read_from_filename
        def run():
            spec, base_uri = read_from_filename(path)
            validate(spec, base_uri=base_uri)
        return run
    if tool == "prance":
        import prance
        return lambda: prance.ResolvingParser(path, backend="openapi-spec-validator",
                                              strict=False).specification
    if tool == "semantic-kernel":
        import logging
        logging.disable(logging.CRITICAL)
        from semantic_kernel import Kernel
        return lambda: len(Kernel().add_plugin_from_openapi(
            plugin_name="bench", openapi_document_path=path).functions)
    raise SystemExit(f"unknown tool {tool}")

try:
    run = setup()
except ImportError as exc:
    print(json.dumps({"skip": f"not installed ({exc.name})"}))
    raise SystemExit(0)
try:
    if mode == "memory":  # a cold run in its own process: no cache from earlier runs
        gc.collect()
        tracemalloc.start()
        run()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(json.dumps({"peak_mb": peak / 2**20}))
        raise SystemExit(0)
    best = None
    t = time.perf_counter()
    for _ in range(repeat):
        gc.collect()
        t = time.perf_counter()
        run()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
        if dt > 20:
            break  # slow peers: one run is enough
except SystemExit:
    raise
except BaseException as exc:  # a peer failing on a spec is a result, not a crash
    failed_after = time.perf_counter() - t if "t" in globals() else None
    print(json.dumps({"fail": f"{type(exc).__name__}: {str(exc)[:120]}", "after": failed_after}))
    raise SystemExit(0)
print(json.dumps({"seconds": best}))
"""

TOOLS = ["sktypes", "sktypes+validate", "osv", "prance", "semantic-kernel"]


def measure(python: str, tool: str, path: Path, repeat: int) -> dict[str, object]:
    times: list[float] = []
    for _ in range(repeat):  # each run in a new process: peers cache resolved files
        timing = _worker(python, tool, path, 1, "time")
        if "seconds" not in timing:
            return timing
        seconds = timing["seconds"]
        assert isinstance(seconds, float)
        times.append(seconds)
        if seconds > 20:
            break  # slow peers: one cold run is enough
    timing = {"seconds": min(times)}
    memory = _worker(python, tool, path, 1, "memory")
    return {**timing, "peak_mb": memory.get("peak_mb", float("nan"))}


def _env(tool: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if tool == "sktypes+validate":
        env["SKTYPES_NO_CACHE"] = "1"
    return env


def github_jobs(spec: Path, repeat: int) -> None:
    """The issue-25 jobs on GitHub's spec, each in fresh processes, best of ``repeat``."""
    print(f"\nGitHub's REST spec ({spec.stat().st_size / 1e6:.0f} MB), best of {repeat} runs:")
    rows = {}
    for tool in ("sktypes", "sktypes+validate", "osv"):
        r = measure(sys.executable, tool, spec, repeat)
        rows[tool] = r
        shown = f"{r['seconds']:.2f} s, {r['peak_mb']:.0f} MB" if "seconds" in r else r
        print(f"  {tool:44}{shown}")
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["SKTYPES_CACHE_DIR"] = cache
        load = f"from sktypes.openapi import load_openapi; load_openapi({str(spec)!r})"
        jobs = {
            "load_openapi, verdict recorded": [sys.executable, "-c", load],
            "sktypes manual --include tag:issues": [
                sys.executable,
                "-m",
                "sktypes",
                "manual",
                str(spec),
                "--include",
                "tag:issues",
                "-f",
                "openai",
            ],
        }
        subprocess.run(jobs["load_openapi, verdict recorded"], env=env, check=True)  # records
        for label, command in jobs.items():
            best = float("inf")
            for _ in range(repeat):
                start = time.perf_counter()
                subprocess.run(command, env=env, check=True, capture_output=True, cwd=ROOT)
                best = min(best, time.perf_counter() - start)
            print(f"  {label:44}{best:.2f} s (whole process)")
    ours, osv = rows["sktypes+validate"], rows["osv"]
    if "seconds" in ours and "seconds" in osv:
        ratio = float(ours["seconds"]) / float(osv["seconds"])  # type: ignore[arg-type]
        print(f"  load + validation vs openapi-spec-validator alone: {ratio:.2f}x")


def _worker(python: str, tool: str, path: Path, repeat: int, mode: str) -> dict[str, object]:
    try:
        out = subprocess.run(
            [python, "-c", WORKER, tool, str(path), str(repeat), mode],
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            cwd=ROOT,
            env=_env(tool),
        )
    except subprocess.TimeoutExpired:
        return {"fail": f"timeout after {TIMEOUT}s"}
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"fail": (out.stderr.strip().splitlines() or ["no output"])[-1][:120]}
    result: dict[str, object] = json.loads(lines[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", help=f"corpus ids (default: {DEFAULT_SPECS})")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-python", default=sys.executable)
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--github", default=None, help="GitHub's spec (default: npm, pinned)")
    parser.add_argument("--github-only", action="store_true", help="only GitHub's jobs")
    args = parser.parse_args()
    github = github_spec(args.github)
    if github is not None:
        github_jobs(github, args.repeat)
    if args.github_only:
        return
    if not (CORPUS / "MANIFEST.tsv").is_file():
        print(f"note: no corpus at {CORPUS}; nothing to measure")
        return
    with (CORPUS / "MANIFEST.tsv").open(newline="") as f:
        rows = {r["id"]: r for r in csv.DictReader(f, delimiter="\t")}
    tools = args.tools.split(",")
    results: dict[tuple[str, str], dict[str, object]] = {}
    notes: set[str] = set()
    for spec in args.specs or DEFAULT_SPECS:
        row = rows[spec]
        path = CORPUS / row["file"]
        for tool in tools:
            own = tool.startswith("sktypes") or tool == "osv"  # osv: sktypes' own dependency
            python = sys.executable if own else args.peer_python
            r = measure(python, tool, path, args.repeat)
            if "skip" in r:
                notes.add(f"{tool}: skipped, {r['skip']}")
            results[(spec, tool)] = r
            shown = (
                f"{r['seconds']:.2f}s {r['peak_mb']:.0f}MB"
                if "seconds" in r
                else r.get("fail", r.get("skip"))
            )
            print(f"  {spec:22} {tool:18} {shown}", file=sys.stderr, flush=True)
    _table(args.specs or DEFAULT_SPECS, tools, rows, results)
    for note in sorted(notes):
        print(f"note: {note}")


def _cell(r: dict[str, object]) -> str:
    if "seconds" in r:
        return f"{r['seconds']:.2f}s / {r['peak_mb']:.0f} MB"
    if "skip" in r:
        return "skipped"
    after = r.get("after")
    return f"FAILED after {after:.2f}s" if isinstance(after, float) else "FAILED"


def _ratio(peer: dict[str, object], ours: dict[str, object], key: str) -> str:
    if "seconds" not in peer or "seconds" not in ours:
        return "-"
    a, b = peer[key], ours[key]
    assert isinstance(a, float)
    assert isinstance(b, float)
    return f"{a / b:.1f}x" if b else "-"


def _table(
    specs: list[str],
    tools: list[str],
    rows: dict[str, dict[str, str]],
    results: dict[tuple[str, str], dict[str, object]],
) -> None:
    print()
    print("time (best of runs) / peak traced memory")
    print("| spec | size | " + " | ".join(tools) + " |")
    print("|---|---|" + "---|" * len(tools))
    for spec in specs:
        size = f"{int(rows[spec]['total_bytes']) / 2**20:.1f} MB"
        cells = [_cell(results[(spec, t)]) for t in tools]
        print(f"| {spec} | {size} | " + " | ".join(cells) + " |")
    print()
    print("ratios: peer time / sktypes time (higher = sktypes faster); memory likewise")
    peers = [t for t in tools if not t.startswith("sktypes")]
    print("| spec | " + " | ".join(f"{p} time | {p} mem" for p in peers) + " | validate vs osv |")
    print("|---|" + "---|---|" * len(peers) + "---|")
    for spec in specs:
        ours = results.get((spec, "sktypes"), {})
        cells = []
        for p in peers:
            peer = results[(spec, p)]
            cells += [_ratio(peer, ours, "seconds"), _ratio(peer, ours, "peak_mb")]
        with_validation = results.get((spec, "sktypes+validate"), {})
        osv = results.get((spec, "osv"), {})
        overhead = _ratio(with_validation, osv, "seconds")  # ours / osv: want <= 1.2
        print(f"| {spec} | " + " | ".join(cells) + f" | {overhead} |")


if __name__ == "__main__":
    main()
