"""What a generated package's ``views.json`` records of its spec, and the plugin read back.

``sktypes serve`` of a generated package needs, besides each operation's view, what binds
the view to HTTP: the operation's method, path, tags and ids (for ``--include``), its
parameters' places (a next-page URL read back into arguments), its response's media type,
and the spec's version, servers and security schemes (credentials). ``views.json`` records
them (:func:`spec_record`, :func:`operation_record`), so the package is served from what
it carries: :func:`plugin_from_records` gives the :class:`OpenApiPlugin` that
``load_openapi`` would give for the operations the package was generated with, without
reading (or validating) the spec. Request bodies and response schemas are not recorded:
the views hold those, and the generated methods build the requests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sktypes.errors import SktypesError
from sktypes.generated import Binding
from sktypes.openapi._model import OpenApiPlugin, Operation, OperationParameter
from sktypes.remote import Pagination, Stream
from sktypes.views import FunctionView

__all__ = ["operation_features", "operation_record", "plugin_from_records", "spec_record"]


def spec_record(plugin: OpenApiPlugin) -> dict[str, Any]:
    """What ``views.json`` records of the spec as a whole (its ``spec`` member)."""
    return {
        "title": plugin.title,
        "version": plugin.version,
        "openapi": plugin.openapi_version,
        "servers": list(plugin.servers),
        "security_schemes": plugin.security_schemes,
    }


def operation_record(op: Operation) -> dict[str, Any]:
    """What ``views.json`` records of ``op`` besides its view (its ``operation`` member)."""
    out: dict[str, Any] = {"method": op.method, "path": op.path, "pointer": op.pointer}
    if op.operation_id is not None:
        out["id"] = op.operation_id
    if op.tags:
        out["tags"] = list(op.tags)
    if op.response_content_type is not None:
        out["content_type"] = op.response_content_type
    if op.servers:
        out["servers"] = list(op.servers)
    if op.security:
        out["security"] = [{k: list(v) for k, v in s.items()} for s in op.security]
    if op.parameters:
        out["parameters"] = [
            [p.name, p.location, p.argument, p.required, p.style, p.explode, p.allow_reserved]
            for p in op.parameters
        ]
    return out


def operation_features(op: Operation) -> dict[str, Any]:
    """What ``views.json`` records of ``op`` besides its view and method binding.

    The operation itself (:func:`operation_record`), and how it pages or streams.
    """
    out: dict[str, Any] = {"operation": operation_record(op)}
    if op.pagination is not None:
        out["pagination"] = op.pagination.to_dict()
    if op.stream is not None:
        out["stream"] = op.stream.to_dict()
    return out


def plugin_from_records(
    name: str,
    bindings: Sequence[Binding],
    spec: Mapping[str, Any],
    source: str,
) -> OpenApiPlugin | None:
    """The plugin ``views.json`` records (``None``: it records no spec, an older package).

    Each binding carries its view and its features (``operation``, ``pagination``,
    ``stream``).

    Raises:
        SktypesError: a record is malformed (the message names the function).
    """
    if not spec or any("operation" not in b.features for b in bindings):
        return None
    operations = []
    for binding in bindings:
        view = binding.view
        try:
            operations.append(_operation(view, binding.features))
        except (KeyError, TypeError, ValueError) as exc:
            raise SktypesError(
                f"{source}: {view.name}: a malformed operation record ({exc})"
            ) from None
    return OpenApiPlugin(
        name=name,
        title=str(spec.get("title", name)),
        version=str(spec.get("version", "")),
        openapi_version=str(spec["openapi"]),
        servers=tuple(spec.get("servers", ())),
        security_schemes=spec.get("security_schemes") or {},
        warnings=[],
        operations=operations,
        source=source,
    )


def _operation(view: FunctionView, found: Mapping[str, Any]) -> Operation:
    record = found["operation"]
    paging, stream = found.get("pagination"), found.get("stream")
    return Operation(
        name=view.name,
        view=view,
        operation_id=record.get("id"),
        method=record["method"],
        path=record["path"],
        pointer=record["pointer"],
        parameters=tuple(
            OperationParameter(n, loc, arg, req, style, explode, reserved)
            for n, loc, arg, req, style, explode, reserved in record.get("parameters", ())
        ),
        response_content_type=record.get("content_type"),
        servers=tuple(record.get("servers", ())),
        security=tuple({k: tuple(v) for k, v in s.items()} for s in record.get("security", ())),
        tags=tuple(record.get("tags", ())),
        pagination=Pagination.from_dict(paging) if paging is not None else None,
        stream=Stream.from_dict(stream) if stream is not None else None,
    )
