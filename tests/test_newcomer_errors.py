"""Issue 29 items 6 and 8: errors that say what the input is, and output at the right times."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sktypes import _install

SPEC_WITHOUT_PATHS = 'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\n'
NOT_A_DOCUMENT = (
    "not an OpenAPI document (no 'openapi' or 'swagger' field) nor a tool list "
    "(a JSON array of tools, or an object with 'tools')"
)


def _sktypes(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sktypes", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "100"},
    )


def _error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_a_file_of_another_kind_is_not_an_openapi_document(tmp_path: Path) -> None:
    (tmp_path / "docker-compose.yml").write_text("services:\n  web:\n    image: nginx\n")
    (tmp_path / "empty.json").write_text("")
    assert _error(_sktypes("manual", "docker-compose.yml", cwd=tmp_path)) == (
        f"sktypes: error: docker-compose.yml: {NOT_A_DOCUMENT}\n"
    )
    assert _error(_sktypes("manual", "empty.json", cwd=tmp_path)) == (
        f"sktypes: error: empty.json: an empty document: {NOT_A_DOCUMENT}\n"
    )


def test_a_single_tool_object_is_still_read(tmp_path: Path) -> None:
    tool = {"name": "f", "description": "d", "parameters": {"type": "object"}}
    (tmp_path / "tool.json").write_text(json.dumps(tool))
    done = _sktypes("manual", "tool.json", "--format", "planner", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["name"] == "f"


def test_a_folder_is_not_a_target(tmp_path: Path) -> None:
    error = _error(_sktypes("manual", ".", cwd=tmp_path))
    assert error.startswith("sktypes: error: .: a folder, not a target: name a Python file")
    assert "TypeError" not in error


def test_a_module_without_decorators_suggests_naming_a_function(tmp_path: Path) -> None:
    (tmp_path / "plain.py").write_text("def f(x: int) -> int:\n    return x\n")
    assert _error(_sktypes("manual", "plain.py", cwd=tmp_path)) == (
        "sktypes: error: plain.py: no @kernel_function found; name a plain function to read it "
        "anyway: plain.py:FUNCTION\n"
    )
    named = _sktypes("manual", "plain.py:f", "--format", "planner", cwd=tmp_path)
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)[0]["parameters"]["required"] == ["x"]


def test_serve_on_a_spec_without_operations_does_not_blame_a_filter(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    (tmp_path / "api.yaml").write_text(SPEC_WITHOUT_PATHS)
    assert _error(_sktypes("serve", "api.yaml", cwd=tmp_path)) == (
        "sktypes: error: nothing to serve: no functions (no operations) in api.yaml\n"
    )


def test_generate_warns_when_the_package_has_no_functions(tmp_path: Path) -> None:
    (tmp_path / "api.yaml").write_text(SPEC_WITHOUT_PATHS)
    done = _sktypes("generate", "api.yaml", "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ("warning: api.yaml: no operations: the package has no functions\n")
    for command in ("manual", "views"):
        listed = _sktypes(command, "api.yaml", cwd=tmp_path)
        assert listed.returncode == 0 and listed.stdout.strip() == "[]", listed.stderr
        assert listed.stderr == "warning: api.yaml: no operations: there are no functions to list\n"


def test_manual_and_views_say_what_they_wrote(tmp_path: Path) -> None:
    (tmp_path / "tool.json").write_text(json.dumps([{"name": "f", "parameters": {}}]))
    done = _sktypes("manual", "tool.json", "-o", "m.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr == "wrote m.json (planner manual of 1 function)\n"
    views = _sktypes("views", "tool.json", "-o", "v.json", cwd=tmp_path)
    assert views.stderr == "wrote v.json (1 view)\n"
    assert json.loads((tmp_path / "v.json").read_text())[0]["name"] == "f"


def test_help_texts_are_whole_and_name_no_repository_path(tmp_path: Path) -> None:
    plan = _sktypes("plan", "--help", cwd=tmp_path).stdout
    commands = plan.split("Commands:")[1]
    assert "..." not in commands  # click cuts a long first line of a command's help short
    assert "Check a plan against the functions of targets." in commands
    serve = _sktypes("serve", "--help", cwd=tmp_path).stdout
    assert "docs/" not in serve
    include = {
        command: re.search(
            r"\n  --include PATTERN(.*?)\n  --exclude",
            _sktypes(command, "--help", cwd=tmp_path).stdout,
            re.S,
        )
        for command in ("manual", "serve")
    }
    assert include["manual"] is not None and include["serve"] is not None
    assert include["manual"][1] == include["serve"][1]


class _Dist:
    version = "0.1.0"

    def __init__(self, direct_url: dict[str, Any] | None) -> None:
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        assert name == "direct_url.json"
        return None if self.direct_url is None else json.dumps(self.direct_url)


@pytest.mark.parametrize(
    ("direct_url", "hint"),
    [
        (
            {"url": "file:///home/u/dist/sktypes-0.1.0-py3-none-any.whl", "archive_info": {}},
            "pip install '/home/u/dist/sktypes-0.1.0-py3-none-any.whl[mcp]'",
        ),
        ({"url": "file:///home/u/sktypes", "dir_info": {}}, "pip install '/home/u/sktypes[mcp]'"),
        (
            {"url": "https://example.com/sk.git", "vcs_info": {"vcs": "git", "commit_id": "ab"}},
            "pip install 'sktypes[mcp] @ git+https://example.com/sk.git'",
        ),
    ],
)
def test_the_install_hint_names_where_this_copy_came_from(
    monkeypatch: pytest.MonkeyPatch, direct_url: dict[str, Any], hint: str
) -> None:
    monkeypatch.setattr("sktypes._install.metadata.distribution", lambda _: _Dist(direct_url))
    assert _install.install_hint("mcp") == hint


def test_without_a_record_the_hint_shows_every_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sktypes._install.metadata.distribution", lambda _: _Dist(None))
    hint = _install.install_hint("mcp")
    assert "pip install '/path/to/sktypes[mcp]' (a clone)" in hint
    assert "sktypes[mcp] @ git+<the repository's URL>" in hint
    assert "not on PyPI" in hint


def test_stubs_of_an_openapi_document_says_what_to_use(tmp_path: Path) -> None:
    (tmp_path / "api.yaml").write_text(SPEC_WITHOUT_PATHS)
    assert _error(_sktypes("stubs", "api.yaml", cwd=tmp_path)) == (
        "sktypes: error: api.yaml: an OpenAPI document, not a tool list: give --code-mode "
        "(typed functions for any source) or use sktypes generate (a typed client package)\n"
    )


def test_check_names_a_packages_spec_relative_to_where_it_ran(tmp_path: Path) -> None:
    """The package's link record holds the spec's absolute path; the finding shows it as given."""
    spec = tmp_path / "api" / "items.yaml"
    spec.parent.mkdir()
    spec.write_text(  # generates (with a warning); check is strict: the package's spec fails
        'openapi: 3.0.3\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n'
        "      operationId: getA\n      responses: {'200': {description: ok}}\n"
        "      parameters: [{name: q, in: query, schema: {type: string}, bad: 1}]\n"
    )
    made = _sktypes("generate", "api/items.yaml", "-o", "out", "--name", "items", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "warning: api/items.yaml:8:" in made.stderr
    done = _sktypes("check", "out", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert str(tmp_path) not in done.stdout + done.stderr
    assert re.search(r"^api/items\.yaml:8:\d+: /paths/~1a/get/parameters", done.stdout, re.M), (
        done.stdout
    )
