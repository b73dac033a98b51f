"""Generation time, peak memory and success counts: sktypes vs datamodel-code-generator (models
only) and openapi-python-client (full client), measured in the same run.

    python benchmarks/bench_generate.py            # the 4 largest valid specs + corpus counts
    python benchmarks/bench_generate.py --quick    # 2 large specs, no corpus counts
    python benchmarks/bench_generate.py --github package/generated/api.github.com.json

GitHub's REST spec is not in the corpus: it is fetched by pinned version with npm
(``benchmarks/_github.py``: ``@octokit/openapi`` 23.0.2 into ``.bench-cache/``), or
given with ``--github`` (``SKTYPES_GITHUB_SPEC``); without npm its row is skipped.

Targets (issue 25): sktypes' whole plugin for GitHub's spec in at most 0.5x
openapi-python-client's time, under 300 MB; Stripe in at most 0.5x datamodel-code-
generator's models-only time; ``sktypes check`` of the unchanged generated GitHub package
(and of the unchanged spec) in at most 1 s. sktypes is timed twice: with a **cold** cache (its
per-user cache of validation verdicts off, ``SKTYPES_NO_CACHE=1``: the spec is validated in
the timed run, as a first-time user sees it; the targets are judged on this one) and with a
**warm** cache (a fresh ``SKTYPES_CACHE_DIR`` primed by one untimed run: the verdict is read
by digest, as on every later run over an unchanged spec).

Every run happens in a fresh subprocess (so peak RSS is that tool's alone); the time is the
generation call only (interpreter start-up and imports excluded), the best of ``--repeat`` runs.
datamodel-code-generator is asked for one module; when it refuses (dotted schema names need
"modular" output), it is timed again writing a package, and only that run counts.
"Importable" means a fresh interpreter imports the generated package/module. Peers that are not
installed are skipped with a note.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _github import github_spec

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("SKTYPES_CORPUS_DIR") or ROOT.parent / "shared" / "corpus" / "openapi")
LARGEST = ["stripe", "kubernetes", "plaid", "twilio-api-v2010"]

_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
tool, spec, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
result = {"ok": False}
try:
    if tool == "sktypes":
        from sktypes_codegen import generate_plugin
        start = time.perf_counter()
        generate_plugin(spec, out, name="bench_pkg")
    elif tool == "datamodel-code-generator":
        from datamodel_code_generator import DataModelType, InputFileType, generate
        out.mkdir(parents=True, exist_ok=True)
        options = dict(input_file_type=InputFileType.OpenAPI, disable_timestamp=True,
                       output_model_type=DataModelType.PydanticV2BaseModel)
        start = time.perf_counter()
        try:
            generate(spec, output=out / "bench_models.py", **options)
        except Exception as exc:  # dotted schema names need a package, not a file
            if "output directory" not in str(exc):
                raise
            start = time.perf_counter()
            generate(spec, output=out / "bench_models", **options)
    elif tool == "openapi-python-client":
        import subprocess
        start = time.perf_counter()
        done = subprocess.run([sys.argv[4], "generate", "--path", str(spec), "--output-path",
                               str(out / "client"), "--overwrite"], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError((done.stderr or done.stdout).strip().splitlines()[-1][:200])
    result = {"ok": True, "seconds": time.perf_counter() - start}
except Exception as exc:
    result = {"ok": False, "error": f"{type(exc).__name__}: {str(exc)[:200]}"}
usage = [resource.getrusage(r).ru_maxrss for r in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
result["peak_mb"] = max(usage) / 1024  # openapi-python-client runs as a child process
print(json.dumps(result))
"""

_IMPORT = r"""
import sys, pathlib, importlib
out = pathlib.Path(sys.argv[1]); sys.path.insert(0, str(out))
if (out / "bench_pkg").is_dir():
    importlib.import_module("bench_pkg.plugin")
elif (out / "bench_models.py").is_file() or (out / "bench_models").is_dir():
    importlib.import_module("bench_models")
else:
    client = out / "client"; sys.path.insert(0, str(client))
    pkg = next(p.name for p in client.iterdir() if (p / "__init__.py").is_file())
    importlib.import_module(pkg)
"""


def _tools() -> dict[str, list[str]]:
    """The tools available here: name → extra argv for the child."""
    tools = {"sktypes": [""]}
    try:
        import datamodel_code_generator  # noqa: F401

        tools["datamodel-code-generator"] = [""]
    except ImportError:
        print("note: datamodel-code-generator is not installed; skipped")
    exe = shutil.which("openapi-python-client") or str(
        Path(sys.executable).parent / "openapi-python-client"
    )
    if Path(exe).is_file():
        tools["openapi-python-client"] = [exe]
    else:
        print(
            "note: openapi-python-client is not installed (pip install openapi-python-client); "
            "skipped"
        )
    return tools


_ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "SKTYPES_NO_CACHE": "1",
}


def _run(
    tool: str,
    extra: list[str],
    spec: Path,
    timeout: float,
    keep: Path | None = None,
    cache: Path | None = None,
) -> dict[str, Any]:
    """One generation in a fresh process; ``cache``: sktypes' cache directory (else none)."""
    out = keep or Path(tempfile.mkdtemp(prefix="bench_gen_"))
    env = (
        _ENV
        if cache is None
        else {**_ENV, "SKTYPES_NO_CACHE": "0", "SKTYPES_CACHE_DIR": str(cache)}
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, tool, str(spec), str(out), *extra],
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=ROOT,
            env=env,
        )
        lines = done.stdout.strip().splitlines()
        result: dict[str, Any] = (
            json.loads(lines[-1])
            if lines
            else {"ok": False, "error": done.stderr.strip().splitlines()[-1][:200]}
        )
        if result.get("ok"):
            imp = subprocess.run(
                [sys.executable, "-c", _IMPORT, str(out)],
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=ROOT,
            )
            result["importable"] = imp.returncode == 0
        return result
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"timeout after {timeout:.0f} s"}
    finally:
        if keep is None:
            shutil.rmtree(out, ignore_errors=True)


def _warm(spec: Path, repeat: int, timeout: float) -> dict[str, Any]:
    """sktypes with a warm cache: a fresh cache directory, one untimed run, then the best."""
    with tempfile.TemporaryDirectory(prefix="bench_cache_") as cache:
        primed = _run("sktypes", [""], spec, timeout, cache=Path(cache))
        if not primed.get("ok"):
            return primed
        runs = [_run("sktypes", [""], spec, timeout, cache=Path(cache)) for _ in range(repeat)]
    ok = [r for r in runs if r.get("ok")]
    return min(ok, key=lambda r: r["seconds"]) if ok else runs[0]


def _check_seconds(path: Path, repeat: int = 3) -> float:
    """Best wall time of ``sktypes check PATH`` in a fresh process (it must find nothing)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "sktypes", "check", "-q", str(path)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**_ENV, "SKTYPES_NO_CACHE": "0"},
        )
        took = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"sktypes check {path} failed: {done.stdout or done.stderr}")
        best = min(best, took)
    return best


def _target(label: str, value: float, goal: float, unit: str = "x") -> None:
    met = "met" if value <= goal else "NOT met"
    print(f"  {label}: {value:.2f}{unit} (target <= {goal:g}{unit}: {met})")


def check_timing(spec: Path, timeout: float) -> None:
    """``sktypes check`` of an unchanged generated package and of the unchanged spec."""
    with tempfile.TemporaryDirectory(prefix="bench_check_") as tmp:
        out = Path(tmp)
        copy = out / spec.name
        shutil.copyfile(spec, copy)
        made = _run("sktypes", [""], copy, timeout, keep=out)
        if not made.get("ok"):
            print(f"  check: generation failed ({made.get('error')})")
            return
        package = _check_seconds(out / "bench_pkg")
        alone = _check_seconds(copy)
    _target(f"check of the unchanged generated {spec.name} package", package, 1.0, " s")
    _target(f"check of the unchanged {spec.name}", alone, 1.0, " s")


def _manifest() -> list[dict[str, str]]:
    with (CORPUS / "MANIFEST.tsv").open() as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--github", default=None, help="GitHub's spec (default: npm, pinned)")
    parser.add_argument("--only", nargs="*", help="spec ids to measure (default: all large)")
    args = parser.parse_args()
    if not (CORPUS / "MANIFEST.tsv").is_file():
        print(f"note: corpus not found at {CORPUS}; nothing to measure")
        return
    rows = {r["id"]: r for r in _manifest()}
    tools = _tools()
    large = {i: CORPUS / rows[i]["file"] for i in (LARGEST[:2] if args.quick else LARGEST)}
    github = github_spec(args.github)
    if github is not None:
        large["github"] = github
    if args.only:
        large = {k: v for k, v in large.items() if k in args.only}
    print(f"\n{'spec':18} {'tool':26} {'time s':>8} {'peak MB':>8} {'import':>7} {'vs dmcg':>8}")
    targets: list[tuple[str, float, float, str]] = []
    for spec_id, spec in large.items():
        results = {}
        for tool, extra in tools.items():
            runs = [_run(tool, extra, spec, args.timeout) for _ in range(args.repeat)]
            ok = [r for r in runs if r.get("ok")]
            results[tool] = min(ok, key=lambda r: r["seconds"]) if ok else runs[0]
        results["sktypes (warm cache)"] = _warm(spec, args.repeat, args.timeout)
        base = results.get("datamodel-code-generator", {})
        for tool, r in results.items():
            if not r.get("ok"):
                print(
                    f"{spec_id:18} {tool:26} {'failed':>8} {r.get('peak_mb', 0):8.0f} "
                    f"{'-':>7} {'-':>8}  {r.get('error', '')[:80]}"
                )
                continue
            ratio = f"{r['seconds'] / base['seconds']:.2f}x" if base.get("ok") else "-"
            print(
                f"{spec_id:18} {tool:26} {r['seconds']:8.1f} {r['peak_mb']:8.0f} "
                f"{'yes' if r.get('importable') else 'no':>7} {ratio:>8}"
            )
        ours, opc = results.get("sktypes", {}), results.get("openapi-python-client", {})
        warm = results["sktypes (warm cache)"]
        if spec_id == "github" and ours.get("ok") and opc.get("ok"):
            targets.append(
                (
                    "GitHub: sktypes / openapi-python-client",
                    ours["seconds"] / opc["seconds"],
                    0.5,
                    "x",
                )
            )
            targets.append(("GitHub: sktypes peak memory", ours["peak_mb"], 300, " MB"))
            if warm.get("ok"):
                targets.append(
                    (
                        "GitHub, warm cache: sktypes / openapi-python-client",
                        warm["seconds"] / opc["seconds"],
                        0.5,
                        "x",
                    )
                )
        if spec_id == "stripe" and ours.get("ok") and base.get("ok"):
            targets.append(
                (
                    "Stripe: sktypes / datamodel-code-generator",
                    ours["seconds"] / base["seconds"],
                    0.5,
                    "x",
                )
            )
            if warm.get("ok"):
                targets.append(
                    (
                        "Stripe, warm cache: sktypes / datamodel-code-generator",
                        warm["seconds"] / base["seconds"],
                        0.5,
                        "x",
                    )
                )
    print("\ntargets (cold: the spec validated in the run; warm: its verdict read from the cache):")
    for label, value, goal, unit in targets:
        _target(label, value, goal, unit)
    if github is not None:
        check_timing(github, args.timeout)
    if args.quick:
        return
    print("\nsuccess on the corpus (generated / importable):")
    for tool, extra in tools.items():
        generated = importable = 0
        for row in rows.values():
            r = _run(tool, extra, CORPUS / row["file"], args.timeout)
            generated += bool(r.get("ok"))
            importable += bool(r.get("importable"))
        print(f"  {tool:26} {generated:3d} / {importable:3d} of {len(rows)} specs")


if __name__ == "__main__":
    main()
