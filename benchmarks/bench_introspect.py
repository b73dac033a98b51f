"""Function → tool schema: sktypes against the peers, timed and scored in one run.

Run ``python benchmarks/bench_introspect.py`` with the interpreter of ``.bench-venv`` (which
holds the peers); a peer that is not installed is skipped with a note.

What is timed, per function (µs): everything a library does to turn a Python function into
the tool entry a model reads (sktypes: ``function_view`` + ``functions_manual([view],
"openai")``).

- cold process: a fresh interpreter, first pass over all functions (imports excluded);
- cold function: new function objects (copies of the code), caches per type already warm;
- warm: the same function objects again.

Rounds interleave the libraries (A, B, C, A, B, C…) and the medians are reported, with
ratios peer / sktypes from the same run (the machine is shared, absolute numbers are noisy).

What is scored: every valid and invalid call in ``_functions.CASES`` against each library's
parameters schema (jsonschema ``Draft202012Validator``, formats checked), invalid schemas,
crashes, missing descriptions and return schemas. Details go to
``benchmarks/results/introspect.json``.
"""

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
import types
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _functions import CASES, Case  # noqa: E402
from _peers import Peer, load_peers  # noqa: E402

FORMATS = Draft202012Validator.FORMAT_CHECKER
KINDS = (
    "wrong type",
    "missing required",
    "unknown extra argument",
    "enum violation",
    "constraint violation",
    "bad date",
    "bad uuid",
)


def fresh(fn: Any) -> Any:
    """A new function object with the same code, defaults and annotations (a cache miss)."""
    new = types.FunctionType(
        fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
    )
    new.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
    new.__annotations__ = dict(fn.__annotations__)
    new.__doc__ = fn.__doc__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    return new


def _warm_up(city: str, days: int = 1) -> dict[str, float]:
    """A throwaway function built before each timed pass.

    Args:
        city: A city.
        days: How many days.

    Returns:
        Something.
    """
    raise NotImplementedError


def time_pass(peer: Peer, fns: list[Any]) -> list[int | None]:
    """Build every function once; ns per function (``None`` where the library raised)."""
    out: list[int | None] = []
    clock = time.perf_counter_ns
    for fn in fns:
        t0 = clock()
        try:
            peer.build(fn)
        except Exception:
            out.append(None)
            continue
        out.append(clock() - t0)
    return out


def mean_us(times: list[int | None], subset: list[int]) -> float:
    vals = [times[i] for i in subset]
    return sum(v for v in vals if v is not None) / max(len(vals), 1) / 1000


# --- correctness ----------------------------------------------------------------------


def _described(prop: Any) -> bool:
    if not isinstance(prop, dict):
        return False
    if isinstance(prop.get("description"), str) and prop["description"].strip():
        return True
    inner = prop.get("allOf")
    return isinstance(inner, list) and len(inner) == 1 and _described(inner[0])


def _param_names(case: Case) -> list[str]:
    import inspect

    return [
        p.name
        for p in inspect.signature(case.fn).parameters.values()
        if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
    ]


def score(peer: Peer) -> dict[str, Any]:
    """Validate every call against the peer's schema and count what is missing."""
    s: dict[str, Any] = Counter()
    by_kind: Counter[str] = Counter()
    kind_total: Counter[str] = Counter()
    details: list[dict[str, Any]] = []
    for case in CASES:
        params = _param_names(case)
        s["valid_total"] += len(case.valid)
        s["invalid_total"] += len(case.all_invalid())
        s["params_total"] += len(params)
        for kind, _ in case.all_invalid():
            kind_total[kind] += 1
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                built = peer.inspect(peer.build(case.fn))
        except Exception as exc:
            s["crashes"] += 1
            s["params_missing_desc"] += len(params)
            s["no_return_schema"] += 1
            s["no_return_desc"] += 1
            s["no_description"] += 1
            details.append({"function": case.name, "crash": f"{type(exc).__name__}: {exc}"[:300]})
            continue
        props = built.parameters.get("properties", {})
        for name in params:
            if not _described(props.get(name)):
                s["params_missing_desc"] += 1
                details.append({"function": case.name, "missing_description": name})
        if not built.description.strip():
            s["no_description"] += 1
        if built.return_schema is None:
            s["no_return_schema"] += 1
        elif not _schema_ok(built.return_schema):
            s["invalid_return_schema"] += 1
        if not (case.return_doc and case.return_doc in built.return_description):
            s["no_return_desc"] += 1
        if not _schema_ok(built.parameters):
            s["invalid_schema"] += 1
            details.append({"function": case.name, "invalid_schema": True})
        try:
            validator = Draft202012Validator(built.parameters, format_checker=FORMATS)
        except Exception as exc:
            details.append({"function": case.name, "validator": str(exc)[:200]})
            continue
        for args in case.valid:
            ok, why = _accepts(validator, _shape(args, built.single_arg))
            if ok:
                s["valid_ok"] += 1
            else:
                details.append({"function": case.name, "valid_rejected": args, "why": why})
        for kind, args in case.all_invalid():
            ok, _ = _accepts(validator, _shape(args, built.single_arg))
            if not ok:
                s["invalid_ok"] += 1
                by_kind[kind] += 1
            else:
                details.append({"function": case.name, "invalid_accepted": kind, "args": args})
    s["by_kind"] = {k: f"{by_kind[k]}/{kind_total[k]}" for k in KINDS}
    s["details"] = details
    return s


def _shape(args: dict[str, Any], single: str | None) -> Any:
    """The call as the library expects it (pydantic-ai: a lone model's fields at the top)."""
    if single is None:
        return args
    inner = args.get(single, {})
    rest = {k: v for k, v in args.items() if k != single}
    return {**inner, **rest} if isinstance(inner, dict) else inner


def _schema_ok(schema: Any) -> bool:
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError:
        return False
    return True


def _accepts(validator: Draft202012Validator, args: dict[str, Any]) -> tuple[bool, str]:
    try:
        err = next(iter(validator.iter_errors(args)), None)
    except Exception as exc:  # a broken schema (unresolvable $ref…)
        return False, f"{type(exc).__name__}: {exc}"[:200]
    return err is None, "" if err is None else f"{list(err.absolute_path)}: {err.message}"[:200]


# --- timing -----------------------------------------------------------------------------


def worker(lib: str) -> None:
    """Cold process: import the library, then one timed pass over every function."""
    warnings.simplefilter("ignore")
    t0 = time.perf_counter_ns()
    peers, notes = load_peers([lib])
    import_ms = (time.perf_counter_ns() - t0) / 1e6
    peers = [p for p in peers if p.timed]
    if not peers:
        print(json.dumps({"error": notes}))
        return
    times = time_pass(peers[0], [c.fn for c in CASES])
    print(json.dumps({"import_ms": import_ms, "times": times}))


def cold_process(peers: list[Peer], rounds: int) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    libs = [p.name for p in peers if p.timed]
    for r in range(rounds):
        order = libs[r % len(libs) :] + libs[: r % len(libs)]
        for lib in order:
            proc = subprocess.run(
                [sys.executable, __file__, "--worker", lib],
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            try:
                out[lib].append(json.loads(proc.stdout.strip().splitlines()[-1]))
            except (IndexError, json.JSONDecodeError):
                print(f"  cold-process worker for {lib} failed: {proc.stderr[-500:]}")
    return out


def in_process(peers: list[Peer], rounds: int) -> dict[str, dict[str, list[list[int | None]]]]:
    """Cold-function and warm passes, interleaved across libraries, ``rounds`` times."""
    out: dict[str, dict[str, list[list[int | None]]]] = defaultdict(lambda: defaultdict(list))
    timed = [p for p in peers if p.timed]
    originals = [c.fn for c in CASES]
    sk_view = _sktypes_view_only()
    for r in range(rounds + 1):  # round 0 warms up (lazy imports, first-call paths)
        order = timed[r % len(timed) :] + timed[: r % len(timed)]
        for peer in order:
            copies = [fresh(f) for f in originals]
            gc.collect()
            time_pass(peer, [fresh(_warm_up)])  # so the first timed call is not the odd one
            cold = time_pass(peer, copies)
            warm = time_pass(peer, copies)
            if r:
                out[peer.name]["cold"].append(cold)
                out[peer.name]["warm"].append(warm)
            if peer.name == "sktypes" and sk_view is not None:
                copies = [fresh(f) for f in originals]
                cold = time_pass(sk_view, copies)
                warm = time_pass(sk_view, copies)
                if r:
                    out["sktypes view only"]["cold"].append(cold)
                    out["sktypes view only"]["warm"].append(warm)
    return out


def _sktypes_view_only() -> Peer | None:
    try:
        from sktypes import function_view
    except ImportError:
        return None
    return Peer("sktypes view only", "", function_view, lambda b: b)


# --- report -----------------------------------------------------------------------------


def _fmt_ratio(peer: float, base: float) -> str:
    return f"{peer / base:6.1f}x" if base > 0 else "   n/a"


def report_timing(
    peers: list[Peer],
    inproc: dict[str, dict[str, list[list[int | None]]]],
    cproc: dict[str, list[dict[str, Any]]],
    subset: list[int],
) -> dict[str, Any]:
    n_all = list(range(len(CASES)))
    rows: dict[str, dict[str, float]] = {}
    names = [p.name for p in peers if p.timed] + (
        ["sktypes view only"] if "sktypes view only" in inproc else []
    )
    for name in names:
        row: dict[str, float] = {}
        for label, sub in (("", n_all), ("common ", subset)):
            for mode in ("cold", "warm"):
                rounds = inproc.get(name, {}).get(mode, [])
                if rounds:
                    row[label + mode] = statistics.median(mean_us(t, sub) for t in rounds)
            procs = cproc.get(name, [])
            if procs:
                row[label + "proc"] = statistics.median(mean_us(p["times"], sub) for p in procs)
                row["import_ms"] = statistics.median(p["import_ms"] for p in procs)
        rows[name] = row
    base = rows.get("sktypes", {})
    print(
        f"\nTiming, µs per function (median of rounds; {len(subset)} functions no peer"
        " crashes on; ratio = peer / sktypes, >1 means sktypes is faster)"
    )
    head = (
        f"{'library':<20}{'cold proc':>11}{'cold fn':>10}{'warm':>10}"
        f"{'x proc':>9}{'x cold':>9}{'x warm':>9}{'import ms':>11}"
    )
    print(head)
    print("-" * len(head))
    for name, row in rows.items():
        cells = [row.get(f"common {m}", float("nan")) for m in ("proc", "cold", "warm")]
        ratios = [
            _fmt_ratio(row.get(f"common {m}", 0), base.get(f"common {m}", 0))
            for m in ("proc", "cold", "warm")
        ]
        if name == "sktypes view only":
            ratios = ["", "", ""]
        print(
            f"{name:<20}{cells[0]:>11.0f}{cells[1]:>10.1f}{cells[2]:>10.1f}"
            f"{ratios[0]:>9}{ratios[1]:>9}{ratios[2]:>9}{row.get('import_ms', float('nan')):>11.0f}"
        )
    print(f"\nSame, over all {len(CASES)} functions (a crash costs what it cost until it raised):")
    for name, row in rows.items():
        print(
            f"{name:<20}{row.get('proc', float('nan')):>11.0f}"
            f"{row.get('cold', float('nan')):>10.1f}{row.get('warm', float('nan')):>10.1f}"
        )
    view = rows.get("sktypes view only", {})
    if view.get("common warm"):
        print(
            "\nsktypes cached view (function_view again): "
            f"{view['common cold'] / view['common warm']:.0f}x faster than a cold-function view, "
            f"{base.get('common proc', 0) / view['common warm']:.0f}x faster than cold-process"
            " view + manual (target ≥100x)"
        )
    sk = inproc.get("sktypes", {}).get("cold", [])
    if sk:
        per_fn = [statistics.median(t[i] or 0 for t in sk) / 1000 for i in n_all]
        top = sorted(zip(per_fn, (c.name for c in CASES), strict=True), reverse=True)[:6]
        print(
            "\nsktypes, slowest cold functions (µs): " + ", ".join(f"{n} {t:.0f}" for t, n in top)
        )
    return rows


def report_scores(scores: dict[str, dict[str, Any]]) -> None:
    any_s = next(iter(scores.values()))
    print(
        f"\nCorrectness ({len(CASES)} functions, {any_s['valid_total']} valid and"
        f" {any_s['invalid_total']} invalid calls, {any_s['params_total']} parameters;"
        " jsonschema Draft 2020-12 with format checking)"
    )
    head = (
        f"{'library':<23}{'valid ok':>10}{'invalid rej':>13}{'bad schema':>12}{'crashes':>9}"
        f"{'no p.desc':>11}{'no f.desc':>11}{'no ret sch':>12}{'no ret desc':>13}"
    )
    print(head)
    print("-" * len(head))
    for name, s in scores.items():
        print(
            f"{name:<23}{s['valid_ok']:>6}/{s['valid_total']:<3}{s['invalid_ok']:>8}/"
            f"{s['invalid_total']:<4}{s['invalid_schema']:>12}{s['crashes']:>9}"
            f"{s['params_missing_desc']:>11}{s['no_description']:>11}"
            f"{s['no_return_schema']:>12}{s['no_return_desc']:>13}"
        )
    checked = [
        f for f in ("date", "date-time", "time", "duration", "uuid") if f in FORMATS.checkers
    ]
    print(
        f"formats checked: {', '.join(checked)} (date-time and time per RFC 3339: a UTC offset is"
        " required, pydantic does not require one)"
    )
    print("\nInvalid calls rejected, by kind:")
    print(f"{'library':<23}" + "".join(f"{k[:12]:>13}" for k in KINDS))
    for name, s in scores.items():
        print(f"{name:<23}" + "".join(f"{s['by_kind'][k]:>13}" for k in KINDS))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--rounds", type=int, default=7, help="in-process rounds (default 7)")
    ap.add_argument("--proc-rounds", type=int, default=3, help="cold-process rounds (default 3)")
    ap.add_argument("--only", nargs="*", help="libraries to run (default: all that import)")
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    warnings.simplefilter("ignore")
    peers, notes = load_peers(args.only)
    print(f"python {sys.version.split()[0]} ({sys.executable})")
    for p in peers:
        print(f"  {p.name} {p.version}")
    for note in notes:
        print(f"  {note}")
    if not any(p.name == "sktypes" for p in peers):
        sys.exit("sktypes is not importable")

    scores = {p.name: score(p) for p in peers}
    crashed = {
        d["function"] for p in peers if p.timed for d in scores[p.name]["details"] if "crash" in d
    }
    subset = [i for i, c in enumerate(CASES) if c.name not in crashed]
    t0 = time.monotonic()
    cproc = cold_process(peers, args.proc_rounds) if args.proc_rounds else {}
    inproc = in_process(peers, args.rounds)
    rows = report_timing(peers, inproc, cproc, subset)
    report_scores(scores)
    print(f"\n(timing took {time.monotonic() - t0:.0f} s)")
    out = HERE / "results" / "introspect.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "python": sys.version,
                "versions": {p.name: p.version for p in peers},
                "notes": notes,
                "timing_us": rows,
                "common_functions": [CASES[i].name for i in subset],
                "scores": scores,
            },
            indent=1,
            default=str,
        )
    )
    print(f"details: {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
