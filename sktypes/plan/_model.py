"""The plan a model writes: steps that call functions, wired by references into outputs.

A plan is JSON (its schema is published as ``schemas/plan.schema.json``)::

    {"steps": [
       {"id": "d", "function": "DatePluginSimpleComplex.GetDate1", "arguments": {"numDays": 1}},
       {"id": "w", "function": "WeatherPluginSimpleComplex.GetWeatherForecast1",
        "arguments": {"date": {"$from": "d", "path": "$.date"}}}],
     "output": {"$from": "w", "path": "$.degreesFahrenheit"}}

An argument is a literal JSON value or a :class:`Reference`; an object with ``$from`` is
always a reference (an object literal that needs a ``$from`` key cannot be written).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from sktypes.plan._jsonpath import PathError, Segment, parse_path

__all__ = ["Argument", "Plan", "PlanIssue", "PlanStep", "Reference", "plan_json_schema"]

_DIALECT = "https://json-schema.org/draft/2020-12/schema"


class Reference(BaseModel):
    """The output of another step, or the part of it a JSONPath selects."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    from_: str = Field(
        alias="$from", min_length=1, description="The id of the step whose output is used."
    )
    path: str | None = Field(
        default=None,
        description="A JSONPath into that output such as '$.date' (member names and array "
        "indexes only); absent: the whole output.",
    )

    @field_validator("path")
    @classmethod
    def _path_parses(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                parse_path(value)
            except PathError as exc:
                raise ValueError(exc.message) from None
        return value

    @property
    def segments(self) -> tuple[Segment, ...]:
        """The parsed path (empty for the whole output)."""
        return parse_path(self.path) if self.path else ()

    def describe(self) -> str:
        """``d`` or ``d $.date``: how messages name the reference."""
        return f"{self.from_} {self.path}" if self.path and self.path != "$" else self.from_


def _brief(error: ErrorDetails) -> str:
    where = ".".join(str(p) for p in error["loc"])
    message = error["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def _not_a_broken_reference(value: Any) -> Any:
    """An object with ``$from`` that did not become a :class:`Reference` is a mistake."""
    if isinstance(value, dict) and "$from" in value:
        try:
            Reference.model_validate(value)
        except ValidationError as exc:
            problems = "; ".join(_brief(e) for e in exc.errors())
            raise ValueError(
                f"not a valid reference ({problems}); a reference is "
                "{'$from': step id, 'path': '$.member'} with 'path' optional"
            ) from None
    return value


Argument = Annotated[
    Reference | JsonValue,
    Field(union_mode="left_to_right"),
    AfterValidator(_not_a_broken_reference),
]
"""A step argument: a reference (tried first) or any JSON literal."""


class PlanStep(BaseModel):
    """One call: which function, with which arguments."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, description="A name other steps use to refer to this output.")
    function: str = Field(min_length=1, description="The function to call, as 'Plugin.Function'.")
    arguments: dict[str, Argument] = Field(
        default_factory=dict,
        description="Argument name to a literal JSON value or a reference "
        '{"$from": "step id", "path": "$.member"}.',
    )

    def references(self) -> Iterator[tuple[str, Reference]]:
        """The arguments that are references, with their names."""
        for name, arg in self.arguments.items():
            if isinstance(arg, Reference):
                yield name, arg


class Plan(BaseModel):
    """Steps to run (in dependency order) and the reference that is the plan's answer."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        title="Plan",
        json_schema_extra={"$id": "https://sktypes.dev/schemas/plan.schema.json"},
    )

    steps: tuple[PlanStep, ...] = Field(
        description="The calls, in any order.", json_schema_extra={"minItems": 1}
    )
    output: Reference | None = Field(
        default=None,
        description="The plan's answer; absent: the output of the last step.",
    )

    @model_validator(mode="after")
    def _unique_ids(self) -> Plan:
        if not self.steps:
            raise ValueError("a plan needs at least one step")
        counts = Counter(s.id for s in self.steps)
        dup = sorted(i for i, n in counts.items() if n > 1)
        if dup:
            raise ValueError(f"step ids must be unique; repeated: {', '.join(dup)}")
        return self

    def step(self, step_id: str) -> PlanStep:
        """Return the step called ``step_id`` (``KeyError`` if there is none)."""
        for s in self.steps:
            if s.id == step_id:
                return s
        raise KeyError(step_id)


@dataclass(frozen=True, slots=True)
class PlanIssue:
    """One problem :func:`check_plan` found.

    Args:
        step: the step's id (``None`` for the plan's output).
        argument: the argument's name, when the problem is in one.
        message: what is wrong.
        fix: a suggested correction (e.g. ``use {"$from": "d", "path": "$.date"}``).
        severity: ``error`` (the plan is wrong) or ``warning`` (it could not be proved
            right: an ``unknown`` compatibility).
    """

    step: str | None
    argument: str | None
    message: str
    fix: str | None = None
    severity: Literal["error", "warning"] = "error"

    @property
    def where(self) -> str:
        """``step 'w', argument 'date'`` / ``output``: the place, as messages name it."""
        if self.step is None:
            return "output"
        return f"step {self.step!r}" + (f", argument {self.argument!r}" if self.argument else "")

    def __str__(self) -> str:
        fix = f" (fix: {self.fix})" if self.fix else ""
        return f"{self.severity}: {self.where}: {self.message}{fix}"

    def to_dict(self) -> dict[str, Any]:
        """Return the issue as a JSON-compatible dict."""
        return {
            "step": self.step,
            "argument": self.argument,
            "message": self.message,
            "fix": self.fix,
            "severity": self.severity,
        }


def plan_json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a plan, as ``schemas/plan.schema.json`` holds it."""
    schema = Plan.model_json_schema(by_alias=True)
    return {"$schema": _DIALECT, **schema}
