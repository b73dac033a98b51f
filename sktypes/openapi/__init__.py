"""OpenAPI ingestion: Swagger 2.0 / OpenAPI 3.0 / 3.1 documents → function views.

``load_openapi(source)`` returns an :class:`OpenApiPlugin`: one
:class:`~sktypes.views.FunctionView` per operation (parameters *and* the 2xx response as
self-contained draft 2020-12 schemas) and one :class:`Operation` per view with what an HTTP
client needs (method, path, parameter locations and styles, body media type).

Modules, by kind: ``_source`` (reading, YAML limits), ``_refs`` (``$ref`` resolution with
``referencing``), ``_schemas`` (schema conversion, shared ``$defs``), ``_params`` and
``_operations`` (operations → views), ``_naming``, ``_validate`` (openapi-spec-validator),
``_load`` (the entry point), ``_model`` (the public result types).
"""

from __future__ import annotations

from sktypes.openapi._load import Source, load_openapi, spec_files
from sktypes.openapi._model import (
    BodyField,
    OpenApiPlugin,
    Operation,
    OperationParameter,
    OperationResponse,
    ParameterLocation,
    RequestBody,
)
from sktypes.openapi._select import FilterError, select_operations
from sktypes.openapi._source import DEFAULT_MAX_BYTES

__all__ = [
    "DEFAULT_MAX_BYTES",
    "BodyField",
    "FilterError",
    "OpenApiPlugin",
    "Operation",
    "OperationParameter",
    "OperationResponse",
    "ParameterLocation",
    "RequestBody",
    "Source",
    "load_openapi",
    "spec_files",
    "select_operations",
]
