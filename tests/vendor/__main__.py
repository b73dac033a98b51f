"""``python -m tests.vendor fetch|run`` (what ``make conformance`` runs).

- ``fetch [KEY...]``: fetch the vendor specs (pinned, checked) into ``.cache/specs/``.
- ``run [--specs KEY,...] [--modes static,dynamic] [--sample N] [--seed S] [--no-mypy]``:
  run the specs, merge their results into ``tests/vendor/results.json`` (the other specs'
  results stay) and rewrite the table in ``docs/conformance.md`` from it.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import tempfile
from pathlib import Path

from tests.vendor.report import RESULTS, write_table
from tests.vendor.run import MODES, SpecResult, run_spec
from tests.vendor.specs import VENDOR_SPECS, all_specs, spec_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.vendor")
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="fetch the pinned vendor specs")
    fetch.add_argument("keys", nargs="*")
    run = sub.add_parser("run", help="run specs against Prism, rewrite the results")
    run.add_argument("--specs", default="", help="comma-separated keys or globs (default: all)")
    run.add_argument("--modes", default=",".join(MODES))
    run.add_argument("--sample", type=int, default=None, help="operations per spec (seeded)")
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--no-mypy", action="store_true")
    run.add_argument("--no-write", action="store_true", help="print, keep results as they are")
    args = parser.parse_args(argv)
    if args.command == "fetch":
        keys = args.keys or [s.key for s in VENDOR_SPECS]
        for key in keys:
            print(f"{key}: {spec_path(key)}")
        return 0
    patterns = [p for p in args.specs.split(",") if p]
    vendor_keys = {s.key for s in VENDOR_SPECS}
    specs = all_specs()
    chosen = [k for k in specs if not patterns or any(fnmatch.fnmatch(k, p) for p in patterns)]
    if not chosen:
        print(f"no spec matches {args.specs!r}; keys: {', '.join(specs)}", file=sys.stderr)
        return 2
    modes = tuple(m for m in args.modes.split(",") if m)
    for key in chosen:
        path = spec_path(key) if key in vendor_keys else specs[key]
        if path is None or not path.is_file():
            print(f"{key}: missing ({path})", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory(prefix=f"conformance-{key}-") as work:
            result = run_spec(
                key,
                path,
                Path(work),
                modes=modes,
                sample=args.sample,
                seed=args.seed,
                mypy=not args.no_mypy,
                log=lambda msg: print(msg, file=sys.stderr, flush=True),
            )
        print(_summary(result), flush=True)
        for mode, counts in result.modes.items():
            for f in counts.failures:
                print(f"  {mode} {f.operation}: not {f.stage}{f.whose}: {f.cause}", file=sys.stderr)
        if not args.no_write and args.sample is None:
            # read again: another run may have written other specs meanwhile
            stored = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
            stored[key] = result.to_dict()
            RESULTS.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
            write_table({k: SpecResult.from_dict(v) for k, v in stored.items()})
    return 0


def _summary(result: SpecResult) -> str:
    parts = [f"{result.key}: {result.operations} operations"]
    if result.cause:
        parts.append(result.cause)
    for mode, counts in result.modes.items():
        parts.append(
            f"{mode}: callable {counts.callable}/{counts.run}, accepted {counts.accepted}, "
            f"parsed {counts.parsed}/{counts.answered_2xx}"
        )
    parts.append(f"mypy {result.mypy_errors}, {result.seconds}s")
    return "; ".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
