"""The shipped pre-commit hook, run by the real ``pre-commit`` in a temporary git repository.

The hook repository is this checkout (its working tree, committed into a temporary repo so
uncommitted work is what runs), installed by pre-commit itself (``language: python``: a
fresh virtualenv and ``pip install`` of the checkout, as a user's machine does). The
repository under test holds two specs both named ``openapi.yaml``, one split across files,
and a package generated from each. pre-commit passes only the staged files, so a spec-only
change must still find the package generated from it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.workflow_util import make_repo

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.xdist_group("pre-commit"),
]


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    return {
        **env,
        "PATH": f"{BIN}{os.pathsep}{env['PATH']}",
        "PRE_COMMIT_HOME": str(tmp / "pre-commit-home"),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def _git(cwd: Path, env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _hook_repo(tmp: Path, env: dict[str, str]) -> tuple[Path, str]:
    """This checkout's working tree (tracked and new files) committed into a fresh repo."""
    hooks = tmp / "hooks"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (n.decode() for n in listed)):
        if (ROOT / name).is_file() and not name.startswith("tests/golden/"):
            (hooks / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, hooks / name)
    _git(hooks, env, "init", "-q")
    _git(hooks, env, "add", ".")
    _git(hooks, env, "commit", "-qm", "checkout")
    return hooks, _git(hooks, env, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("pre-commit")
    env = _env(tmp)
    hooks, rev = _hook_repo(tmp, env)
    work = make_repo(tmp / "work")
    for version in ("v1", "v2"):
        generated = subprocess.run(
            [BIN / "sktypes", "generate", f"api/{version}/openapi.yaml", "-o", "plugins",
             "--name", f"pets_{version}"],
            cwd=work, env=env, capture_output=True, text=True,
        )  # fmt: skip
        assert generated.returncode == 0, generated.stderr
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks}\n  rev: {rev}\n  hooks:\n  - id: sktypes-check\n"
    )
    _git(work, env, "init", "-q")
    _git(work, env, "add", ".")
    _git(work, env, "commit", "-qm", "generated")
    return work, env


def _pre_commit(work: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "pre-commit", "run", *args], cwd=work, env=env, capture_output=True, text=True
    )


def _sktypes_check(work: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "sktypes", "check", "."], cwd=work, env=env, capture_output=True, text=True
    )


def _change(work: Path, env: dict[str, str], name: str, old: str, new: str) -> None:
    path = work / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    _git(work, env, "add", name)


def _reset(work: Path, env: dict[str, str]) -> None:
    _git(work, env, "reset", "-q", "--hard")


def test_clean_repository_passes(work: tuple[Path, dict[str, str]]) -> None:
    repo, env = work
    run = _pre_commit(repo, env, "--all-files")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "sktypes check" in run.stdout and "Passed" in run.stdout
    assert _sktypes_check(repo, env).returncode == 0


def test_a_spec_only_change_fails_naming_the_right_package(
    work: tuple[Path, dict[str, str]],
) -> None:
    repo, env = work
    _change(repo, env, "api/v2/openapi.yaml", "listPets", "listAllPets")
    try:
        run = _pre_commit(repo, env)  # only the staged spec is passed to the hook
        assert run.returncode == 1, run.stdout + run.stderr
        assert "api/v2/openapi.yaml: changed since package plugins/pets_v2" in run.stdout
        assert "pets_v1" not in run.stdout
        assert _sktypes_check(repo, env).returncode == 1
    finally:
        _reset(repo, env)


def test_a_change_in_a_refd_file_fails_naming_it(work: tuple[Path, dict[str, str]]) -> None:
    repo, env = work
    _change(repo, env, "api/v1/schemas/common.yaml", "type: string", "type: integer")
    try:
        run = _pre_commit(repo, env)
        assert run.returncode == 1, run.stdout + run.stderr
        assert "api/v1/schemas/common.yaml: changed since package plugins/pets_v1" in run.stdout
        assert _sktypes_check(repo, env).returncode == 1
    finally:
        _reset(repo, env)


def test_a_hand_edit_fails(work: tuple[Path, dict[str, str]]) -> None:
    repo, env = work
    _change(repo, env, "plugins/pets_v1/plugin.py", '"""The ', '"""Edited: the ')
    try:
        run = _pre_commit(repo, env)
        assert run.returncode == 1, run.stdout + run.stderr
        # the record's digests name the file; no line (nothing is generated again to find it)
        assert "plugins/pets_v1/plugin.py: differs from a fresh generation" in run.stdout
        checked = _sktypes_check(repo, env)
        assert checked.returncode == 1
        assert "plugins/pets_v1/plugin.py: differs" in checked.stdout
    finally:
        _reset(repo, env)


def _documented_local_config() -> str:
    """The ``repo: local`` block of docs/workflow.md, as a reader copies it."""
    text = (ROOT / "docs" / "workflow.md").read_text()
    start = text.index("```yaml\n# .pre-commit-config.yaml\nrepos:\n  - repo: local")
    return text[start + len("```yaml\n") : text.index("```", start + 3)]


def test_the_documented_local_hook_works_as_written(tmp_path: Path) -> None:
    env = _env(tmp_path)
    repo = tmp_path / "project"
    repo.mkdir()
    (repo / ".pre-commit-config.yaml").write_text(_documented_local_config())
    (repo / "tools.manual.json").write_text('[{"name": "x", "parameters": 1}]\n')
    _git(repo, env, "init", "-q")
    _git(repo, env, "add", ".")
    failed = _pre_commit(repo, env, "--all-files")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "tools.manual.json:1:" in failed.stdout and "/0/parameters" in failed.stdout
    (repo / "tools.manual.json").write_text(
        '[{"name": "x", "description": "d", "parameters": {"type": "object"}}]\n'
    )
    _git(repo, env, "add", ".")
    passed = _pre_commit(repo, env, "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "sktypes check" in passed.stdout and "Passed" in passed.stdout
