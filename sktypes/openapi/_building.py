"""The views of a spec: walk the paths, follow each operation's ``$ref``s, build one view each."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sktypes.errors import OpenApiError, SktypesError
from sktypes.jsondoc import FrozenDict, freeze
from sktypes.openapi._model import OpenApiPlugin, Operation
from sktypes.openapi._naming import NameRegistry, identifier, plugin_identifier
from sktypes.openapi._operations import OperationBuilder, server_urls
from sktypes.openapi._paging import item_schema, recognise_pagination
from sktypes.openapi._params import ParamContext
from sktypes.openapi._refs import Place, Refs
from sktypes.openapi._schemas import SchemaConverter
from sktypes.openapi._select import Candidate, select
from sktypes.openapi._source import Document
from sktypes.openapi._streaming import recognise_stream
from sktypes.views import ReturnParameterView

__all__ = ["METHODS", "METHODS_32", "build"]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
METHODS_32 = (*METHODS, "query")
"""OpenAPI 3.2 adds the QUERY method (a safe request with a body)."""


def build(
    doc: Document,
    refs: Refs,
    schemas: SchemaConverter,
    version: int,
    version_text: str,
    plugin_name: str | None,
    flatten_body: bool,
    *,
    strict: bool,
    warnings: list[str],
    include: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
) -> OpenApiPlugin:
    """The plugin of ``doc``'s operations (the selected ones), not validated yet."""
    data: dict[str, Any] = doc.data
    root = Place(refs.root_uri, "")
    raw_info = data.get("info")
    info: dict[str, Any] = raw_info if isinstance(raw_info, dict) else {}
    raw_title = info.get("title")
    title = raw_title if isinstance(raw_title, str) else ""
    name = identifier(plugin_name) if plugin_name else plugin_identifier(title)
    swagger2 = version == 2
    ctx = ParamContext(
        refs, schemas, swagger2, _media(data.get("consumes")) or ("application/json",)
    )
    spec_servers = _swagger2_servers(data) if swagger2 else server_urls(data.get("servers"), root)
    builder = OperationBuilder(
        ctx,
        name,
        flatten_body=flatten_body,
        produces=_media(data.get("produces")),
        servers=spec_servers,
        security=data.get("security"),
        warn=schemas.warn,
    )
    found = _operations(data, refs, root, strict, schemas, warnings, version)
    names = NameRegistry()
    named = [(f, names.take(f.op.get("operationId"), f.method, f.path)) for f in found]
    if include or exclude:  # only the selected operations are built
        candidates = [_candidate(f, fn_name, name) for f, fn_name in named]
        named = select(named, candidates, include, exclude, source=doc.display)
    operations: list[Operation] = []
    for f, fn_name in named:
        try:
            operation = builder.build(
                fn_name, f.method, f.path, f.op, f.op_place, f.item, f.item_place, f.servers
            )
            operation = _remote_features(operation, f.op, f.op_place, refs, data, schemas)
        except SktypesError as exc:
            if strict:
                raise
            _skipped(warnings, exc, f.op_place, refs, f"{f.method.upper()} {f.path}")
            continue
        operations.append(operation)
    security_schemes = _security_schemes(data, swagger2)
    return OpenApiPlugin(
        name=name,
        title=title,
        version=str(info.get("version", "")),
        openapi_version=version_text,
        servers=spec_servers,
        security_schemes=security_schemes,
        warnings=warnings,
        operations=operations,
        source=doc.display,
        definitions=schemas.sources(),
    )


@dataclass(frozen=True, slots=True)
class _Found:
    """One operation of the spec, its ``$ref``s followed, before it is built."""

    path: str
    method: str
    op: dict[str, Any]
    op_place: Place
    item: dict[str, Any]
    item_place: Place
    servers: tuple[str, ...]


def _operations(
    data: dict[str, Any],
    refs: Refs,
    root: Place,
    strict: bool,
    schemas: SchemaConverter,
    warnings: list[str],
    version: int,
) -> list[_Found]:
    """Every operation, in spec order (what cannot be followed: an error, or skipped)."""
    out: list[_Found] = []
    for path, raw_item, place in _path_items(data, refs, root, strict, schemas):
        try:
            item, item_place = refs.follow(raw_item, place, "path item")
        except OpenApiError as exc:
            if strict:
                raise
            _skipped(warnings, exc, place, refs, f"path {path}")
            continue
        if not isinstance(item, dict):
            schemas.warn("a path item must be an object; skipped", place)
            continue
        item_servers = server_urls(item.get("servers"), item_place)
        if version == 32 and "additionalOperations" in item:
            schemas.warn(
                "additionalOperations (methods beyond OpenAPI's) are not loaded",
                item_place.child("additionalOperations"),
            )
        for method in METHODS_32 if version == 32 else METHODS:
            if method not in item:
                continue
            op_place = item_place.child(method)
            try:
                op, op_place = refs.follow(item[method], op_place, "operation")
                if not isinstance(op, dict):
                    raise refs.error("an operation must be an object", op_place)
            except SktypesError as exc:
                if strict:
                    raise
                _skipped(warnings, exc, op_place, refs, f"{method.upper()} {path}")
                continue
            out.append(_Found(path, method, op, op_place, item, item_place, item_servers))
    return out


def _candidate(found: _Found, fn_name: str, plugin: str) -> Candidate:
    """What filters match on an operation not built yet (as ``operation_candidate`` does)."""
    op_id = found.op.get("operationId")
    names = (op_id if isinstance(op_id, str) else None, fn_name, f"{plugin}.{fn_name}")
    return Candidate(
        names=tuple(dict.fromkeys(n for n in names if n)),
        tags=tuple(t for t in found.op.get("tags") or () if isinstance(t, str)),
        method=found.method,
        path=found.path,
    )


def _remote_features(
    operation: Operation,
    op: dict[str, Any],
    op_place: Place,
    refs: Refs,
    data: dict[str, Any],
    schemas: SchemaConverter,
) -> Operation:
    """The operation (and its view) with how it streams or pages (``_streaming``, ``_paging``)."""
    streamed = recognise_stream(op, op_place, refs, schemas, schemas.warn)
    if streamed is not None:
        stream, items = streamed
        view = operation.view
        returns = ReturnParameterView(
            view.return_parameter.description, schema=items, is_streaming=True
        )
        return dataclasses.replace(
            operation,
            view=dataclasses.replace(view, return_parameter=returns),
            stream=stream,
            item_schema=items,
            response_schema=items,
        )
    paging = recognise_pagination(operation, op, op_place, refs, data, schemas.warn)
    if paging is None:
        return operation
    paged = item_schema(operation, paging)
    return dataclasses.replace(operation, pagination=paging, item_schema=paged)


def _skipped(warnings: list[str], exc: SktypesError, place: Place, refs: Refs, what: str) -> None:
    """Record why an operation (or path item) was left out, naming the deepest place known."""
    if exc.where is None:
        where = place.pointer
    elif exc.file is None or exc.file == refs.display(refs.root_uri):
        where = exc.where
    else:
        where = f"{exc.file}#{exc.where}"
    warnings.append(f"{where}: {exc.message} ({what} skipped)")


def _path_items(
    data: dict[str, Any], refs: Refs, root: Place, strict: bool, schemas: SchemaConverter
) -> list[tuple[str, Any, Place]]:
    """The ``(path, item, place)`` triples of ``paths`` (a ``$ref``'d paths object followed)."""
    paths = data.get("paths")
    place = root.child("paths")
    if paths is None:
        return []
    if isinstance(paths, dict) and "$ref" in paths:
        schemas.warn("$ref directly under paths (not allowed by OpenAPI); followed", place)
        paths, place = refs.follow(paths, place, "paths object")
    if not isinstance(paths, dict):
        if strict:
            raise refs.error("paths must be an object", place)
        schemas.warn("paths must be an object; no operations loaded", place)
        return []
    out: list[tuple[str, Any, Place]] = []
    for path, item in paths.items():
        if not isinstance(path, str) or not path.startswith("/"):
            continue  # x-* extensions and other non-path keys
        out.append((path, item, place.child(path)))
    return out


def _media(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def _swagger2_servers(data: dict[str, Any]) -> tuple[str, ...]:
    host = data.get("host")
    base = data.get("basePath") if isinstance(data.get("basePath"), str) else ""
    if not isinstance(host, str):
        return (base,) if base else ()
    schemes = [s for s in data.get("schemes") or ["https"] if isinstance(s, str)]
    return tuple(f"{s}://{host}{base}" for s in schemes)


def _security_schemes(data: dict[str, Any], swagger2: bool) -> Mapping[str, Any]:
    if swagger2:
        raw = data.get("securityDefinitions")
    else:
        components = data.get("components")
        raw = components.get("securitySchemes") if isinstance(components, dict) else None
    if not isinstance(raw, dict):
        return FrozenDict()
    try:
        frozen: Mapping[str, Any] = freeze(raw)
    except SktypesError:
        return FrozenDict()
    return frozen
