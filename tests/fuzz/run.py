"""``python -m tests.fuzz.run``: run fuzz targets for a set time, one at a time.

Usage::

    python -m tests.fuzz.run [--seconds 60] [--engine auto|atheris|hypothesis] [TARGET...]

Each target runs in its own process (a crash of the interpreter is a finding too, with the
input that caused it). ``atheris`` (coverage-guided, libFuzzer) is used when it is installed
(``pip install -e '.[fuzz]'``; ``make fuzz`` does), with a corpus seeded from the target's
seeds and structured inputs; otherwise hypothesis generates structured inputs. Findings go
to ``.fuzz/findings``; the exit status is 1 when there is any.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

from tests.fuzz._engine import (
    OUT,
    Result,
    fuzz_with_hypothesis,
    run_one,
    save_finding,
    write_corpus,
)
from tests.fuzz._registry import all_targets

_CURRENT = "current.bin"


def _has_atheris() -> bool:
    try:
        import atheris  # noqa: F401
    except ImportError:
        return False
    return True


def _child_hypothesis(name: str, seconds: float) -> None:
    target = all_targets()[name]
    result = fuzz_with_hypothesis(target, seconds)
    print("RESULT " + json.dumps(result.__dict__), flush=True)


def _child_atheris(name: str, seconds: float) -> None:
    import atheris

    with atheris.instrument_imports(include=["sktypes", "sktypes_codegen"]):
        targets = all_targets()
    target = targets[name]
    corpus = OUT / "corpus" / name
    write_corpus(target, corpus)
    findings = OUT / "findings"
    findings.mkdir(parents=True, exist_ok=True)

    def one(data: bytes) -> None:
        run_one(target, data, limit=False)  # libFuzzer's -timeout bounds each input

    argv = [
        sys.argv[0],
        f"-max_total_time={int(seconds)}",
        f"-timeout={int(target.timeout)}",
        "-rss_limit_mb=4096",
        "-print_final_stats=1",
        f"-artifact_prefix={findings}/{name}-",
        str(corpus),
    ]
    atheris.Setup(argv, one)
    atheris.Fuzz()


def _run_target(name: str, seconds: float, engine: str) -> Result:
    cmd = [sys.executable, "-m", "tests.fuzz.run", "--child", name, "--seconds", str(seconds)]
    cmd += ["--engine", engine]
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 3 + 600)
    result = Result(name, engine, seconds=time.monotonic() - start)
    for line in done.stdout.splitlines():
        if line.startswith("RESULT "):
            result = Result(**json.loads(line[len("RESULT ") :]))
    if engine == "atheris":
        stats = re.search(r"stat::number_of_executed_units:\s*(\d+)", done.stderr)
        result.executions = int(stats[1]) if stats else 0
        artifacts = sorted((OUT / "findings").glob(f"{name}-*"))
        fresh = [a for a in artifacts if a.stat().st_mtime >= time.time() - result.seconds - 5]
        if done.returncode != 0 or fresh:
            lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
            error = next((ln for ln in reversed(lines) if "Error" in ln or "==" in ln), "")
            result.finding = error or f"exit status {done.returncode}"
            result.saved = str(fresh[-1]) if fresh else ""
            (OUT / "findings" / f"{name}-atheris.log").write_text(done.stderr[-20000:])
    elif done.returncode != 0 and not result.finding:
        result.finding = f"the interpreter died (exit status {done.returncode})"
        tail = done.stderr[-4000:]
        result.saved = str(save_finding(all_targets()[name], b"", tail))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help="targets to run (default: all)")
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", 60)))
    parser.add_argument("--engine", choices=["auto", "atheris", "hypothesis"], default="auto")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    args = parser.parse_args()
    engine = args.engine
    if engine == "auto":
        engine = "atheris" if _has_atheris() else "hypothesis"
    if args.child:
        (_child_atheris if engine == "atheris" else _child_hypothesis)(args.child, args.seconds)
        return 0
    targets = all_targets()
    if args.list:
        for name, t in targets.items():
            print(f"{name:16s} {(t.check.__doc__ or '').strip().splitlines()[0]}")
        return 0
    names = args.targets or list(targets)
    unknown = sorted(set(names) - set(targets))
    if unknown:
        parser.error(f"unknown target(s): {', '.join(unknown)} (see --list)")
    failed = 0
    print(f"{'target':16s} {'engine':10s} {'runs':>9s} {'seconds':>8s}  result", flush=True)
    for name in names:
        r = _run_target(name, args.seconds, engine)
        status = f"FINDING {r.finding} -> {r.saved}" if r.finding else "ok"
        failed += bool(r.finding)
        print(f"{name:16s} {r.engine:10s} {r.executions:9d} {r.seconds:8.0f}  {status}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
