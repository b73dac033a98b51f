"""Issue 29 item 3: what sktypes writes follows the user's umask.

The generated package's folder was created with mode 0700 whatever the umask (the atomic
write's temporary directory kept ``mkdtemp``'s mode through the rename), and ``-o`` files
0600 (``mkstemp``): another user, or a container running as someone else, could not import
or read them.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sktypes._atomic import temporary_directory, write_atomic

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "schemas" / "examples" / "weather_plugin.openapi.yaml"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _run(umask: int, *args: str, cwd: Path) -> None:
    done = subprocess.run(
        [str(BIN / "sktypes"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: os.umask(umask),  # the child's umask only
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_a_generated_package_and_its_files_follow_the_umask(tmp_path: Path, umask: int) -> None:
    _run(umask, "generate", str(SPEC), "-o", "plugins", "--name", "weather", cwd=tmp_path)
    package = tmp_path / "plugins" / "weather"
    assert _mode(package) == 0o777 & ~umask
    assert _mode(tmp_path / "plugins") == 0o777 & ~umask
    files = [p for p in package.rglob("*") if p.is_file()]
    assert files
    assert {_mode(p) for p in files} == {0o666 & ~umask}
    assert {_mode(p) for p in package.rglob("*") if p.is_dir()} <= {0o777 & ~umask}
    # regenerating (the swap over an existing package) keeps to the umask too
    _run(umask, "generate", str(SPEC), "-o", "plugins", "--name", "weather", cwd=tmp_path)
    assert _mode(package) == 0o777 & ~umask


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_an_output_file_follows_the_umask(tmp_path: Path, umask: int) -> None:
    _run(umask, "manual", str(SPEC), "-o", "manual.json", cwd=tmp_path)
    assert _mode(tmp_path / "manual.json") == 0o666 & ~umask


def test_the_atomic_helpers_leave_nothing_behind(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b.txt"
    write_atomic(target, "one")
    write_atomic(target, b"two")
    assert target.read_text() == "two"
    assert sorted(p.name for p in target.parent.iterdir()) == ["b.txt"]
    made = temporary_directory(tmp_path, ".x.")
    assert made.is_dir() and made.name.startswith(".x.") and not any(made.iterdir())
