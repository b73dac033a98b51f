"""What an OpenAPI operation needs to become an HTTP request: the public ``Operation`` API.

The code generator (``sktypes_codegen/``) and the kernel build requests from these objects; the
function views only say what a model sends. Everything here is frozen. Schemas are
:class:`~sktypes.jsondoc.JsonDocument` values in JSON Schema draft 2020-12, self-contained
(shared components under their own ``$defs``), exactly as in the views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from sktypes.jsondoc import JsonDocument
from sktypes.remote._pages import Pagination
from sktypes.remote._streams import Stream
from sktypes.views import FunctionView

if TYPE_CHECKING:
    from sktypes.openapi._verdicts import Verdict

__all__ = [
    "BodyField",
    "OpenApiPlugin",
    "Operation",
    "OperationParameter",
    "OperationResponse",
    "ParameterLocation",
    "RequestBody",
]

ParameterLocation = Literal["path", "query", "header", "cookie"]
"""Where a parameter travels (OpenAPI's ``in``)."""


@dataclass(frozen=True, slots=True)
class OperationParameter:
    """One path, query, header or cookie parameter of an operation.

    Attributes:
        name: the name on the wire (``petId``, ``X-Request-Id``, ``page[size]``).
        location: ``path``, ``query``, ``header`` or ``cookie``.
        argument: the name of the view parameter (the key a model sends); usually
            ``name``, but ``<location>_<name>`` when two locations share a name.
        required: path parameters always are.
        style: OpenAPI serialization style, defaulted as the spec says (``simple`` for path
            and header, ``form`` for query and cookie); Swagger 2.0 ``collectionFormat`` is
            mapped (``csv`` → form/explode false, ``multi`` → form/explode true, ``ssv`` →
            ``spaceDelimited``, ``pipes`` → ``pipeDelimited``; ``tsv`` keeps ``tsv``).
        explode: defaulted as the spec says (``True`` only for style ``form``).
        allow_reserved: query only: send reserved characters unencoded.
        schema: the value's schema (draft 2020-12), ``None`` when the spec gives none.
        content_type: set when the parameter uses ``content`` (serialize the value as that
            media type, e.g. JSON in a query string) instead of ``style``.
        description: the parameter's description.
        deprecated: the spec marks it deprecated.
    """

    name: str
    location: ParameterLocation
    argument: str
    required: bool
    style: str
    explode: bool
    allow_reserved: bool = False
    schema: JsonDocument | None = None
    content_type: str | None = None
    description: str | None = None
    deprecated: bool = False


@dataclass(frozen=True, slots=True)
class BodyField:
    """One top-level body property exposed as its own view parameter (``flatten_body``).

    Attributes:
        argument: the view parameter name (the property name, or ``body_<name>`` on a clash).
        property: the property name inside the body object.
    """

    argument: str
    property: str


@dataclass(frozen=True, slots=True)
class RequestBody:
    """The request body of an operation.

    Attributes:
        content_type: the media type to send: JSON (``application/json`` or ``+json``) is
            preferred, then form (``application/x-www-form-urlencoded``), multipart, then the
            first the spec lists (e.g. ``application/octet-stream``).
        content_types: every media type the spec accepts, in spec order.
        required: the body must be sent.
        schema: the body schema in request form (``readOnly`` properties dropped).
        argument: the view parameter holding the whole body (``body`` unless that name is
            taken by another parameter, then ``request_body``); ``None`` when flattened.
        fields: with ``flatten_body=True`` and an object body: one entry per top-level
            property; the request body is the object built from those arguments.
        description: the body's description.
        encoding: the OpenAPI ``encoding`` object for form and multipart bodies, as given.
    """

    content_type: str
    content_types: tuple[str, ...]
    required: bool
    schema: JsonDocument | None
    argument: str | None = "body"
    fields: tuple[BodyField, ...] = ()
    description: str | None = None
    encoding: JsonDocument | None = None


@dataclass(frozen=True, slots=True)
class OperationResponse:
    """One response an operation declares (a status code, a range or ``default``).

    Attributes:
        status: as written: ``"200"``, ``"4XX"``, ``"default"``.
        description: the response's description.
        content_types: every media type it declares, in spec order (Swagger 2.0: the
            operation's ``produces``); empty when it has no body.
        content_type: the one its schema is read from (JSON preferred), ``None`` without a body.
        schema: that body's schema, response form (``writeOnly`` dropped); ``None`` when the
            spec gives none.
    """

    status: str
    description: str | None = None
    content_types: tuple[str, ...] = ()
    content_type: str | None = None
    schema: JsonDocument | None = None

    def matches(self, status_code: int) -> bool:
        """Whether this declaration covers ``status_code`` (``default`` covers every code)."""
        code = self.status.upper()
        if code == "DEFAULT":
            return True
        if len(code) == 3 and code.endswith("XX"):
            return code[0] == str(status_code)[0]
        return code == str(status_code)


@dataclass(frozen=True, slots=True)
class Operation:
    """One HTTP operation: everything needed to turn view arguments into a request.

    Attributes:
        name: the function name in the view (a unique identifier within the plugin).
        operation_id: the spec's ``operationId`` as written (``None`` if absent).
        method: lower-case HTTP method (``get``, ``post``, ...).
        path: the path template as written (``/pets/{petId}``), relative to a server URL.
        pointer: the JSON pointer of the operation in the spec (``/paths/~1pets/get``).
        summary: the spec's summary.
        description: the spec's description.
        parameters: path, query, header and cookie parameters (path-level ones merged in,
            operation-level ones win; ``Accept``/``Content-Type``/``Authorization`` headers
            are left out as OpenAPI says).
        request_body: ``None`` when the operation takes no body.
        success_status: the response code whose body becomes the return value (``"200"``,
            ``"201"``, ``"2XX"``; ``"default"`` when no 2xx response exists), ``None`` when
            the spec lists no responses.
        response_content_type: the media type of that response's body (JSON preferred),
            ``None`` when it has no body.
        response_schema: the schema of that body, response form (``writeOnly`` dropped).
        responses: every response the spec declares, in spec order (errors included).
        servers: server URLs for this operation (operation, then path, then spec level).
        security: the effective security requirements (operation-level or spec-level).
        tags: the spec's tags.
        deprecated: the spec marks the operation deprecated.
        pagination: how its pages chain, when it is paginated (declared by an extension
            or recognised: see ``docs/remote-client.md``); ``None`` otherwise.
        stream: how its answer streams (server-sent events, JSON lines, JSON text
            sequences), when it does; its view then returns the items
            (``is_streaming``; ``response_schema`` is the schema of one item).
        item_schema: paginated and streamed operations: the schema of one item,
            self-contained like ``response_schema``.
    """

    name: str
    operation_id: str | None
    method: str
    path: str
    pointer: str
    summary: str | None = None
    description: str | None = None
    parameters: tuple[OperationParameter, ...] = ()
    request_body: RequestBody | None = None
    success_status: str | None = None
    response_content_type: str | None = None
    response_schema: JsonDocument | None = None
    responses: tuple[OperationResponse, ...] = ()
    servers: tuple[str, ...] = ()
    security: tuple[Mapping[str, tuple[str, ...]], ...] = ()
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    pagination: Pagination | None = None
    stream: Stream | None = None
    item_schema: JsonDocument | None = None

    def response_for(self, status_code: int) -> OperationResponse | None:
        """The declared response of ``status_code`` (``None`` when none is declared).

        The exact code wins over its range (``4XX``), which wins over ``default``.
        """
        for rank in (0, 1, 2):
            for response in self.responses:
                code = response.status.upper()
                kind = 2 if code == "DEFAULT" else 1 if code.endswith("XX") else 0
                if kind == rank and response.matches(status_code):
                    return response
        return None

    def parameter(self, argument: str) -> OperationParameter:
        """Return the parameter whose view argument is ``argument`` (``KeyError`` if none)."""
        for p in self.parameters:
            if p.argument == argument:
                return p
        raise KeyError(argument)


@dataclass(frozen=True, slots=True)
class OpenApiPlugin:
    """An OpenAPI document loaded as a plugin: one function view per operation.

    Attributes:
        name: the plugin name (``plugin_name`` or ``info.title`` made an identifier).
        title: ``info.title``.
        version: ``info.version`` (the API's version, not OpenAPI's).
        openapi_version: ``"2.0"``, ``"3.0.3"``, ``"3.1.0"``, ...
        servers: server URLs (Swagger 2.0 ``schemes``/``host``/``basePath`` combined; server
            variables substituted with their defaults).
        security_schemes: ``components.securitySchemes`` (``securityDefinitions`` in 2.0),
            as given.
        warnings: what was skipped or repaired, each naming a JSON pointer.
        views: one :class:`~sktypes.views.FunctionView` per operation, in spec order.
        operations: the matching :class:`Operation` objects, same order.
        source: the file the spec came from (``<string>``/``<dict>`` otherwise).
        definitions: where each ``$defs`` name of the view schemas came from in the spec
            (``#/components/schemas/Pet``; ``<file>#<pointer>`` for another file), so a
            message about a definition can name its place in the spec.
        validation: openapi-spec-validator's verdict on the spec and the digest naming it
            (``None`` when loaded with ``validate=False``); generated packages record it.
    """

    name: str
    title: str
    version: str
    openapi_version: str
    servers: tuple[str, ...]
    security_schemes: Mapping[str, Any]
    warnings: list[str]
    views: list[FunctionView]
    operations: list[Operation]
    source: str
    definitions: Mapping[str, str] = field(default_factory=dict)
    validation: Verdict | None = field(default=None, compare=False)
    _by_name: dict[str, Operation] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self._by_name.update({op.name: op for op in self.operations})

    def operation(self, name: str) -> Operation:
        """Return the operation behind the view called ``name`` (``KeyError`` if none)."""
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"{self.name} has no operation {name!r}") from None

    def view(self, name: str) -> FunctionView:
        """Return the function view called ``name`` (``KeyError`` if none)."""
        for v in self.views:
            if v.name == name:
                return v
        raise KeyError(f"{self.name} has no function {name!r}")
