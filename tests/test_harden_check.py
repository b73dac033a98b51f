"""Issue 13, items 6 and 9 (``sktypes check``): every file goes through the one loader.

Schema, manual and prompt files were read with ``yaml.safe_load``: a 421-byte alias bomb
hung the check and a 10,000-level YAML gave a traceback. Now each is one line naming the
file and the line, and the check fails without a traceback.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent

BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def _check(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "sktypes"), "check", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bomb.schema.yaml", "$schema: x\n" + BOMB, "alias bomb"),
        ("manual.yaml", BOMB, "alias bomb"),
        ("deep.yaml", "- " * 10_000 + "x\n", "nested deeper than 128 levels"),
        ("deep.json", "[" * 10_000 + "]" * 10_000, "nested deeper than 128 levels"),
        ("ctrl.yaml", "a: 1\nb: \x01\n", "unacceptable character #x0001"),
        ("big.json", '{"a": 1e400}', "has no JSON form"),
    ],
)
def test_check_reports_a_refused_file_in_one_line(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    start = time.monotonic()
    result = _check(path)
    assert time.monotonic() - start < 120
    assert "Traceback" not in result.stderr
    assert result.returncode != 0
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    assert lines[0].startswith(f"{path}:")
    assert message in lines[0]


def test_check_names_the_line_of_a_bad_character(tmp_path: Path) -> None:
    path = tmp_path / "ctrl.yaml"
    path.write_text("a: 1\nb: \x01\n")
    assert _check(path).stdout.startswith(f"{path}:2:4: ")


def test_a_non_utf8_module_in_a_generated_package_fails_the_check(tmp_path: Path) -> None:
    from sktypes_codegen import generate_plugin

    spec = Path(__file__).resolve().parents[1] / "schemas" / "examples" / "date_plugin.openapi.yaml"
    copy = tmp_path / "api.yaml"
    copy.write_bytes(spec.read_bytes())
    generate_plugin(copy, tmp_path / "out", name="dates")
    plugin = tmp_path / "out" / "dates" / "plugin.py"
    plugin.write_bytes(plugin.read_bytes() + b"\n# \xff\xfe not UTF-8\n")
    result = _check(tmp_path / "out" / "dates")
    assert "Traceback" not in result.stderr
    assert result.returncode == 1
    assert "plugin.py" in result.stdout
