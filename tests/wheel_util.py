"""The built distribution and a clean venv holding the wheel, shared by the tests that use them.

The wheel and sdist are built with ``python -m build`` (an isolated build, as a user's pip
does it) from a copy of the tracked files, as a fresh clone holds them; a venv gets the wheel
with the committed runtime pins (``-c lock/requirements-run.txt``), as ``make run`` installs
it. Both are made once per test process (the tests using them share the ``packaging`` xdist
group, so one worker builds once).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_BUILT: dict[str, Path] = {}


def _scratch(name: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix=f"sktypes-{name}-"))
    atexit.register(shutil.rmtree, path, True)
    return path


def build_dist() -> Path:
    """The folder holding the built sdist and wheel (built on first use)."""
    if "dist" in _BUILT:
        return _BUILT["dist"]
    out = _scratch("dist")
    src = _scratch("src") / "sktypes"
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (t.decode() for t in tracked)):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    _BUILT["dist"] = out
    _BUILT["src"] = src
    return out


def clean_clone() -> Path:
    """The copy of the tracked files the distribution was built from (a fresh clone's folder)."""
    build_dist()
    return _BUILT["src"]


def wheel(dist: Path) -> Path:
    """The wheel in ``dist``."""
    (found,) = dist.glob("sktypes-*.whl")
    return found


def pip(env: Path) -> list[str]:
    """``pip install --quiet`` of the venv ``env``."""
    return [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet"]


def venv_with(extras: str = "") -> Path:
    """A clean venv holding the wheel (with ``extras``, e.g. ``"[mcp]"``) and the lock's pins."""
    key = f"venv{extras}"
    if key in _BUILT:
        return _BUILT[key]
    env = _scratch("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    lock = ROOT / "lock" / "requirements-run.txt"
    installed = subprocess.run(
        [*pip(env), "-c", str(lock), f"{wheel(build_dist())}{extras}"],
        capture_output=True,
        text=True,
        env=clean_env(),  # nothing of this test run may look installed already
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    _BUILT[key] = env
    return env


def clean_env() -> dict[str, str]:
    """The environment without this test run's venv or import path."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
