"""Prompt template config files: loading, errors naming file and line, the published schema."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from sktypes.errors import TemplateError, UnknownTemplateFormatError
from sktypes.templates import (
    PromptTemplateConfig,
    load_prompt_template,
    load_prompt_template_config,
    looks_like_prompt_template_config,
    prompt_template_config_schema,
)

SCHEMA_FILE = Path(__file__).parent.parent / "schemas" / "prompt-template-config.schema.json"

SK_PROMPT = """\
name: GenerateStory
description: A function that generates a story about a topic.
template_format: semantic-kernel
template: |
  Tell a story about {{$topic}} that is {{$length}} sentences long.
input_variables:
  - name: topic
    description: The topic of the story.
    is_required: true
  - name: length
    description: The number of sentences in the story.
    default: "3"
    json_schema: '{"type": "string"}'
output_variable:
  description: The generated story.
execution_settings:
  default:
    temperature: 0.6
"""


def write(tmp_path: Path, text: str, name: str = "prompt.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_semantic_kernel_prompt_file_loads_and_renders(tmp_path: Path) -> None:
    path = write(tmp_path, SK_PROMPT)
    config = load_prompt_template_config(path)
    assert config.name == "GenerateStory"
    assert config.input_variables[1].json_schema == {"type": "string"}
    assert config.execution_settings == {"default": {"temperature": 0.6}}
    assert config.source_file == str(path)
    template = load_prompt_template(path)
    out = asyncio.run(template.render(None, {"topic": "cats"}))
    assert out == "Tell a story about cats that is 3 sentences long.\n"


def test_json_config_loads(tmp_path: Path) -> None:
    data = {"template": "{{ x }}", "template_format": "jinja2"}
    config = load_prompt_template_config(write(tmp_path, json.dumps(data), "p.json"))
    assert config == PromptTemplateConfig(**data)


def test_unknown_key_names_the_file_path_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, SK_PROMPT.replace("    is_required: true", "    is_requird: true"))
    with pytest.raises(TemplateError) as caught:
        load_prompt_template_config(path)
    assert caught.value.file == str(path)
    assert (caught.value.line, caught.value.column) == (9, 5)
    assert caught.value.where == "$.input_variables[0].is_requird"
    assert str(caught.value) == (
        f"{path}:9:5: $.input_variables[0].is_requird: invalid prompt template config: "
        "Extra inputs are not permitted"
    )


def test_every_problem_of_a_config_is_said_each_at_its_place(tmp_path: Path) -> None:
    path = write(
        tmp_path, "template: x\ninput_variables:\n  - name: a\n    is_requird: 1\n  - nam: b\n"
    )
    with pytest.raises(TemplateError) as caught:
        load_prompt_template_config(path)
    assert str(caught.value) == (
        f"{path}:4:5: $.input_variables[0].is_requird: invalid prompt template config: "
        "Extra inputs are not permitted; line 5, column 5: $.input_variables[1].name: "
        "Field required; line 5, column 5: $.input_variables[1].nam: Extra inputs are not permitted"
    )


def test_invalid_yaml_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "name: a\ntemplate: [unclosed\n")
    with pytest.raises(TemplateError) as caught:
        load_prompt_template_config(path)
    assert caught.value.file == str(path)
    assert caught.value.line == 3


def test_invalid_json_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '{\n  "template": "x",\n  oops\n}', "p.json")
    with pytest.raises(TemplateError, match="invalid JSON") as caught:
        load_prompt_template_config(path)
    assert (caught.value.line, caught.value.column) == (3, 3)


def test_yaml_aliases_are_refused(tmp_path: Path) -> None:
    text = "name: &a x\ndescription: *a\n"
    with pytest.raises(TemplateError, match="aliases are not allowed") as caught:
        load_prompt_template_config(write(tmp_path, text))
    assert (caught.value.line, caught.value.column) == (2, 14)


def test_bad_json_schema_of_a_variable_is_reported(tmp_path: Path) -> None:
    text = "template: x\ninput_variables:\n  - name: a\n    json_schema: {type: 12}\n"
    with pytest.raises(TemplateError, match="not a valid JSON Schema") as caught:
        load_prompt_template_config(write(tmp_path, text))
    assert caught.value.line == 4


def test_a_variable_declared_twice_is_refused(tmp_path: Path) -> None:
    text = "template: x\ninput_variables:\n  - name: a\n  - name: A\n"
    with pytest.raises(TemplateError, match="declared twice"):
        load_prompt_template_config(write(tmp_path, text))


def test_missing_file_is_a_template_error(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match="cannot read") as caught:
        load_prompt_template_config(tmp_path / "nope.yaml")
    assert caught.value.file == str(tmp_path / "nope.yaml")


def test_template_syntax_error_names_the_file_line(tmp_path: Path) -> None:
    path = write(tmp_path, SK_PROMPT.replace("{{$length}}", "{{p.f $a $b}}"))
    with pytest.raises(TemplateError) as caught:
        load_prompt_template(path)
    assert caught.value.file == str(path)
    assert (caught.value.line, caught.value.column) == (5, 39 + 2)


def test_unknown_format_in_a_file_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "template: x\ntemplate_format: liquid\n")
    with pytest.raises(UnknownTemplateFormatError) as caught:
        load_prompt_template(path)
    assert caught.value.file == str(path)


def test_published_schema_is_the_config_models_schema() -> None:
    assert json.loads(SCHEMA_FILE.read_text()) == prompt_template_config_schema()
    Draft202012Validator.check_schema(prompt_template_config_schema())


def test_published_schema_accepts_a_semantic_kernel_prompt_and_refuses_typos() -> None:
    import yaml

    validator = Draft202012Validator(json.loads(SCHEMA_FILE.read_text()))
    assert not list(validator.iter_errors(yaml.safe_load(SK_PROMPT)))
    assert list(validator.iter_errors({"template": "x", "tempalte_format": "jinja2"}))


def test_check_can_tell_prompt_configs_from_other_files() -> None:
    import yaml

    assert looks_like_prompt_template_config(yaml.safe_load(SK_PROMPT))
    assert (
        looks_like_prompt_template_config({"template": "x", "tempalte_format": "jinja2"}) is False
    )
    assert looks_like_prompt_template_config({"template": "x", "name": "n", "typo": 1})
    assert not looks_like_prompt_template_config({"openapi": "3.1.0", "template": "x"})
    assert not looks_like_prompt_template_config(["template"])


@pytest.mark.parametrize(
    ("fmt", "call"),
    [("semantic-kernel", "{{shop.nope}}"), ("jinja2", "{{ shop_nope() }}"), ("handlebars", "x")],
)
def test_render_errors_of_a_loaded_template_name_its_file(
    tmp_path: Path, fmt: str, call: str
) -> None:
    from tests.test_templates_fakes import golden_kernel

    if fmt == "handlebars":
        call = "{{p-inc n}}"
    path = write(tmp_path, f"template_format: {fmt}\ntemplate: |\n  a\n  {call}\n")
    template = load_prompt_template(path)
    with pytest.raises(TemplateError) as caught:
        asyncio.run(template.render(golden_kernel(), {"n": "many"}))
    assert caught.value.file == str(path)
