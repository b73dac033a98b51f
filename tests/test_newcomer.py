"""The newcomer's path: the built wheel in a clean venv, each guide followed from an empty folder.

Nothing of the repository is importable or lying around: the wheel (with the extras the
guides install, ``mcp`` and ``tokens``, and the lock's runtime pins) is installed into a fresh
venv, and each page's code and commands run (:mod:`tests.docs_examples` with
``SKTYPES_DOCS_OUTSIDE=1``) in an empty temporary folder. Getting started runs first from
nothing at all (it writes the example files itself with ``sktypes example``); every other
guide starts in a folder where ``sktypes example`` has run, as getting started tells the
reader to do.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.wheel_util import ROOT, build_dist, clean_clone, clean_env, venv_with, wheel

pytestmark = pytest.mark.xdist_group("packaging")  # the wheel is built once per worker

GETTING_STARTED = "docs/getting-started.md"
GUIDES = (
    "README.md",
    "docs/index.md",
    "docs/concepts/views.md",
    "docs/concepts/providers.md",
    "docs/concepts/dialects.md",
    "docs/concepts/null-vs-absent.md",
    "docs/concepts/schema-model.md",
    "docs/openapi.md",
    "docs/generate.md",
    "docs/hydration.md",
    "docs/content.md",
    "docs/kernel.md",
    "docs/plans.md",
    "docs/templates.md",
    "docs/mcp.md",
    "docs/manuals.md",
    "docs/workflow.md",
    "docs/security.md",
    "docs/reference/errors.md",
)
"""The pages a user follows. Left out: development.md, benchmarks.md and conformance.md
(about working on the repository itself), remote-client.md (its examples run the
repository's test server), the integrations (each runs in its framework's venv:
``make integration-<framework>``)."""


@pytest.fixture(scope="module")
def venv() -> Path:
    return venv_with("[mcp,tokens]")


def _run_page(venv: Path, page: str, folder: Path) -> dict[int, dict[str, str]]:
    env = clean_env() | {"SKTYPES_DOCS_OUTSIDE": "1", "SKTYPES_NO_CACHE": "1"}
    completed = subprocess.run(
        [str(venv / "bin" / "python"), str(ROOT / "tests" / "docs_examples.py"), "page", page],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=1200,
        check=False,
    )
    lines = completed.stdout.splitlines()
    assert completed.returncode == 0 and lines, completed.stdout[-4000:] + completed.stderr[-4000:]
    return {item["line"]: item for item in json.loads(lines[-1])}


def _failures(page: str, results: dict[int, dict[str, str]]) -> list[str]:
    return [
        f"{page}:{line}: {result['message']}"
        for line, result in sorted(results.items())
        if result["status"] == "failed"
    ]


def test_getting_started_runs_from_an_empty_folder(venv: Path, tmp_path: Path) -> None:
    results = _run_page(venv, GETTING_STARTED, tmp_path)
    assert results, "getting started runs nothing"
    assert _failures(GETTING_STARTED, results) == []
    assert (tmp_path / "examples" / "date_weather.py").is_file()  # written by `sktypes example`


@pytest.mark.parametrize("page", GUIDES)
def test_each_guide_runs_outside_the_repository(venv: Path, tmp_path: Path, page: str) -> None:
    example = subprocess.run(
        [str(venv / "bin" / "sktypes"), "example"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=clean_env(),
        check=False,
    )
    assert example.returncode == 0, example.stdout + example.stderr
    assert _failures(page, _run_page(venv, page, tmp_path)) == []


def test_every_file_a_guide_names_is_shipped_or_written() -> None:
    from sktypes.cli._example import example_files

    shipped = set(example_files())
    named: set[str] = set()
    for page in (GETTING_STARTED, *GUIDES):
        text = (ROOT / page).read_text()
        for prefix in ("examples/", "schemas/examples/"):
            start = 0
            while (start := text.find(prefix, start)) != -1:
                end = start
                while end < len(text) and (text[end].isalnum() or text[end] in "._/-"):
                    end += 1
                name = text[start:end].rstrip(".")
                if start == 0 or text[start - 1] not in "/_":  # not inside another path
                    named.add(name)
                start = end
    files = {n for n in named if Path(n).suffix in {".py", ".json", ".yaml"}}
    assert files, "no example file named"
    assert files <= shipped, sorted(files - shipped)


def test_the_documented_install_forms_resolve(venv: Path) -> None:
    """A built wheel, a clone's folder and a git URL, each with an extra (dry runs)."""
    forms = [
        f"{wheel(build_dist())}[mcp]",
        f"{clean_clone()}[mcp]",  # a clone's folder (a copy: pip writes its metadata there)
        f"sktypes[mcp] @ git+file://localhost{ROOT}",  # as getting started writes it
    ]
    for form in forms:
        dry_run = ["--dry-run", "--quiet", "--ignore-installed", "--report", "-"]
        resolved = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", *dry_run, form],
            capture_output=True,
            text=True,
            env=clean_env(),
            check=False,
        )
        shown = resolved.stdout[-2000:] + resolved.stderr[-2000:]
        assert resolved.returncode == 0, f"{form}\n{shown}"
        report = json.loads(resolved.stdout)
        names = {item["metadata"]["name"].lower() for item in report["install"]}
        assert {"sktypes", "mcp"} <= names, (form, sorted(names))
