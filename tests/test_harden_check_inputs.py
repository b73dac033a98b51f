"""Issue 23, findings 3 and 5: ``sktypes check`` reads only regular files inside the repository.

3. A committed ``sktypes.json`` listed what ``check`` read and hashed, with no bound:
   ``/dev/zero`` filled the memory, a FIFO blocked forever, ``~/.ssh/...`` was read. Now a
   recorded input (and a recorded ``ref_root``) must lie inside the repository, be a regular
   file and fit the one loader's limits; anything else is a finding, not a read.
5. In the tree itself: a package file committed as a symlink to ``/dev/zero`` gave a
   ``MemoryError``, a FIFO named ``*.json`` blocked ``check .`` forever. Now every file is
   ``lstat``-ed first: symlinks leading outside the tree or to something that is not a
   regular file, and files that are not regular (FIFOs, devices, sockets), are findings.

"The repository" is the git work tree holding the package; outside one, the working
directory when it holds the package, else the directory above the package's output folder.
Every ``check`` here runs as a subprocess with a 2 GiB address-space limit and a timeout: a
read of ``/dev/zero`` fails fast as a ``MemoryError``, a blocked read as a timeout.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from sktypes.check import run_check
from sktypes_codegen import generate_plugin
from tests.fuzz._guard import watching

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "schemas" / "examples" / "date_plugin.openapi.yaml"
SKTYPES = str(Path(sys.executable).parent / "sktypes")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def check(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``sktypes check ARGS`` (default ``.``) in ``repo``: 2 GiB of memory, 60 seconds."""
    return subprocess.run(
        [SKTYPES, "check", *(args or (".",))],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limited,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A git work tree: ``api/date.yaml`` and the package ``plugins/dates`` generated from it."""
    work = tmp_path / "repo"
    (work / "api").mkdir(parents=True)
    (work / ".git").mkdir()  # a work tree's marker is all check looks for
    shutil.copy(SPEC, work / "api" / "date.yaml")
    generate_plugin(work / "api" / "date.yaml", work / "plugins", name="dates")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.yaml").write_text("openapi: 3.0.3\n# CANARY-SECRET\n")
    assert check(work).returncode == 0, check(work).stdout
    return work


def _record(repo: Path, **changes: object) -> None:
    link = repo / "plugins" / "dates" / "sktypes.json"
    record = json.loads(link.read_text())
    for key, value in changes.items():
        if key == "inputs":
            record["inputs"].update(value)
        elif key == "ref_roots":
            record["options"]["ref_roots"] = value
        else:
            record[key] = value
    link.write_text(json.dumps(record))


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    lines = [line for line in done.stdout.splitlines() if not line.startswith("sktypes check:")]
    found = [line for line in lines if all(w in line for w in words)]
    assert found, done.stdout
    return found[0]


# --- 3. what a link record lists ------------------------------------------------------------


@pytest.mark.parametrize(
    ("recorded", "words"),
    [
        ("/dev/zero", ("/dev/zero", "outside the repository")),
        ("/dev/stdin", ("an input recorded in", "outside the repository")),
        ("../../../outside/secret.yaml", ("secret.yaml", "outside the repository")),
        (str(Path.home() / ".ssh" / "id_rsa"), ("id_rsa", "outside the repository")),
    ],
)
def test_a_recorded_input_outside_the_repository_is_a_finding_never_a_read(
    repo: Path, recorded: str, words: tuple[str, ...]
) -> None:
    _record(repo, inputs={recorded: "0" * 64})
    _one_line(check(repo), *words)
    with watching([repo.parent / "outside", Path("/dev")]):  # in-process: nothing opened
        cwd = Path.cwd()
        os.chdir(repo)
        try:
            report = run_check(["."])
        finally:
            os.chdir(cwd)
    assert any("outside the repository" in f.reason for f in report.findings)


def test_a_recorded_spec_outside_the_repository_is_a_finding(repo: Path) -> None:
    _record(repo, spec="../../../outside/secret.yaml")
    _one_line(check(repo), "secret.yaml", "outside the repository")


def test_a_recorded_ref_root_outside_the_repository_is_a_finding_and_not_honoured(
    repo: Path,
) -> None:
    _record(repo, ref_roots=["../../../outside"], inputs={"../../../outside/secret.yaml": "0"})
    out = check(repo)
    _one_line(out, "ref_root", "outside the repository")
    _one_line(out, "secret.yaml", "outside the repository")


def test_a_recorded_fifo_is_a_finding_and_never_blocks(repo: Path) -> None:
    os.mkfifo(repo / "api" / "pipe.yaml")
    _record(repo, inputs={"../../api/pipe.yaml": "0" * 64})
    _one_line(check(repo), "pipe.yaml", "not a regular file")


def test_a_recorded_input_past_the_size_limit_is_a_finding(repo: Path) -> None:
    big = repo / "api" / "big.yaml"
    with big.open("wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # sparse: 65 MiB of zeros
    _record(repo, inputs={"../../api/big.yaml": "0" * 64})
    _one_line(check(repo), "big.yaml", "limit")


def test_a_link_record_that_is_no_regular_file_is_a_finding(repo: Path) -> None:
    link = repo / "plugins" / "dates" / "sktypes.json"
    link.unlink()
    link.symlink_to("/dev/zero")
    _one_line(check(repo), "sktypes.json")
    link.unlink()
    os.mkfifo(link)
    _one_line(check(repo), "sktypes.json", "not a regular file")


# --- 5. what the tree holds -----------------------------------------------------------------


def test_a_package_file_that_is_a_symlink_to_a_device_is_a_finding(repo: Path) -> None:
    plugin = repo / "plugins" / "dates" / "plugin.py"
    plugin.unlink()
    plugin.symlink_to("/dev/zero")
    _one_line(check(repo), "plugin.py", "symlink")
    _one_line(check(repo, "plugins/dates/plugin.py"), "plugin.py", "symlink")


def test_a_fifo_in_the_tree_is_a_finding_and_never_blocks(repo: Path) -> None:
    os.mkfifo(repo / "api" / "notes.json")
    _one_line(check(repo), "notes.json", "not a regular file")
    _one_line(check(repo, "api/notes.json"), "notes.json", "not a regular file")


def test_a_socket_in_the_tree_is_a_finding(repo: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    path = repo / "api" / "s.yaml"
    try:
        server.bind(str(path))
        _one_line(check(repo), "s.yaml", "not a regular file")
    finally:
        server.close()


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("/dev/zero", ("spec.json", "symlink", "/dev/zero")),
        ("../../outside/secret.yaml", ("spec.json", "symlink", "outside")),
    ],
)
def test_a_symlink_out_of_the_tree_or_to_a_device_is_a_finding(
    repo: Path, target: str, words: tuple[str, ...]
) -> None:
    (repo / "api" / "spec.json").symlink_to(target)
    out = check(repo)
    _one_line(out, *words)
    assert "CANARY" not in out.stdout + out.stderr


def test_a_symlink_inside_the_tree_to_a_regular_file_is_followed(repo: Path) -> None:
    (repo / "api" / "alias.yaml").symlink_to("date.yaml")
    done = check(repo)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_link_to_a_changed_spec_still_names_it(repo: Path) -> None:
    spec = repo / "api" / "date.yaml"
    spec.write_text(spec.read_text() + "\n# changed\n")
    _one_line(check(repo), "date.yaml", "changed since package")


def test_a_symlink_belongs_to_the_repository_where_it_lies(tmp_path: Path) -> None:
    """Found by make fuzz (check_tree): the repository of a symlinked link record was decided
    from where it led (/proc/self/environ: a "regular" file), so it was read."""
    work, outside = tmp_path / "work", tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.json"
    secret.write_text('{"inputs": {}, "name": "x", "spec": "CANARY"}')
    (work / "api").mkdir(parents=True)
    (work / ".git").mkdir()
    shutil.copy(SPEC, work / "api" / "date.yaml")
    package = generate_plugin(work / "api" / "date.yaml", work / "plugins", name="dates")
    (package / "sktypes.json").unlink()
    (package / "sktypes.json").symlink_to(secret)
    cwd = Path.cwd()
    os.chdir(work)
    try:
        with watching([outside, Path("/proc")]):
            report = run_check(["api/date.yaml", "plugins/dates"])
    finally:
        os.chdir(cwd)
    assert any("sktypes.json" in f.path and "symlink" in f.reason for f in report.findings)
