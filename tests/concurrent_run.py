"""Load specs validated in the process, then by a forked child: print how they compare.

Run as ``python -m tests.concurrent_run SPEC...`` (a process of its own: a pytest worker may
run threads, and then nothing is forked). For each spec and each way of validating
(``strict``, and ``strict=False``'s warnings) the load and ``render_plugin`` run three times:
in the process, with a forked child validating, and with a child that dies without a
word. Printed (JSON): the cases whose results differ, how many children were forked and
how many of their verdicts were taken.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

os.environ["SKTYPES_NO_CACHE"] = "1"

from sktypes.errors import SktypesError
from sktypes.openapi import _checking, _forked, _verdicts
from sktypes.openapi._load import load_openapi
from sktypes_codegen import generate_plugin, render_plugin

_COUNTS = {"forked": 0, "taken": 0, "validated_here": 0}
_REAL_RUN = _forked.run_forked
_REAL_OUTCOME = _checking.outcome_of


def _counting_run(work: Any) -> Any:
    child = _REAL_RUN(work)
    if child is not None:
        _COUNTS["forked"] += 1
    return child


def _dying_run(work: Any) -> Any:
    return _REAL_RUN(lambda: os._exit(3))


def _counting_outcome(validate: Any) -> Any:
    _COUNTS["validated_here"] += 1
    return _REAL_OUTCOME(validate)


def _set(way: str) -> None:
    _verdicts._REMEMBERED.clear()  # no verdict recorded by an earlier run of this process
    _checking.FORK_MIN_BYTES = 10**12 if way == "inline" else 0
    _checking.run_forked = _dying_run if way == "dying" else _counting_run


def _load(spec: Path, strict: bool) -> Any:
    try:
        plugin = load_openapi(spec, strict=strict)
    except SktypesError as exc:
        return ["error", str(exc)]
    verdict = plugin.validation.to_dict() if plugin.validation is not None else None
    return ["ok", list(plugin.warnings), verdict, [v.name for v in plugin.views]]


def _render(spec: Path, strict: bool) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rendered = render_plugin(spec, strict=strict)
        except SktypesError as exc:
            return ["error", str(exc)]
    verdict = rendered.validation.to_dict() if rendered.validation is not None else None
    return ["ok", [str(w) for w in rendered.warnings], verdict, sorted(rendered.files)]


def _generated(spec: Path) -> Any:
    """What ``generate_plugin`` leaves in an empty folder (nothing for an invalid spec)."""
    with tempfile.TemporaryDirectory() as out, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            generate_plugin(spec, out)
            error = None
        except SktypesError as exc:
            error = str(exc)
        return [error, sorted(p.name for p in Path(out).iterdir())]


def main(specs: list[str], render: bool) -> dict[str, Any]:
    _checking.outcome_of = _counting_outcome
    differ: list[Any] = []
    for name in specs:
        spec = Path(name)
        jobs = [("load", lambda s, strict=strict: _load(s, strict)) for strict in (True, False)]
        if render:
            jobs += [
                ("render", lambda s, strict=strict: _render(s, strict)) for strict in (True, False)
            ]
            jobs.append(("generate", lambda s: _generated(s)))
        for index, (kind, job) in enumerate(jobs):
            results = {}
            for way in ("inline", "forked", "dying"):
                _set(way)
                before = _COUNTS["validated_here"]
                results[way] = job(spec)
                if way == "forked" and _COUNTS["validated_here"] == before:
                    _COUNTS["taken"] += 1
            if not results["inline"] == results["forked"] == results["dying"]:
                differ.append([name, kind, index, results])
    return {"differ": differ, **_COUNTS}


def selftest(marker: str) -> dict[str, Any]:
    """The child's rules: its result, no result when it fails, no exit handlers, no flush."""
    import atexit
    import time

    atexit.register(lambda: Path(marker).write_text("atexit ran"))  # the parent's: at its exit
    sys.stdout.write("unflushed;")  # in the buffer when the children are forked
    out: dict[str, Any] = {}
    child = _REAL_RUN(lambda: {"answer": [42, "x"]})
    out["result"] = child.result() if child is not None else "not forked"
    child = _REAL_RUN(lambda: 1 / 0)
    out["raised"] = child.result() if child is not None else "not forked"
    child = _REAL_RUN(lambda: os._exit(3))
    out["died"] = child.result() if child is not None else "not forked"
    child = _REAL_RUN(lambda: time.sleep(60))
    started = time.monotonic()
    if child is not None:
        child.cancel()
    out["cancelled_in"] = time.monotonic() - started
    out["atexit_in_child"] = Path(marker).exists()
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--selftest"]:
        print(json.dumps(selftest(args[1])))
        sys.exit(0)
    with_render = args[:1] == ["--render"]
    print(json.dumps(main(args[1:] if with_render else args, with_render)))
