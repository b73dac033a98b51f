"""``sktypes check``: findings as ``path:place: reason``, exit codes, and a real pre-commit run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sktypes.check import check_paths
from sktypes_codegen import generate_plugin

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SPEC = ROOT / "schemas" / "examples" / "date_plugin.openapi.yaml"
CORPUS = ROOT.parent / "shared" / "corpus" / "openapi"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "sktypes"), "check", *args], capture_output=True, text=True, cwd=cwd
    )


def test_valid_files_pass() -> None:
    result = _run(
        str(SPEC),
        str(ROOT / "schemas" / "function-manual.schema.json"),
        str(ROOT / "tests" / "golden" / "manuals" / "date_weather.planner.json"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""


def test_bad_schema_and_manual_are_reported_with_pointer(tmp_path: Path) -> None:
    schema = tmp_path / "bad.schema.json"
    schema.write_text(
        json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 12})
    )
    manual = tmp_path / "manual.json"
    manual.write_text(json.dumps([{"name": "x", "parameters": {"type": "array"}}]))
    result = _run(str(schema), str(manual))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{schema}:1:61: /type: 12 is not valid under any of the given schemas",
        f"{manual}:1:31: /0/parameters/type: 'object' was expected",
    ]


def test_broken_spec_names_file(tmp_path: Path) -> None:
    spec = tmp_path / "api.yaml"
    spec.write_text("openapi: 3.0.0\ninfo: {title: x}\npaths: 12\n")
    findings = check_paths([str(spec)])
    assert findings and all(f.path == str(spec) for f in findings)


def test_prompt_template_configs_are_validated_and_parsed(tmp_path: Path) -> None:
    good = tmp_path / "greet.yaml"
    good.write_text("name: greet\ntemplate: 'Hello {{$name}}'\ntemplate_format: semantic-kernel\n")
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: broken\ntemplate: 'Hello {{p.f a=}}'\ntemplate_format: semantic-kernel\n")
    typo = tmp_path / "typo.yaml"
    typo.write_text("name: typo\ntemplate: 'Hi'\ntemplate_fromat: jinja2\n")
    assert check_paths([str(good)]) == []
    (broken,) = check_paths([str(bad)])
    assert broken.path == str(bad)
    assert broken.where == "template line 1, column 7"
    (unknown,) = check_paths([str(typo)])
    assert (unknown.where, unknown.line, unknown.column) == ("$.template_fromat", 3, 1)
    assert unknown.reason == "invalid prompt template config: Extra inputs are not permitted"


def test_stale_generated_package_is_flagged(tmp_path: Path) -> None:
    spec = tmp_path / "date.yaml"
    shutil.copy(SPEC, spec)
    package = generate_plugin(spec, tmp_path / "out", name="date_pkg")
    assert check_paths([str(package)]) == []
    # the recorded digests say which file differs (no line: nothing is generated again)
    (package / "plugin.py").write_text((package / "plugin.py").read_text() + "# edited\n")
    assert [f.reason for f in check_paths([str(package)])] == [
        "differs from a fresh generation: regenerate"
    ]
    edited = [str(package / "plugin.py"), str(package / "models.py")]
    assert [str(f) for f in check_paths(edited)] == [
        f"{package / 'plugin.py'}: differs from a fresh generation: regenerate"
    ]
    spec.write_text(spec.read_text() + "\n# changed\n")
    [finding] = check_paths([str(package)])
    assert finding.path == str(spec)
    assert f"changed since package {package} was generated from it" in finding.reason


@pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus not available")
def test_stale_package_split_by_tag_is_flagged(tmp_path: Path) -> None:
    spec = tmp_path / "uber.json"
    shutil.copy(CORPUS / "oai-v2.0-uber" / "uber.json", spec)
    package = generate_plugin(spec, tmp_path / "out", name="uber", split=True, sync=True)
    module = package / "operations" / "user.py"
    assert check_paths([str(package), str(module), str(package / "models" / "_shared.py")]) == []
    module.write_text(module.read_text() + "# edited\n")
    assert [str(f) for f in check_paths([str(module)])] == [
        f"{module}: differs from a fresh generation: regenerate"
    ]


def test_a_package_generated_without_validation_is_checked_the_same_way(tmp_path: Path) -> None:
    spec = tmp_path / "loose.yaml"
    spec.write_text(
        "openapi: 3.0.3\ninfo: {title: Loose}\npaths:\n  /x:\n    get:\n"
        "      operationId: getX\n      responses: {'204': {description: ok}}\n"
    )
    package = generate_plugin(spec, tmp_path / "out", name="loose", validate=False)
    assert "generated with --no-validate" in (package / "plugin.py").read_text()
    assert check_paths([str(package)]) == []
    (package / "plugin.py").write_text((package / "plugin.py").read_text() + "# edited\n")
    assert [f.reason for f in check_paths([str(package)])] == [
        "differs from a fresh generation: regenerate"
    ]


def test_no_paths_is_exit_2() -> None:
    result = _run()
    assert result.returncode == 2
    assert result.stderr.startswith("sktypes: error:")


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_pre_commit_try_repo_runs_the_hook(tmp_path: Path) -> None:
    """A real ``pre-commit try-repo`` against a hook repo carrying our hooks file.

    The hook repo uses ``language: system`` with this venv's ``sktypes`` so the test needs no
    network (``language: python`` would pip-install sktypes into a fresh environment).
    """
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    text = (
        (ROOT / ".pre-commit-hooks.yaml")
        .read_text()
        .replace("language: python", "language: system")
    )
    (hooks / ".pre-commit-hooks.yaml").write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    for repo in (hooks, work):
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "add", "."], cwd=hooks, check=True, env=env)
    subprocess.run(["git", "commit", "-qm", "hooks"], cwd=hooks, check=True, env=env)
    (work / "api.schema.json").write_text(json.dumps({"type": 12}))
    subprocess.run(["git", "add", "."], cwd=work, check=True, env=env)
    try_repo = [str(BIN / "pre-commit"), "try-repo", str(hooks), "sktypes-check", "--all-files"]
    failed = subprocess.run(try_repo, cwd=work, capture_output=True, text=True, env=env)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "api.schema.json:1:2: /type:" in failed.stdout
    (work / "api.schema.json").write_text(json.dumps({"type": "object"}))
    passed = subprocess.run(try_repo, cwd=work, capture_output=True, text=True, env=env)
    assert passed.returncode == 0, passed.stdout + passed.stderr
