"""Validators generated models use: a tagged union, ``uniqueItems``, values, text rules.

Re-exported by :mod:`sktypes.generated` (the names generated code imports). Each is
``Annotated`` metadata that checks values *and* writes its rule into the model's JSON
Schema, so ``model_json_schema()`` of a generated model says what the spec said.
"""

from __future__ import annotations

import base64
import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

import orjson
import pydantic
import pydantic_core
from pydantic_core import core_schema

from sktypes.jsondoc import FrozenDict

__all__ = [
    "Checked",
    "Discriminated",
    "basic_auth",
    "discriminated_by",
    "one_of",
    "text",
    "unique_items",
]


def discriminated_by(member: str, mapping: Mapping[str, str] | None = None) -> Discriminated:
    """A discriminator reading the wire member ``member`` (OpenAPI's ``propertyName``).

    The options of the union carry ``Tag(<definition name>)``; ``mapping`` maps member values
    to those names (OpenAPI's ``mapping``); a value it does not list is taken as the name
    itself (OpenAPI's implicit mapping), and a value naming no option is refused. Where the
    member is left out (or is not a string), nothing names an option: the value is matched
    against each option, as the union without its discriminator would (GitHub's ``/user``
    is discriminated by a ``user_view_type`` no option requires). Works on JSON data and on
    model instances (their field with that alias, or an extra member).
    """
    return Discriminated(member, FrozenDict(mapping or {}))


_EACH_OPTION = "(none: each option)"
"""The fallback's tag (no definition name, which the generator's tags are, has parentheses)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Discriminated:
    """What :func:`discriminated_by` returns: ``Annotated`` metadata for a tagged union.

    A pydantic tagged union whose options are the union's tagged options plus one more,
    taken when the member names no option: the plain union of them all.
    """

    member: str
    mapping: Mapping[str, str]

    def tag(self, value: Any) -> str:
        """The tag of ``value``'s option (the fallback's when its member is not a string)."""
        if isinstance(value, Mapping):
            found = value.get(self.member)
        elif isinstance(value, pydantic.BaseModel):
            found = _member(value, self.member)
        else:
            found = None
        if not isinstance(found, str):
            return _EACH_OPTION
        return self.mapping.get(found, found)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: pydantic.GetCoreSchemaHandler
    ) -> pydantic_core.CoreSchema:
        schema = handler(source)
        if schema["type"] != "union":
            return schema  # one option: nothing to tell apart
        choices: dict[str, pydantic_core.CoreSchema] = {}
        for choice in schema["choices"]:
            if not isinstance(choice, tuple):
                raise pydantic.PydanticSchemaGenerationError(
                    f"discriminated_by({self.member!r}): every option needs a Tag"
                )
            option, tag = choice
            choices[str(tag)] = option
        choices[_EACH_OPTION] = core_schema.union_schema(list(choices.values()))
        return core_schema.tagged_union_schema(
            choices,
            self.tag,
            ref=schema.get("ref"),
            metadata=schema.get("metadata"),
            serialization=schema.get("serialization"),
        )

    def __get_pydantic_json_schema__(
        self, schema: pydantic_core.CoreSchema, handler: pydantic.GetJsonSchemaHandler
    ) -> Any:
        """The options' ``oneOf`` (the fallback is no option of its own)."""
        if schema["type"] != "tagged-union":
            return handler(schema)
        options = {k: v for k, v in schema["choices"].items() if k != _EACH_OPTION}
        return handler(core_schema.tagged_union_schema(options, self.tag))


def _member(model: pydantic.BaseModel, member: str) -> Any:
    for name, info in type(model).model_fields.items():
        if (info.alias or name) == member:
            return getattr(model, name)
    extra = model.__pydantic_extra__ or {}
    return extra.get(member)


def _canonical(value: Any) -> bytes:
    """JSON text that tells ``1`` from ``true`` and ignores key order (numbers as numbers)."""
    return orjson.dumps(_jsonish(value), option=orjson.OPT_SORT_KEYS)


def _jsonish(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON Schema: 1.0 is the integer 1
    if isinstance(value, Mapping):
        return {str(k): _jsonish(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonish(v) for v in value]
    return value


def _unique(value: list[Any]) -> list[Any]:
    seen: set[bytes] = set()
    for item in value:
        key = _canonical(item)
        if key in seen:
            raise ValueError("items must be unique (uniqueItems)")
        seen.add(key)
    return value


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    """``Annotated`` metadata: a check pydantic runs, and the JSON Schema keywords it stands for.

    What :data:`unique_items`, :func:`one_of` and :func:`text` return. pydantic's own
    ``AfterValidator``/``BeforeValidator`` check the values but leave the model's JSON Schema
    without the rule (``model_json_schema()`` said ``type: array`` where the spec said
    ``uniqueItems: true``): this one runs the check *and* writes ``keywords`` into the
    schema of the value it annotates.

    Attributes:
        check: called with the value; returns it or raises ``ValueError``.
        keywords: ``(keyword, value)`` pairs added to the value's JSON Schema.
        before: run ``check`` before the type's own validation (on the raw value).
    """

    check: Callable[[Any], Any]
    keywords: tuple[tuple[str, Any], ...]
    before: bool = False

    def __get_pydantic_core_schema__(
        self, source: Any, handler: pydantic.GetCoreSchemaHandler
    ) -> pydantic_core.CoreSchema:
        inner = handler(source)
        if self.before:
            return core_schema.no_info_before_validator_function(self.check, inner)
        return core_schema.no_info_after_validator_function(self.check, inner)

    def __get_pydantic_json_schema__(
        self, schema: pydantic_core.CoreSchema, handler: pydantic.GetJsonSchemaHandler
    ) -> dict[str, Any]:
        written: dict[str, Any] = dict(handler(schema))
        written.update(self.keywords)  # beside a $ref too (JSON Schema 2020-12 allows it)
        return written


unique_items = Checked(_unique, (("uniqueItems", True),))
"""``uniqueItems: true``: no two items are the same JSON value."""


def one_of(*values: Any) -> Checked:
    """``enum``/``const`` values ``Literal`` cannot hold (floats, arrays, objects).

    No value at all is a schema no value meets (``not: {}``): a property that may only be
    absent.
    """
    allowed = {_canonical(v) for v in values}
    shown = ", ".join(orjson.dumps(v).decode() for v in values)

    def check(value: Any) -> Any:
        if _canonical(value) not in allowed:
            raise ValueError(f"must be one of {shown}" if values else "no value is allowed")
        return value

    if not values:
        keywords: tuple[tuple[str, Any], ...] = (("not", {}),)
    elif len(values) == 1:
        keywords = (("const", values[0]),)
    else:
        keywords = (("enum", list(values)),)
    return Checked(check, keywords)


def text(
    *, min_length: int | None = None, max_length: int | None = None, pattern: str | None = None
) -> Checked:
    """String constraints checked on the text before it is parsed into another type.

    For a ``date-time`` with ``maxLength``, or a ``pattern`` pydantic's regex engine cannot
    compile (lookarounds, backreferences): searched with Python's ``re`` like JSON Schema
    validators do. Values that are not strings pass through to the type's own validation.
    """
    compiled = re.compile(pattern) if pattern is not None else None

    def check(value: Any) -> Any:
        if isinstance(value, str):
            length = len(value)
            if min_length is not None and length < min_length:
                raise ValueError(f"must have at least {min_length} characters")
            if max_length is not None and length > max_length:
                raise ValueError(f"must have at most {max_length} characters")
            if compiled is not None and compiled.search(value) is None:
                raise ValueError(f"must match {pattern!r}")
        return value

    keywords = tuple(
        (k, v)
        for k, v in (("minLength", min_length), ("maxLength", max_length), ("pattern", pattern))
        if v is not None
    )
    return Checked(check, keywords, before=True)


def basic_auth(username: str | None, password: str | None) -> str:
    """The ``Authorization`` value of HTTP basic authentication (``""``: none given)."""
    if username is None and password is None:
        return ""
    token = base64.b64encode(f"{username or ''}:{password or ''}".encode()).decode("ascii")
    return f"Basic {token}"
