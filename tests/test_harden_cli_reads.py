"""Issue 23, finding 6 (the rest of it): every file a command reads has the one loader's bounds.

``sktypes plan check FILE``, ``plan run FILE``, ``hydrate TARGET FILE`` (and stdin) and the
``pyproject.toml`` every command reads read their files whole: ``/dev/zero`` grew without end
(a ``MemoryError`` traceback under a limit). Now they are read by the one loader's reader,
within its byte limit (hydration's ``max_size`` for model output): one line, exit 2. The
output of ``generate --check`` is compared without reading more than the expected bytes.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKTYPES = str(Path(sys.executable).parent / "sktypes")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    source = open(stdin, "rb") if stdin else subprocess.DEVNULL  # noqa: SIM115
    try:
        return subprocess.run(
            [SKTYPES, *args],
            cwd=cwd,
            stdin=source,
            capture_output=True,
            text=True,
            timeout=60,
            preexec_fn=_limited,
        )
    finally:
        if stdin:
            source.close()  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "args",
    [
        ("plan", "check", "/dev/zero", "--views", "examples/date_weather.py"),
        ("plan", "run", "/dev/zero", "--plugins", "examples/date_weather.py"),
        ("hydrate", "examples.date_weather:DatePluginSimpleComplex", "/dev/zero"),
    ],
    ids=["plan-check", "plan-run", "hydrate"],
)
def test_a_device_given_to_a_command_is_refused_in_one_line(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "/dev/zero" in lines[0] and "limit" in lines[0], lines


def test_hydrate_reads_no_more_of_stdin_than_it_may_hydrate() -> None:
    done = run("hydrate", "examples.date_weather:DatePluginSimpleComplex", "-", stdin="/dev/zero")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "larger than 16777216 bytes" in done.stderr


def test_a_pyproject_that_never_ends_is_refused_in_one_line(tmp_path: Path) -> None:
    with (tmp_path / "pyproject.toml").open("wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # sparse: 65 MiB of zeros
    (tmp_path / "api.yaml").write_text(
        (ROOT / "schemas/examples/date_plugin.openapi.yaml").read_text()
    )
    done = run("check", ".", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "pyproject.toml" in done.stderr
    assert "limit" in done.stderr


def test_generate_check_compares_without_reading_a_device(tmp_path: Path) -> None:
    spec = ROOT / "schemas" / "examples" / "date_plugin.openapi.yaml"
    assert run("generate", str(spec), "-o", str(tmp_path), "--name", "dates").returncode == 0
    plugin = tmp_path / "dates" / "plugin.py"
    plugin.unlink()
    os.symlink("/dev/zero", plugin)
    done = run("generate", str(spec), "-o", str(tmp_path), "--name", "dates", "--check")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "plugin.py" in done.stdout
