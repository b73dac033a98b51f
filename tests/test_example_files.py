"""``sktypes example``: the guides' example files, shipped in the wheel and written out on demand.

The shipped files (``sktypes/_example_files``) are copies of the repository's ``examples/``
and ``schemas/examples/`` files the guides name; they must stay equal to them.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from sktypes.cli._example import example_files

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = {
    "examples/__init__.py",
    "examples/date_weather.py",
    "examples/plans/date_weather.plan.json",
    "examples/plans/date_weather.wrong.plan.json",
    "schemas/examples/date_plugin.openapi.yaml",
    "schemas/examples/weather_plugin.openapi.yaml",
}


def _sktypes(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sktypes", *args], cwd=cwd, capture_output=True, text=True
    )


def test_the_shipped_examples_are_the_repositorys() -> None:
    files = example_files()
    assert set(files) == EXPECTED
    for name, content in files.items():
        assert content == (ROOT / name).read_bytes(), (
            f"sktypes/_example_files/{name} differs from {name}: "
            f"cp {name} sktypes/_example_files/{name}"
        )


def test_example_writes_the_files_and_says_where(tmp_path: Path) -> None:
    done = _sktypes("example", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "sktypes example: 6 files in examples/ and schemas/examples/\n"
    for name, content in example_files().items():
        assert (tmp_path / name).read_bytes() == content
    again = _sktypes("example", "sub", cwd=tmp_path)
    assert again.stdout == "sktypes example: 6 files in sub/examples/ and sub/schemas/examples/\n"
    mode = stat.S_IMODE((tmp_path / "sub" / "examples").stat().st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o777 & ~umask


def test_example_runs_again_but_keeps_a_changed_file(tmp_path: Path) -> None:
    assert _sktypes("example", cwd=tmp_path).returncode == 0
    assert _sktypes("example", cwd=tmp_path).returncode == 0  # same content: nothing to do
    edited = tmp_path / "examples" / "date_weather.py"
    edited.write_text("# mine\n")
    refused = _sktypes("example", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == (
        "sktypes: error: examples/date_weather.py: exists and differs from the example; "
        "pass --force to overwrite\n"
    )
    assert edited.read_text() == "# mine\n"
    forced = _sktypes("example", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert edited.read_bytes() == example_files()["examples/date_weather.py"]
