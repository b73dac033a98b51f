"""Default names read well: plugin and package names from titles, function and tool names
under the 64-character limit without a hash wherever a readable unique name fits."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import sktypes as sk
from sktypes.cli import cli
from sktypes.manual import NameTable, functions_manual, views_from_manual
from sktypes.openapi._naming import (
    NameRegistry,
    package_identifier,
    plugin_identifier,
    readable,
)
from sktypes_codegen import generate_plugin, render_plugin

HASHED = re.compile(r"_[0-9a-f]{8}$")


@pytest.mark.parametrize(
    ("title", "plugin", "package"),
    [
        ("GitHub's official OpenAPI spec + Octokit extension", "GitHub", "github"),
        ("Netlify's API documentation", "Netlify", "netlify"),
        ("Blockfrost.io ~ API Documentation", "Blockfrost", "blockfrost"),
        ("ShipEngine API", "ShipEngine", "shipengine"),
        ("OpenAI API", "OpenAI", "openai"),
        ("Swagger Petstore - OpenAPI 3.0", "SwaggerPetstore", "swagger_petstore"),
        ("Twilio - Api - v2010", "Twilio", "twilio"),
        ("DatePluginSimpleComplex", "DatePluginSimpleComplex", "date_plugin_simple_complex"),
        ("Support for parameter serialization", "SupportParameterSerialization", None),
        ("API Reference", "APIReference", "api_reference"),  # filler only: its words
        ("", "OpenApiPlugin", ""),
    ],
)
def test_default_names_are_short_forms_of_the_title(
    title: str, plugin: str, package: str | None
) -> None:
    assert plugin_identifier(title) == plugin
    if package is not None:
        assert package_identifier(title) == package


LONG_IDS = [
    "copilot/list-copilot-coding-agent-selected-repositories-for-organization",
    "actions/get-github-actions-default-workflow-permissions-organization",
    "actions/get-github-actions-default-workflow-permissions-repository",
    "orgs/custom-properties-for-repos-create-or-update-organization-definitions",
    "orgs/custom-properties-for-repos-create-or-update-organization-definition",
]


def test_long_operation_ids_are_shortened_readably_and_stay_unique() -> None:
    # GitHub: 25 operationIds over 64 characters ended in a hash
    names = NameRegistry()
    taken = [names.take(op_id, "get", f"/x/{i}") for i, op_id in enumerate(LONG_IDS)]
    assert taken == [
        "copilot_list_copilot_coding_agent_selected_organization",
        "actions_get_github_actions_default_workflow_organization",
        "actions_get_github_actions_default_workflow_repository",
        "orgs_custom_properties_repos_create_update_definitions",
        "orgs_custom_properties_repos_create_update_definition",
    ]
    assert all(len(n) <= 64 for n in taken)
    # the same readable name twice: the second keeps its head and ends with a hash
    again = names.take(LONG_IDS[0] + " ", "get", "/y/" + "z" * 80)
    assert HASHED.search(again) and len(again) <= 64
    assert readable("a_" + "b" * 70) is None  # no readable form fits


def _view(plugin: str, name: str) -> sk.FunctionView:
    return sk.FunctionView(name=name, plugin_name=plugin, description="", parameters=())


def test_a_tool_name_over_the_limit_is_the_function_name_when_that_is_unique() -> None:
    # `sktypes manual` of GitHub: 1,017 of 1,223 OpenAI tool names ended in a hash, because
    # the plugin prefix pushed `Plugin-function` over 64 characters
    long = "actions_get_actions_cache_retention_limit_for_organization"  # 58
    views = [_view("GitHub", long), _view("OtherPlugin", long), _view("GitHub", "short_one")]
    table = NameTable()
    tools = functions_manual(views, "openai", names=table)
    assert isinstance(tools, list)
    names = [t["function"]["name"] for t in tools]
    assert names[0] == long
    assert HASHED.search(names[1]) and len(names[1]) <= 64  # the bare name is taken
    assert names[2] == "GitHub-short_one"
    back = views_from_manual(tools, names=table)
    assert [(v.plugin_name, v.name) for v in back] == [(v.plugin_name, v.name) for v in views]


SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "GitHub's official OpenAPI spec + Octokit extension", "version": "1"},
    "servers": [{"url": "https://api.github.test"}],
    "paths": {
        "/zen": {
            "get": {
                "operationId": "meta/get-zen",
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {"application/json": {"schema": {"type": "string"}}},
                    }
                },
            }
        }
    },
}


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "github.json"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    return path


def test_generate_defaults_to_a_short_package_and_class(spec: Path) -> None:
    rendered = render_plugin(spec)
    assert rendered.package == "github"
    assert "class GitHubPlugin(ApiClient):" in rendered.files["plugin.py"]
    assert json.loads(rendered.files["views.json"])["plugin"] == "GitHub"


def test_generate_name_names_the_package_and_the_class(spec: Path, tmp_path: Path) -> None:
    generate_plugin(spec, tmp_path / "out", name="gh")
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        package = importlib.import_module("gh")
    finally:
        sys.path.remove(str(tmp_path / "out"))
    assert package.__all__ == ["ApiError", "GhPlugin"]
    views = sk.plugin_views(package.GhPlugin())
    assert [v.fully_qualified_name for v in views] == ["GitHub.meta_get_zen"]  # the spec's


def test_views_command_prints_the_views_as_json(spec: Path) -> None:
    result = CliRunner().invoke(cli, ["views", str(spec), "--name", "Hub"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    views = [sk.FunctionView.from_dict(item) for item in data]
    assert [v.fully_qualified_name for v in views] == ["Hub.meta_get_zen"]
    assert views == [
        v.__class__.from_dict(v.to_dict()) for v in sk.load_openapi(spec, plugin_name="Hub").views
    ]
    result = CliRunner().invoke(cli, ["views", str(spec), "--exclude", "meta_get_zen"])
    assert result.exit_code == 0 and json.loads(result.stdout) == []
