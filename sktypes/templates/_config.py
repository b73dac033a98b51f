"""`PromptTemplateConfig`: a template, its format, its input variables; loaded from YAML/JSON.

The file format is Semantic Kernel's prompt configuration (``name``, ``description``,
``template``, ``template_format``, ``input_variables``, ``output_variable``,
``allow_dangerously_set_content``, ``execution_settings``); the published JSON Schema is
``schemas/prompt-template-config.schema.json``. Unknown keys are errors, so a typo in a
prompt file fails ``sktypes check`` instead of being ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError as JsonSchemaError
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from sktypes.errors import Location
from sktypes.views import ParameterView

__all__ = [
    "HANDLEBARS_FORMAT",
    "JINJA2_FORMAT",
    "KERNEL_FORMAT",
    "InputVariable",
    "OutputVariable",
    "PromptTemplateConfig",
    "prompt_template_config_schema",
    "template_parameters",
]

KERNEL_FORMAT = "semantic-kernel"
"""``template_format`` of Semantic Kernel's own syntax (the default)."""
JINJA2_FORMAT = "jinja2"
"""``template_format`` of (sandboxed) Jinja2 templates."""
HANDLEBARS_FORMAT = "handlebars"
"""``template_format`` of Handlebars templates (pybars3)."""

_NAME = r"^[A-Za-z0-9_]+$"

SchemaField = Annotated[
    dict[str, Any] | None,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "object", "description": "a JSON Schema"},
                {"type": "string", "description": "a JSON Schema as JSON text"},
                {"type": "null"},
            ]
        }
    ),
]
"""A JSON Schema given as an object or (as Semantic Kernel writes it) as JSON text."""

Text = Annotated[str, WithJsonSchema({"type": ["string", "null"]})]
"""Text that may be given as ``null`` (read as empty)."""


def _schema_dict(value: Any) -> Any:
    """Accept a schema as an object or as JSON text (Semantic Kernel stores a string)."""
    if isinstance(value, str):
        if not value.strip():
            return None
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError as exc:
            raise ValueError(f"json_schema is not valid JSON: {exc}") from None
    return value


def _check_schema(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    if schema is not None:
        try:
            Draft202012Validator.check_schema(schema)
        except JsonSchemaError as exc:
            raise ValueError(f"json_schema is not a valid JSON Schema: {exc.message}") from None
    return schema


class InputVariable(BaseModel):
    """One variable a template reads.

    Attributes:
        name: the variable name (letters, digits, ``_``).
        description: what it means (shown in the template's parameters).
        default: the value used when an argument is missing.
        is_required: ``True`` when callers must supply it.
        json_schema: its JSON Schema (an object, or JSON text as Semantic Kernel writes it).
        allow_dangerously_set_content: emit this variable's value without encoding.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=_NAME)
    description: Text = ""
    default: Any = None
    is_required: bool = True
    json_schema: SchemaField = None
    allow_dangerously_set_content: bool = False

    @field_validator("description", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return "" if value is None else value

    @field_validator("json_schema", mode="before")
    @classmethod
    def _parse_schema(cls, value: Any) -> Any:
        return _schema_dict(value)

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return _check_schema(value)

    def to_parameter(self) -> ParameterView:
        """Return the variable as a :class:`ParameterView`."""
        return ParameterView(
            name=self.name,
            description=self.description or None,
            default_value=self.default,
            is_required=self.is_required and self.default is None,
            schema=self.json_schema,
        )


class OutputVariable(BaseModel):
    """What the prompt's answer is: a description and an optional JSON Schema."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: Text = ""
    json_schema: SchemaField = None

    @field_validator("json_schema", mode="before")
    @classmethod
    def _parse_schema(cls, value: Any) -> Any:
        return _schema_dict(value)

    @field_validator("json_schema")
    @classmethod
    def _valid_schema(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return _check_schema(value)


class PromptTemplateConfig(BaseModel):
    """A prompt template and everything needed to render it.

    Attributes:
        name: the prompt (function) name.
        description: what the prompt does.
        template: the template text.
        template_format: ``semantic-kernel`` (default), ``jinja2``, ``handlebars``, or a
            format a third-party factory handles.
        input_variables: declared variables (descriptions, defaults, schemas, trust).
        output_variable: the answer's description and schema.
        allow_dangerously_set_content: emit every variable value and function output
            without encoding (only for trusted input).
        execution_settings: per-service settings, passed through untouched.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    description: Text = ""
    template: Text = ""
    template_format: str = Field(default=KERNEL_FORMAT, min_length=1)
    input_variables: tuple[InputVariable, ...] = ()
    output_variable: OutputVariable | None = None
    allow_dangerously_set_content: bool = False
    execution_settings: dict[str, dict[str, Any]] = Field(default_factory=dict)

    _file: str | None = PrivateAttr(default=None)
    _first_line: int | None = PrivateAttr(default=None)
    _indent: int = PrivateAttr(default=0)

    @field_validator("description", "template", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return "" if value is None else value

    @model_validator(mode="after")
    def _unique_variables(self) -> PromptTemplateConfig:
        seen: set[str] = set()
        for variable in self.input_variables:
            key = variable.name.lower()
            if key in seen:
                raise ValueError(f"input variable {variable.name!r} is declared twice")
            seen.add(key)
        return self

    def __eq__(self, other: object) -> bool:
        """Equal when the fields are; where the config was loaded from does not count."""
        if not isinstance(other, PromptTemplateConfig):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = BaseModel.__hash__

    @property
    def source_file(self) -> str | None:
        """The file the config was loaded from (``None`` when built in code)."""
        return self._file

    def place(self, line: int, column: int | None = None) -> Location:
        """Where a line (and column) of the template text is, for messages.

        Loaded from a file with the template as a ``|`` block, the line and column are the
        file's (``story.yaml:7:5``); from a file otherwise, they are counted from the
        template's start (``story.yaml: template line 3, column 1``); in code, the
        template's own (``line 3, column 1``).
        """
        if self._first_line is not None:
            at = None if column is None else column + self._indent
            return Location(self._file, self._first_line + line - 1, at)
        if self._file is not None:
            col = f", column {column}" if column is not None else ""
            return Location(self._file, where=f"template line {line}{col}")
        return Location(None, line, column)

    def variable(self, name: str) -> InputVariable | None:
        """Return the declared variable called ``name`` (case-insensitive), if any."""
        key = name.lower()
        for variable in self.input_variables:
            if variable.name.lower() == key:
                return variable
        return None

    def trusted(self, name: str) -> bool:
        """Whether variable ``name`` may be emitted without encoding."""
        if self.allow_dangerously_set_content:
            return True
        variable = self.variable(name)
        return variable is not None and variable.allow_dangerously_set_content

    def trusted_names(self) -> frozenset[str] | None:
        """Names of trusted variables (exact and lower-case); ``None`` when all are trusted."""
        if self.allow_dangerously_set_content:
            return None
        names = {v.name for v in self.input_variables if v.allow_dangerously_set_content}
        return frozenset(names | {n.lower() for n in names})

    def defaults(self) -> dict[str, Any]:
        """The declared variables' default values (only those that have one)."""
        return {v.name: v.default for v in self.input_variables if v.default is not None}


SCHEMA_ID = "https://sktypes.dev/schemas/prompt-template-config.schema.json"


def prompt_template_config_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a prompt template config file.

    ``schemas/prompt-template-config.schema.json`` is this schema; a test keeps them equal.
    """
    schema = PromptTemplateConfig.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID, **schema}


def template_parameters(
    config: PromptTemplateConfig, used: Iterable[str]
) -> tuple[ParameterView, ...]:
    """The config's variables, then every other variable the template uses (in order).

    A variable the template uses but the config does not declare is optional and untyped:
    a missing variable renders as empty text. Names match case-insensitively, as in
    Semantic Kernel.
    """
    out = [v.to_parameter() for v in config.input_variables]
    seen = {p.name.lower() for p in out}
    for name in used:
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append(ParameterView(name=name, is_required=False))
    return tuple(out)


def merged_arguments(defaults: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments with the config's defaults filled in for missing (or ``None``) names."""
    if not defaults:
        return dict(arguments)
    out = dict(defaults)
    out.update({k: v for k, v in arguments.items() if v is not None or k not in defaults})
    return out
