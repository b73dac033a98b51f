"""Parameters and request bodies of one operation, Swagger 2.0 and OpenAPI 3.x alike.

Swagger 2.0 describes a non-body parameter's value with schema keywords on the parameter
itself (``type``, ``format``, ``items``, ``collectionFormat``); those are gathered into a
schema and the collection format into OpenAPI 3 ``style``/``explode``. 2.0 ``body`` becomes
the request body (media type from ``consumes``) and ``formData`` parameters one form or
multipart object body.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sktypes.jsondoc import JsonDocument, freeze
from sktypes.openapi._model import OperationParameter, ParameterLocation
from sktypes.openapi._refs import Place, Refs
from sktypes.openapi._schemas import SchemaConverter

__all__ = ["BodySource", "ParamContext", "collect_parameters", "pick_media_type"]

_LOCATIONS = ("path", "query", "header", "cookie")
_IGNORED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_COLLECTION = {
    "csv": ("form", False),
    "multi": ("form", True),
    "ssv": ("spaceDelimited", False),
    "pipes": ("pipeDelimited", False),
    "tsv": ("tsv", False),
}
_NOT_SCHEMA_2 = frozenset(
    {"name", "in", "required", "description", "collectionFormat", "allowEmptyValue", "schema"}
)
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


@dataclass(slots=True)
class ParamContext:
    """What parameter handling needs from the spec as a whole."""

    refs: Refs
    schemas: SchemaConverter
    swagger2: bool
    consumes: tuple[str, ...] = ("application/json",)


@dataclass(slots=True)
class BodySource:
    """A request body before it becomes view parameters (the schema is converted)."""

    content_type: str
    content_types: tuple[str, ...]
    required: bool
    schema: JsonDocument | None
    description: str | None
    encoding: JsonDocument | None
    place: Place


def pick_media_type(types: list[str]) -> str | None:
    """Choose the media type sktypes sends or reads: JSON, ``+json``, form, multipart, first."""
    bases = [t.split(";", 1)[0].strip().lower() for t in types]
    ranks = [_rank(b) for b in bases]
    if not ranks:
        return None
    best = min(range(len(types)), key=lambda i: (ranks[i], i))
    return types[best]


def _rank(base: str) -> int:
    if base == "application/json":
        return 0
    if base.endswith(("+json", "/json")):
        return 1
    if base == FORM:
        return 2
    if base == MULTIPART:
        return 3
    return 4


def _defaults(location: str, style: str | None, explode: Any) -> tuple[str, bool]:
    style = style or ("simple" if location in ("path", "header") else "form")
    return style, explode if isinstance(explode, bool) else style == "form"


def collect_parameters(
    ctx: ParamContext,
    path_level: Any,
    op_level: Any,
    path_place: Place,
    op_place: Place,
) -> tuple[list[OperationParameter], list[tuple[dict[str, Any], Place]]]:
    """Merge path-level and operation-level parameters (the operation's win).

    Returns the HTTP parameters and, for Swagger 2.0, the raw ``body``/``formData``
    parameters (with their places) for :func:`swagger2_body`.
    """
    merged: dict[tuple[str, str], tuple[dict[str, Any], Place]] = {}
    for raw_list, place in ((path_level, path_place), (op_level, op_place)):
        if raw_list is None:
            continue
        if not isinstance(raw_list, list):
            raise ctx.refs.error("parameters must be an array", place)
        level: set[tuple[str, str]] = set()
        for i, raw in enumerate(raw_list):
            p, p_place = ctx.refs.follow(raw, place.child(i), "parameter")
            if not isinstance(p, dict):
                raise ctx.refs.error("a parameter must be an object", place.child(i))
            name, location = p.get("name"), p.get("in")
            if not isinstance(name, str) or not isinstance(location, str):
                raise ctx.refs.error("a parameter needs a string 'name' and 'in'", place.child(i))
            key = (name, location)
            if key in level:
                raise ctx.refs.error(f"duplicate parameter {name!r} in {location}", place.child(i))
            level.add(key)
            merged[key] = (p, p_place)
    params: list[OperationParameter] = []
    extra: list[tuple[dict[str, Any], Place]] = []
    taken: set[str] = set()
    for (name, location), (p, place) in merged.items():
        if ctx.swagger2 and location in ("body", "formData"):
            extra.append((p, place))
            continue
        if location not in _LOCATIONS:
            raise ctx.refs.error(f"unknown parameter location {location!r}", place.child("in"))
        if location == "header" and name.lower() in _IGNORED_HEADERS:
            continue  # OpenAPI: these header parameters SHALL be ignored
        argument = name if name not in taken else f"{location}_{name}"
        taken.add(argument)
        params.append(_parameter(ctx, p, place, name, cast(ParameterLocation, location), argument))
    return params, extra


def _parameter(
    ctx: ParamContext,
    p: dict[str, Any],
    place: Place,
    name: str,
    location: ParameterLocation,
    argument: str,
) -> OperationParameter:
    content_type: str | None = None
    schema: JsonDocument | None = None
    if ctx.swagger2:
        raw = {k: v for k, v in p.items() if k not in _NOT_SCHEMA_2 and not k.startswith("x-")}
        style, explode = _COLLECTION.get(p.get("collectionFormat") or "csv", ("form", False))
        if location in ("path", "header") and style == "form" and not explode:
            style = "simple"
        if raw:
            schema = ctx.schemas.view_schema(raw, place, "request")
    else:
        style, explode = _defaults(location, p.get("style"), p.get("explode"))
        if "schema" in p:
            schema = ctx.schemas.view_schema(p["schema"], place.child("schema"), "request")
        elif isinstance(p.get("content"), dict) and p["content"]:
            content_type = next(iter(p["content"]))
            media = p["content"][content_type]
            if isinstance(media, dict) and "schema" in media:
                where = place.child("content", content_type, "schema")
                schema = ctx.schemas.view_schema(media["schema"], where, "request")
    description = p.get("description")
    return OperationParameter(
        name=name,
        location=location,
        argument=argument,
        required=location == "path" or p.get("required") is True,
        style=style,
        explode=explode,
        allow_reserved=p.get("allowReserved") is True,
        schema=schema,
        content_type=content_type,
        description=description if isinstance(description, str) else None,
        deprecated=p.get("deprecated") is True,
    )


def request_body(ctx: ParamContext, raw: Any, place: Place) -> BodySource | None:
    """An OpenAPI 3.x ``requestBody`` → a :class:`BodySource` (``None`` if it has no content)."""
    body, body_place = ctx.refs.follow(raw, place, "request body")
    if not isinstance(body, dict):
        raise ctx.refs.error("a request body must be an object", place)
    content = body.get("content")
    if not isinstance(content, dict) or not content:
        return None
    types = [str(t) for t in content]
    chosen = pick_media_type(types)
    assert chosen is not None  # content is not empty
    media = content[chosen]
    schema = None
    encoding = None
    if isinstance(media, dict):
        where = body_place.child("content", chosen, "schema")
        if "schema" in media:
            schema = ctx.schemas.view_schema(media["schema"], where, "request")
        if isinstance(media.get("encoding"), dict):
            encoding = JsonDocument(freeze(media["encoding"]))
    description = body.get("description")
    return BodySource(
        content_type=chosen,
        content_types=tuple(types),
        required=body.get("required") is True,
        schema=schema,
        description=description if isinstance(description, str) else None,
        encoding=encoding,
        place=body_place,
    )


def swagger2_body(
    ctx: ParamContext, extra: list[tuple[dict[str, Any], Place]], consumes: tuple[str, ...]
) -> BodySource | None:
    """Swagger 2.0 ``body`` or ``formData`` parameters → a :class:`BodySource`."""
    bodies = [(p, pl) for p, pl in extra if p.get("in") == "body"]
    forms = [(p, pl) for p, pl in extra if p.get("in") == "formData"]
    if bodies:
        p, place = bodies[0]
        types = list(consumes) or ["application/json"]
        schema = None
        if "schema" in p:
            schema = ctx.schemas.view_schema(p["schema"], place.child("schema"), "request")
        description = p.get("description")
        return BodySource(
            content_type=pick_media_type(types) or "application/json",
            content_types=tuple(types),
            required=p.get("required") is True,
            schema=schema,
            description=description if isinstance(description, str) else None,
            encoding=None,
            place=place,
        )
    if not forms:
        return None
    properties: dict[str, Any] = {}
    required: list[str] = []
    has_file = False
    for p, _place in forms:
        prop = {k: v for k, v in p.items() if k not in _NOT_SCHEMA_2 and not k.startswith("x-")}
        if isinstance(p.get("description"), str):
            prop["description"] = p["description"]
        has_file = has_file or prop.get("type") == "file"
        properties[p["name"]] = prop
        if p.get("required") is True:
            required.append(p["name"])
    raw: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        raw["required"] = required
    form_types = [t for t in consumes if t.split(";")[0].strip() in (FORM, MULTIPART)]
    multipart = has_file or (form_types and form_types[0].startswith(MULTIPART))
    chosen = MULTIPART if multipart else FORM
    place = forms[0][1]
    return BodySource(
        content_type=chosen,
        content_types=tuple(form_types) or (chosen,),
        required=bool(required),
        schema=ctx.schemas.view_schema(raw, place, "request"),
        description=None,
        encoding=None,
        place=place,
    )
