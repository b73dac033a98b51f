"""Validation by a forked child gives the in-process run's results, exactly.

A big spec's validation runs in a forked child while the views are built and the code is
rendered (``sktypes.openapi._checking``). The comparisons run in a process of their own
(``tests.concurrent_run``): a pytest worker may run threads, and then nothing is forked.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from sktypes.openapi import _forked
from sktypes.openapi._forked import INLINE_ENV, fork_allowed
from tests.corpus_util import corpus_specs
from tests.test_openapi_errors import CASES
from tests.test_openapi_validator import _VALUES, _nodes, _petstore, _swagger, _v31
from tests.test_openapi_verdicts import INVALID, SPEC

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no os.fork")


def _run(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.concurrent_run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().rsplit(";", 1)[-1])
    return result


def _mutated(seed: int) -> dict[str, Any]:
    """A small spec with one to three random changes (the validator test's mutations)."""
    rng = random.Random(seed)
    spec = rng.choice([_petstore, _swagger, _v31])()
    values = list(_VALUES.elements) if hasattr(_VALUES, "elements") else [1, "x", {}]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice([p for p in _nodes(spec) if p])
        parent = spec
        for part in path[:-1]:
            parent = parent[part]
        action = rng.choice(["set", "delete", "add"])
        if action == "delete" and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == "add" and isinstance(parent, dict):
            parent[rng.choice(["type", "format", "x-n", "pattern", "default"])] = copy.deepcopy(
                rng.choice(values)
            )
        else:
            parent[path[-1]] = copy.deepcopy(rng.choice(values))
    return spec


def _ref_file_specs(folder: Path) -> list[Path]:
    """Specs whose error is in a ``$ref``'d file (named from the spec's folder)."""
    head = 'openapi: 3.0.3\ninfo: {title: T, version: "1"}\n'
    body = (
        "paths:\n  /a:\n    get:\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        "              schema: {$ref: 'schemas/pet.yaml'}\n"
    )
    (folder / "schemas").mkdir()
    (folder / "schemas" / "pet.yaml").write_text("type: object\nproperties:\n  n: {type: 1}\n")
    (folder / "ref_file.yaml").write_text(head + body)
    return [folder / "ref_file.yaml"]


def test_invalid_specs_fail_the_same_way_validated_by_a_child(tmp_path: Path) -> None:
    specs: list[Path] = []
    for name, text, _message, _always in CASES:
        (tmp_path / name).write_text(text)
        specs.append(tmp_path / name)
    (tmp_path / "verdicts_invalid.yaml").write_text(INVALID)
    (tmp_path / "verdicts_valid.yaml").write_text(SPEC)
    specs += [tmp_path / "verdicts_invalid.yaml", tmp_path / "verdicts_valid.yaml"]
    for seed in range(14):
        path = tmp_path / f"mutated_{seed}.json"
        path.write_text(json.dumps(_mutated(seed)))
        specs.append(path)
    sub = tmp_path / "multi"
    sub.mkdir()
    specs += _ref_file_specs(sub)
    found = _run("--render", *map(str, specs))
    assert found["differ"] == []
    assert found["forked"] >= len(specs)  # a child validated each (load and render, 2 ways)


def test_corpus_specs_load_the_same_validated_by_a_child() -> None:
    specs = [str(p) for _, p in corpus_specs(valid_only=False) if p.stat().st_size < 1 << 20]
    if not specs:
        pytest.skip("no corpus")
    found = _run(*specs)
    assert found["differ"] == []
    assert found["forked"] == 2 * len(specs)


def test_the_child_sends_its_result_and_leaves_nothing_behind(tmp_path: Path) -> None:
    marker = tmp_path / "atexit"
    done = subprocess.run(
        [sys.executable, "-m", "tests.concurrent_run", "--selftest", str(marker)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert done.stdout.count("unflushed;") == 1  # the children did not flush the buffer
    found = json.loads(done.stdout.split("unflushed;", 1)[1])
    assert found["result"] == {"answer": [42, "x"]}
    assert found["raised"] is None  # then the parent validates in the process
    assert found["died"] is None
    assert found["cancelled_in"] < 30
    assert found["atexit_in_child"] is False
    assert marker.read_text() == "atexit ran"  # once, by the parent


def test_nothing_is_forked_while_another_thread_runs() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not fork_allowed()
        assert _forked.run_forked(lambda: 1) is None
    finally:
        stop.set()
        thread.join()


def test_the_inline_env_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(INLINE_ENV, "1")
    assert not fork_allowed()
    assert _forked.run_forked(lambda: 1) is None


def test_without_fork_nothing_is_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr("os.fork")
    assert not fork_allowed()
