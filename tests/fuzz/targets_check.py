"""``sktypes check`` over a hostile tree (issue 23, findings 3 and 5): ``check_tree``.

Each input is a list of changes to a small repository (a spec and the package generated from
it): files replaced by symlinks (to devices, ``/proc``, files and folders outside, missing
targets, loops) or FIFOs, and link records listing hostile inputs, specs and ``ref_roots``.
``check .`` then runs in the repository, watched: it must end within the time limit (a FIFO
never blocks it), open nothing outside the repository or under ``/dev``, ``/proc``, ``/etc``,
``~/.ssh`` (audit hooks), raise nothing but an ``SktypesError``, and report every hostile
entry it meets as a finding naming it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from sktypes.check import run_check
from sktypes.errors import SktypesError
from sktypes_codegen import generate_plugin
from tests.fuzz._guard import watching
from tests.fuzz._inputs import mutated
from tests.fuzz._registry import Finding, target
from tests.fuzz.targets_documents import SYSTEM_DIRS

_ROOT = Path(tempfile.mkdtemp(prefix="sktypes-fuzz-check-"))
_TEMPLATE = _ROOT / "template"
_OUTSIDE = _ROOT / "outside"
_SPEC = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "date_plugin.openapi.yaml"


def _template() -> None:
    (_TEMPLATE / "api").mkdir(parents=True)
    (_TEMPLATE / ".git").mkdir()
    shutil.copy(_SPEC, _TEMPLATE / "api" / "date.yaml")
    generate_plugin(_TEMPLATE / "api" / "date.yaml", _TEMPLATE / "plugins", name="dates")
    _OUTSIDE.mkdir()
    (_OUTSIDE / "secret.json").write_text('{"$schema": "x", "description": "CANARY-SECRET"}')


_template()

PLACES = [
    "api/x.json", "api/date.yaml", "api/notes.yml", "plugins/dates/plugin.py",
    "plugins/dates/sktypes.json", "plugins/dates/models.py", "plugins/dates/__init__.py",
    "plugins/dates/extra.json", "api/sub", "top.json",
]  # fmt: skip
TARGETS = [
    "/dev/zero", "/dev/urandom", "/dev/stdin", "/proc/self/environ", "/etc/passwd", "/",
    "/etc", str(_OUTSIDE / "secret.json"), "../outside/secret.json",
    "../../outside/secret.json", "date.yaml", "../api/date.yaml", "missing.json", "LOOP",
    str(_OUTSIDE),
]  # fmt: skip
RECORDED = [
    "/dev/zero", "/dev/stdin", "/proc/self/environ", "/etc/passwd", "../../../outside/secret.json",
    str(_OUTSIDE / "secret.json"), "../../api/date.yaml", "../../api/x.json", "../../api",
    "~/.ssh/id_rsa", "", ".", "../../../..",
]  # fmt: skip
_op = st.one_of(
    st.tuples(st.just("symlink"), st.sampled_from(PLACES), st.sampled_from(TARGETS)),
    st.tuples(st.just("fifo"), st.sampled_from(PLACES), st.just("")),
    st.tuples(
        st.sampled_from(["input", "spec", "ref_root"]), st.just(""), st.sampled_from(RECORDED)
    ),
)
_ops = st.lists(_op, max_size=4).map(lambda ops: json.dumps(ops).encode())


def _apply(repo: Path, op: Any) -> tuple[str, bool] | None:
    """Apply one change; ``(place, hostile)`` for a file that check must report when hostile."""
    if not (isinstance(op, list) and len(op) == 3 and all(isinstance(x, str) for x in op)):
        return None
    kind, place, value = op
    if kind in ("input", "spec", "ref_root"):
        record = repo / "plugins" / "dates" / "sktypes.json"
        if record.is_symlink() or not record.is_file():
            return None  # another change replaced it (reading a FIFO would block here)
        try:
            data = json.loads(record.read_text())
        except (OSError, ValueError):
            return None  # no longer a regular file: another change replaced it
        if kind == "input":
            data["inputs"][value] = "0" * 64
        elif kind == "spec":
            data["spec"] = value
        else:
            data.setdefault("options", {})["ref_roots"] = [value]
        record.write_text(json.dumps(data))
        return None
    if place not in PLACES or kind not in ("fifo", "symlink") or (kind == "symlink" and not value):
        return None  # a mutated operation the harness cannot apply (a symlink to nothing)
    path = repo / place
    if os.path.lexists(path):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
        return place, True
    if value == "LOOP":
        os.symlink(path.name, path)
        return place, True
    os.symlink(value, path)
    resolved = os.path.realpath(path)
    inside = resolved.startswith(str(repo.resolve()) + os.sep)
    return place, not (inside and os.path.isfile(resolved) and path.name != "sub")


_CHECK_SEEDS = (  # found by make fuzz: a symlink's repository was decided by its target
    b'[["symlink", "plugins/dates/sktypes.json", "/proc/self/environ"]]',
    b'[["symlink", "api/date.yaml", "LOOP"]]',
    b'[["fifo", "plugins/dates/sktypes.json", ""], ["fifo", "api/x.json", ""]]',
    b'[["symlink", "plugins/dates/extra.json", "/"]]',
    b'[["input", "", "/dev/zero"], ["ref_root", "", "../../../.."]]',
    # the harness's own error (an unknown kind became a symlink to ''), found by make fuzz
    b'[["fifgo", "plugins/dates/extra.json", ""], ["ref_root", "", "/dev/stdin"], '
    b'["fifo", "plugins/dates/sktypes.json", ""], ["fifo", "plugins/dates/plugin.py", ""]]',
)


@target("check_tree", _ops | mutated(_ops), seeds=_CHECK_SEEDS, timeout=30.0)
def check_tree(data: bytes) -> None:
    """A repository with symlinks, FIFOs and hostile link records: findings, never reads."""
    try:
        ops = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return
    if not isinstance(ops, list):
        return
    repo = Path(tempfile.mkdtemp(dir=_ROOT)) / "repo"
    shutil.copytree(_TEMPLATE, repo, symlinks=True)
    hostile = {}
    for op in ops[:6]:
        placed = _apply(repo, op)
        if placed is not None:
            hostile[placed[0]] = placed[1]
    cwd = Path.cwd()
    os.chdir(repo)
    try:
        with watching([_OUTSIDE, *SYSTEM_DIRS]):
            try:
                report = run_check(["."])
            except SktypesError:
                return
    finally:
        os.chdir(cwd)
        shutil.rmtree(repo.parent, ignore_errors=True)
    text = "\n".join(str(f) for f in report.findings)
    if "CANARY" in text:
        raise Finding("a file outside the repository was read into a finding")
    for place, bad in hostile.items():
        if bad and place != "api/sub" and place not in text:
            raise Finding(f"{place} ({'a FIFO or a bad symlink'}) not reported: {text!r}")


__all__ = ["check_tree"]
