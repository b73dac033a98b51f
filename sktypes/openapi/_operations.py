"""One OpenAPI operation → an :class:`Operation` (for requests) and a function view.

View parameters: path, query, header and cookie parameters in spec order, then the
request body as one ``body`` parameter or, with ``flatten_body``, one parameter per
top-level property. Return: the lowest 2xx response (``default`` only when there is no 2xx
at all); its JSON body schema (else its first body with a schema), or *no schema* when it
has no body.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from sktypes.errors import SktypesError
from sktypes.jsondoc import FrozenDict, JsonDocument, thaw
from sktypes.openapi._model import (
    BodyField,
    Operation,
    OperationParameter,
    OperationResponse,
    RequestBody,
)
from sktypes.openapi._params import (
    BodySource,
    ParamContext,
    collect_parameters,
    pick_media_type,
    request_body,
    swagger2_body,
)
from sktypes.openapi._refs import Place
from sktypes.schema import Node, ObjectNode, Property, RefNode, parse
from sktypes.schema._emit import Emitter
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

__all__ = ["OperationBuilder", "describe", "server_urls"]

_SUCCESS = re.compile(r"^2(\d\d|XX)$", re.IGNORECASE)


def describe(summary: Any, description: Any) -> str:
    """The view description from ``summary`` and ``description`` (either may be absent)."""
    s = summary.strip() if isinstance(summary, str) else ""
    d = description.strip() if isinstance(description, str) else ""
    if not s or d.startswith(s):
        return d
    if not d:
        return s
    return f"{s}\n\n{d}"


class OperationBuilder:
    """Builds operations and views of one plugin (shares the converter's component cache)."""

    def __init__(
        self,
        ctx: ParamContext,
        plugin_name: str,
        *,
        flatten_body: bool,
        produces: tuple[str, ...],
        servers: tuple[str, ...],
        security: Any,
        warn: Callable[[str, Place], None],
    ) -> None:
        self._ctx = ctx
        self._plugin = plugin_name
        self._flatten = flatten_body
        self._produces = produces
        self._servers = servers
        self._security = security
        self._warn = warn

    def build(
        self,
        name: str,
        method: str,
        path: str,
        op: dict[str, Any],
        op_place: Place,
        item: dict[str, Any],
        item_place: Place,
        item_servers: tuple[str, ...],
    ) -> tuple[Operation, FunctionView]:
        """Build the operation ``method path`` and its view."""
        ctx = self._ctx
        params, extra = collect_parameters(
            ctx,
            item.get("parameters"),
            op.get("parameters"),
            item_place.child("parameters"),
            op_place.child("parameters"),
        )
        if ctx.swagger2:
            consumes = _media_list(op.get("consumes")) or ctx.consumes
            body = swagger2_body(ctx, extra, consumes)
        elif "requestBody" in op:
            body = request_body(ctx, op["requestBody"], op_place.child("requestBody"))
        else:
            body = None
        responses = self._responses(op, op_place)
        ret = _success(responses)
        view_params = [_param_view(p) for p in params]
        taken = {p.argument for p in params}
        request = None
        if body is not None:
            request, body_views = self._body(body, taken, op_place)
            view_params.extend(body_views)
        operation_id = op.get("operationId")
        servers = server_urls(op.get("servers"), op_place) or item_servers or self._servers
        operation = Operation(
            name=name,
            operation_id=operation_id if isinstance(operation_id, str) else None,
            method=method,
            path=path,
            pointer=op_place.pointer,
            summary=_text(op.get("summary")),
            description=_text(op.get("description")),
            parameters=tuple(params),
            request_body=request,
            success_status=ret.status if ret is not None else None,
            response_content_type=ret.content_type if ret is not None else None,
            response_schema=ret.schema if ret is not None else None,
            responses=tuple(responses),
            servers=servers,
            security=_security(op.get("security", self._security)),
            tags=tuple(t for t in op.get("tags") or () if isinstance(t, str)),
            deprecated=op.get("deprecated") is True,
        )
        view = FunctionView(
            name=name,
            plugin_name=self._plugin,
            description=describe(op.get("summary"), op.get("description")),
            parameters=tuple(view_params),
            return_parameter=ReturnParameterView(
                description=ret.description if ret is not None else None,
                schema=ret.schema if ret is not None else None,
            ),
        )
        return operation, view

    # -- body ----------------------------------------------------------------------------
    def _body(
        self, body: BodySource, taken: set[str], op_place: Place
    ) -> tuple[RequestBody, list[ParameterView]]:
        fields = _object_fields(body.schema) if self._flatten else None
        if self._flatten and fields is None:
            self._warn(
                "flatten_body: the body is not an object with properties; kept whole", body.place
            )
        if fields is not None and body.schema is not None:
            views: list[ParameterView] = []
            out_fields: list[BodyField] = []
            for prop, node, schema in fields:
                argument = prop.name if prop.name not in taken else f"body_{prop.name}"
                taken.add(argument)
                out_fields.append(BodyField(argument, prop.name))
                views.append(
                    ParameterView(
                        name=argument,
                        description=_text(node.description),
                        default_value=thaw(node.default) if node.has_default else None,
                        is_required=prop.required,
                        schema=schema,
                    )
                )
            request = RequestBody(
                content_type=body.content_type,
                content_types=body.content_types,
                required=body.required,
                schema=body.schema,
                argument=None,
                fields=tuple(out_fields),
                description=body.description,
                encoding=body.encoding,
            )
            return request, views
        argument = "body" if "body" not in taken else "request_body"
        request = RequestBody(
            content_type=body.content_type,
            content_types=body.content_types,
            required=body.required,
            schema=body.schema,
            argument=argument,
            description=body.description,
            encoding=body.encoding,
        )
        view = ParameterView(
            name=argument,
            description=body.description,
            is_required=body.required,
            schema=body.schema,
        )
        return request, [view]

    # -- responses -----------------------------------------------------------------------
    def _responses(self, op: dict[str, Any], op_place: Place) -> list[OperationResponse]:
        """Every declared response, in spec order (a broken one has no body: warned about)."""
        responses = op.get("responses")
        if not isinstance(responses, dict):
            return []
        out: list[OperationResponse] = []
        for code in responses:
            out.append(self._response(op, op_place, str(code), responses[code]))
        return out

    def _response(
        self, op: dict[str, Any], op_place: Place, status: str, raw: Any
    ) -> OperationResponse:
        place = op_place.child("responses", status)
        response, r_place = self._ctx.refs.follow(raw, place, "response")
        if not isinstance(response, dict):
            self._warn("a response must be an object; ignored", place)
            return OperationResponse(status)
        description = _text(response.get("description"))
        if self._ctx.swagger2:
            produces = _media_list(op.get("produces")) or self._produces or ("application/json",)
            if "schema" not in response:
                return OperationResponse(status, description)
            chosen = pick_media_type(list(produces)) or "application/json"
            schema = self._ctx.schemas.view_schema(
                response["schema"], r_place.child("schema"), "response"
            )
            return OperationResponse(status, description, produces, chosen, schema)
        content = response.get("content")
        if not isinstance(content, dict) or not content:
            return OperationResponse(status, description)
        types = tuple(str(t) for t in content)
        with_schema = [t for t in types if isinstance(content[t], dict) and "schema" in content[t]]
        picked = pick_media_type(with_schema) or pick_media_type(list(types))
        media = content.get(picked) if picked else None
        if not isinstance(media, dict) or "schema" not in media:
            return OperationResponse(status, description, types, picked)
        where = r_place.child("content", str(picked), "schema")
        schema = self._ctx.schemas.view_schema(media["schema"], where, "response")
        return OperationResponse(status, description, types, picked, schema)


def _success(responses: list[OperationResponse]) -> OperationResponse | None:
    """The response whose body is the return value: the lowest 2xx, else ``default``."""
    success = sorted(
        (r for r in responses if _SUCCESS.match(r.status)), key=lambda r: r.status.upper()
    )
    if success:
        return success[0]
    return next((r for r in responses if r.status == "default"), None)


def _param_view(p: OperationParameter) -> ParameterView:
    value = p.schema.value if p.schema is not None else None
    default = value.get("default") if isinstance(value, Mapping) else None
    return ParameterView(
        name=p.argument,
        description=p.description,
        default_value=None if p.required else _thawed(default),
        is_required=p.required,
        schema=p.schema,
    )


def _thawed(value: Any) -> Any:
    """A schema's ``default`` as a plain Python value (views hold native defaults)."""
    return JsonDocument(value).to_python() if isinstance(value, (FrozenDict, tuple)) else value


def _object_fields(schema: JsonDocument | None) -> list[tuple[Property, Node, Any]] | None:
    """The body's properties, each with its own schema (and the definitions it needs).

    Read through the schema model: a body that is a reference to an object, or an
    ``allOf`` of objects, has properties too. Each property keeps the schema the spec
    wrote where that is exactly its node, else the node written back.
    """
    if schema is None:
        return None
    model = parse(schema)
    root = model.resolve(model.root) if isinstance(model.root, RefNode) else model.root
    if not isinstance(root, ObjectNode) or not root.properties:
        return None
    defs = schema.value.get("$defs") if isinstance(schema.value, Mapping) else None
    out: list[tuple[Property, Node, Any]] = []
    for prop in root.properties:
        written: Any = None
        if prop.node.pointer:
            try:
                written = schema.pointer(prop.node.pointer)
            except SktypesError:
                written = None
        if not isinstance(written, Mapping) or model.subschema(written) != prop.node:
            written = FrozenDict(Emitter(model).emit(prop.node))
        used = model.definitions_used(prop.node)
        if used and isinstance(defs, Mapping):
            written = FrozenDict(
                {**written, "$defs": FrozenDict({k: defs[k] for k in used if k in defs})}
            )
        out.append((prop, prop.node, written))
    return out


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _media_list(value: Any) -> tuple[str, ...]:
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def server_urls(value: Any, place: Place) -> tuple[str, ...]:
    """Server URLs with variables replaced by their defaults."""
    if not isinstance(value, list):
        return ()
    urls: list[str] = []
    for server in value:
        if not isinstance(server, dict) or not isinstance(server.get("url"), str):
            continue
        url: str = server["url"]
        variables = server.get("variables")
        if isinstance(variables, dict):
            for var, spec in variables.items():
                if isinstance(spec, dict) and "default" in spec:
                    url = url.replace("{" + str(var) + "}", str(spec["default"]))
        urls.append(url)
    return tuple(urls)


def _security(value: Any) -> tuple[Mapping[str, tuple[str, ...]], ...]:
    if not isinstance(value, list):
        return ()
    out: list[Mapping[str, tuple[str, ...]]] = []
    for req in value:
        if isinstance(req, dict):
            out.append(
                FrozenDict(
                    {
                        str(k): tuple(s for s in v if isinstance(s, str))
                        if isinstance(v, list)
                        else ()
                        for k, v in req.items()
                    }
                )
            )
    return tuple(out)
