"""OpenAPI operations (through ``sktypes.load_openapi``) → the context of a plugin package.

Driven by the views and :class:`~sktypes.openapi.Operation` objects only, never by the raw
spec, so Swagger 2.0, OpenAPI 3.0 and 3.1 generate alike. Each operation becomes a
``_<name>_request`` builder plus an ``async`` method (and a ``*_sync`` twin on request).
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sktypes.jsondoc import JsonDocument
from sktypes.openapi import OpenApiPlugin, Operation
from sktypes.remote import idempotency_header
from sktypes.views import FunctionView
from sktypes_codegen._annotations import (
    ANY,
    BYTES,
    NONE,
    STR,
    Expr,
    Raw,
    Subscript,
    class_refs,
)
from sktypes_codegen._annotations import render as render_expr
from sktypes_codegen._constructor import INIT_NAMES, Constructor, constructor
from sktypes_codegen._iterators import (
    ASYNC_ITERATOR,
    ITERATOR,
    MAX_PAGES,
    STRICT,
    PageMethods,
    StreamMethod,
    sse_of,
)
from sktypes_codegen._naming import Namespace, class_name, identifier, import_order, py_string
from sktypes_codegen._render import Literal, Param, assignment, call, collection, line_length
from sktypes_codegen._responses import (
    ErrorResponse,
    accepted,
    error_handles,
    error_responses,
    raises_section,
)
from sktypes_codegen._schemas import Handle, SchemaSet
from sktypes_codegen._types import AliasDef, ClassDef, TypeBuilder

__all__ = ["OperationContext", "PluginContext", "plugin_context"]

_STRICT = STRICT
_CONTENT_TYPE = "content_type"
_ARGUMENT_NAMES = {"self", "response", "result", _STRICT, _CONTENT_TYPE}
# names the class body itself evaluates while the class is created: a method of the same
# name, defined earlier in the body, would shadow them for every later operation
_CLASS_BODY_NAMES = {"kernel_function"}
_JSON = re.compile(r"^application/([\w.+-]+\+)?json|/json$|^\*/\*$")


@dataclass(slots=True)
class OperationContext:
    """One operation, as the plugin template renders it."""

    name: str
    view: FunctionView
    """The operation's view (what ``views.json`` records for the method)."""
    method_name: str
    request_name: str
    method: str
    path: str
    description: str
    summary: str
    params: list[Param]
    call_args: str
    groups: list[tuple[str, list[str]]]
    body: str | None
    content_type: str | None
    returns: Expr
    result_kind: str  # "none" | "json" | "text" | "bytes" | "stream"
    accept: tuple[str, ...] = ()
    """Every media type the responses declare (the runtime sends ``Accept`` from them)."""
    errors: list[ErrorResponse] = field(default_factory=list)
    """The declared non-2xx responses and the types of their bodies."""
    security: list[dict[str, list[str]]] | None = None
    """The operation's security requirements (``None``: the spec has no schemes)."""
    idempotency_key: str | None = None
    """The header parameter carrying an idempotency key (the POST is then retried)."""
    content_types: tuple[str, ...] = ()
    """Every media type the request body may be sent as, when there is a choice."""
    wildcard_body: bool = False
    """The body's media type is a wildcard: the method takes ``content_type=``."""
    arguments: dict[str, str] = field(default_factory=dict)
    """View parameter name → Python argument name, where they differ."""
    tag: str = ""
    """The operation's first tag (``""`` without tags): its submodule when split by tag."""
    models: frozenset[str] = frozenset()
    """The generated classes its signature names (what its module imports from the models)."""
    pages: PageMethods | None = None
    """Its ``_iter`` methods, when it is paginated."""
    stream: StreamMethod | None = None
    """How its methods read the items of its streamed answer, when it streams."""

    @property
    def returns_sync(self) -> Expr:
        """The blocking twin's return annotation (``Iterator[...]`` for a stream)."""
        if self.stream is not None:
            return Subscript(ITERATOR, (self.stream.item,))
        return self.returns

    def annotations(self) -> list[Expr]:
        """Every annotation of its signatures and errors (for imports and model references)."""
        own = [
            self.returns,
            *(a for _, a, _ in self.params if a is not None),
            *(e.annotation for e in self.errors if e.annotation is not None),
        ]
        if self.stream is not None:
            own.append(self.stream.item)
        return own + (self.pages.annotations() if self.pages is not None else [])

    @property
    def method_params(self) -> list[Param]:
        """The public method's parameters: the request's, then ``*, strict=None``."""
        params = list(self.params)
        if not self.wildcard_body:
            params.append(("*", None, None))
        params.append((_STRICT, Raw("bool | None"), "None"))
        return params

    @property
    def request_params(self) -> list[Param]:
        """The request builder's parameters (``content_type`` for a wildcard body)."""
        return self.params

    def docstring(self) -> list[str]:
        """The ``Raises:`` section of the method's docstring."""
        return raises_section(self.errors, render_expr, streamed=self.stream is not None)

    def request_extras(self) -> list[str]:
        """The ``Request(...)`` keyword arguments beyond parameters and body (code lines)."""
        extras: dict[str, Literal] = {}
        if self.content_types:
            extras["content_types"] = tuple(py_string(t) for t in self.content_types)
        if self.wildcard_body:
            extras["body_content_type"] = _CONTENT_TYPE
        if self.accept:
            extras["accept"] = tuple(py_string(t) for t in self.accept)
        if self.errors:
            extras["errors"] = {
                py_string(e.status): e.annotation for e in self.errors if e.annotation is not None
            }
            if not extras["errors"]:
                del extras["errors"]
        if self.security is not None:
            extras["security"] = [
                {py_string(k): [py_string(s) for s in v] for k, v in r.items()}
                for r in self.security
            ]
        if self.idempotency_key is not None:
            extras["idempotency_key"] = py_string(self.idempotency_key)
        return [f"{k}={collection(v, 12, len(k) + 1, 1)}" for k, v in extras.items()]

    def code(self, is_async: bool) -> str:
        """The method body after the docstring: send, then read the response as the result."""
        send = "await self._call" if is_async else "self._call_sync"
        pad = " " * 8
        if self.stream is not None:
            inner = f"self.{self.request_name}({self.call_args})"
            if 8 + len(inner) + 30 > line_length():
                inner = call(f"self.{self.request_name}", self.call_args.split(", "), 12)
            return self.stream.code(inner, is_async)
        none = self.result_kind == "none"
        target = "None" if none else render_expr(self.returns)
        inner = f"self.{self.request_name}({self.call_args})"
        given = [a for a in self.call_args.split(", ") if a]
        if given and 12 + len(inner) + 1 > line_length():  # the argument line ends with a comma
            inner = call(f"self.{self.request_name}", given, 12, ",")[:-1]
        args = [inner, target, _STRICT]
        if none:
            return pad + call(send, args, 8)
        head = f"result: {target} = {send}"
        if 8 + len(f"{head}(") <= line_length():
            return f"{pad}{call(head, args, 8)}\n{pad}return result"
        declared = assignment("result", self.returns, None, 8)
        return f"{pad}{declared}\n{pad}{call('result = ' + send, args, 8)}\n{pad}return result"


@dataclass(slots=True)
class PluginContext:
    """The whole plugin: class, constructor, operations and the models they use."""

    class_name: str
    title: str
    description: str
    base_url: str
    init: Constructor
    operations: list[OperationContext] = field(default_factory=list)
    classes: list[ClassDef] = field(default_factory=list)
    aliases: list[AliasDef] = field(default_factory=list)
    model_names: list[str] = field(default_factory=list)
    unexpressed: list[tuple[str, str, str, str]] = field(default_factory=list)
    """What the schemas say that the generated code cannot: ``(file, pointer, keyword,
    note)`` each, ``file`` empty for the spec itself (see :class:`Unexpressed`)."""


def plugin_context(
    plugin: OpenApiPlugin, description: str = "", *, named_after: str | None = None
) -> PluginContext:
    """Build the template context of ``plugin`` (deterministic: spec order throughout).

    ``named_after``: what the plugin class is named after (default: the plugin's name).
    """
    cls: str = class_name(named_after or plugin.name, prefix="Api")
    cls = cls if cls.endswith("Plugin") else f"{cls}Plugin"
    schemas = SchemaSet()
    handles = [_handles(op.view, op, schemas) for op in plugin.operations]
    schemas.parse()
    taken = {cls, *_RUNTIME_NAMES}
    builder = TypeBuilder(schemas, "pydantic", taken=taken)
    init = constructor(plugin.security_schemes)
    ctx = PluginContext(
        class_name=cls,
        title=plugin.title,
        description=description,
        base_url=plugin.servers[0] if plugin.servers else "http://localhost",
        init=init,
    )
    methods = Namespace(INIT_NAMES | _CLASS_BODY_NAMES | _CLIENT_METHODS)
    secured = bool(init.schemes)
    for op, found in zip(plugin.operations, handles, strict=True):
        view = schemas.typed(op.view, found.parameters, found.result)
        ctx.operations.append(_operation(view, op, builder, methods, found, secured))
    ctx.classes = builder.ordered_classes()
    ctx.aliases = builder.ordered_aliases()
    ctx.unexpressed = schemas.placed(builder.warnings, plugin.definitions)
    names = frozenset(c.name for c in ctx.classes) | frozenset(a.name for a in ctx.aliases)
    for done in ctx.operations:
        done.models = frozenset(class_refs(done.annotations())) & names
    used = frozenset().union(*(done.models for done in ctx.operations))
    ctx.model_names = sorted(used, key=import_order)
    return ctx


_RUNTIME_NAMES = {
    "ApiClient",
    "ClientCredentials",
    "Request",
    "Retry",
    "Scheme",
    "SecurityCredentials",
    "SECURITY_SCHEMES",
    "DEFAULT_BASE_URL",
}
"""Names the plugin module defines or imports: generated classes must not take them."""

_CLIENT_METHODS = {
    "_send",
    "_send_sync",
    "_build",
    "_call",
    "_call_sync",
    "_stream",
    "_stream_sync",
    "_exchange",
    "_exchange_sync",
    "_result",
    "_configure",
}
"""``ApiClient``'s own methods, which no operation's method may shadow."""


@dataclass(slots=True)
class _Handles:
    """Where an operation's schemas went in the module's :class:`SchemaSet`."""

    parameters: dict[str, Handle]
    result: Handle | None
    errors: dict[str, Handle] = field(default_factory=dict)
    item: Handle | None = None


def _handles(view: FunctionView, op: Operation, schemas: SchemaSet) -> _Handles:
    body = op.request_body.argument if op.request_body is not None else None
    params = {}
    for p in view.parameters:
        if p.schema is None:
            continue
        if p.name == body and op.request_body is not None:
            place = f"{op.pointer}/requestBody/content/{_escape(op.request_body.content_type)}"
            params[p.name] = schemas.add(p.schema, f"{place}/schema", "the request body")
        else:
            where = f"{op.pointer}/parameters"
            params[p.name] = schemas.add(p.schema, where, f"parameter {p.name!r}")
    ret = view.return_parameter.schema
    result = None
    if ret is not None and _result_kind(ret.value, op) == "json":
        status = op.success_status or "default"
        where = f"{op.pointer}/responses/{_escape(status)}"
        result = schemas.add(ret, where, "the response body")
    item = None
    where = f"{op.pointer}/responses/{_escape(op.success_status or 'default')}"
    if op.pagination is not None and op.item_schema is not None:
        item = schemas.add(op.item_schema, where, "the items of a page")
    if op.stream is not None and op.item_schema is not None:
        streamed = _sse_data(op.item_schema) if op.stream.format == "sse" else op.item_schema
        item = schemas.add(streamed, where, "the items of the stream")
    return _Handles(params, result, error_handles(op, schemas), item)


def _sse_data(event: JsonDocument) -> JsonDocument:
    """The data schema inside the event schema ``sktypes.openapi`` builds for a stream."""
    value = event.value
    data = value["properties"]["data"]
    defs = value.get("$defs")
    return JsonDocument({**data, "$defs": defs} if defs and isinstance(data, Mapping) else data)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _operation(
    view: FunctionView,
    op: Operation,
    builder: TypeBuilder,
    methods: Namespace,
    handles: _Handles,
    secured: bool = False,
) -> OperationContext:
    base = class_name(view.name, prefix="Op")
    method_name = methods.claim(view.name, identifier(view.name, prefix="call"))
    request_name = methods.claim(f"request:{view.name}", f"_{method_name}_request")
    args = Namespace(_ARGUMENT_NAMES | ({MAX_PAGES} if op.pagination else set()))
    params: list[Param] = [("self", None, None)]
    call_args: list[str] = []
    arg_of: dict[str, str] = {}
    ordered = sorted(view.parameters, key=lambda p: not p.is_required)  # required first
    for p in ordered:
        name = p.name if _usable(p.name) else identifier(p.name, prefix="arg")
        arg = args.claim(p.name, name)
        arg_of[p.name] = arg
        handle = handles.parameters.get(p.name)
        hint = f"{base}{class_name(p.name)}"
        ann: Expr
        if handle is None:
            ann, default = (ANY, None) if p.is_required else (ANY, "MISSING")
        else:
            ann, default = builder.parameter(handle, hint, p.is_required)
        params.append((arg, ann, default))
        call_args.append(f"{arg}={arg}")
    groups: dict[str, list[str]] = {"path_params": [], "query": [], "headers": [], "cookies": []}
    group_of = {"path": "path_params", "query": "query", "header": "headers", "cookie": "cookies"}
    for param in op.parameters:
        wire = arg_of.get(param.argument)
        if wire is None:
            continue
        style = "json" if param.content_type else param.style
        parts = [py_string(param.name), wire, py_string(style), repr(param.explode)]
        item = call("", parts, 16, ",")[:-1]  # a tuple in the group's list, 16 columns in
        groups[group_of[param.location]].append(item)
    body = None
    content_type = None
    content_types: tuple[str, ...] = ()
    wildcard = False
    if op.request_body is not None and op.request_body.argument in arg_of:
        body = arg_of[op.request_body.argument]
        content_type = op.request_body.content_type
        declared = op.request_body.content_types
        wildcard = any("*" in t for t in declared)
        if len(declared) > 1 or wildcard:
            content_types = declared
    if wildcard:
        params += [("*", None, None), (_CONTENT_TYPE, Raw("str | None"), "None")]
        call_args.append(f"{_CONTENT_TYPE}={_CONTENT_TYPE}")
    errors = error_responses(
        op,
        {
            s: builder.annotation(h, f"{base}Error{_status_name(s)}")
            for s, h in handles.errors.items()
        },
    )
    headers = [p.name for p in op.parameters if p.location == "header"]
    ret = view.return_parameter.schema
    kind = _result_kind(ret.value if ret is not None else None, op)
    if handles.result is not None:
        returns = builder.annotation(handles.result, f"{base}Result")
    else:  # a JSON body without a schema comes back as the JSON it is
        returns = {"none": NONE, "text": STR, "bytes": BYTES}.get(kind, ANY)
    stream = None
    if op.stream is not None:
        each = builder.annotation(handles.item, f"{base}Item") if handles.item else ANY
        if op.stream.format == "sse":
            each = sse_of(each)
        stream = StreamMethod(op.stream, each)
        returns = Subscript(ASYNC_ITERATOR, (each,))
    pages = None
    if op.pagination is not None:
        pages = _page_methods(view, op, builder, methods, handles, method_name, arg_of)
        star: list[Param] = [] if wildcard else [("*", None, None)]
        pages.params = [
            *params,
            *star,
            (MAX_PAGES, Raw("int | None"), "None"),
            (_STRICT, Raw("bool | None"), "None"),
        ]
        pages.request_name = request_name
    return OperationContext(
        pages=pages,
        stream=stream,
        name=view.name,
        view=view,
        method_name=method_name,
        request_name=request_name,
        method=op.method,
        path=op.path,
        description=view.description,
        summary=op.summary or _first_sentence(view.description),
        params=params,
        call_args=", ".join(call_args),
        groups=list(groups.items()),
        body=body,
        content_type=content_type,
        returns=returns,
        result_kind=kind,
        accept=accepted(op),
        errors=errors,
        security=[{k: list(v) for k, v in r.items()} for r in op.security] if secured else None,
        idempotency_key=idempotency_header(headers),
        content_types=content_types,
        wildcard_body=wildcard,
        arguments={k: v for k, v in arg_of.items() if k != v},
        tag=op.tags[0] if op.tags else "",
    )


def _page_methods(
    view: FunctionView,
    op: Operation,
    builder: TypeBuilder,
    methods: Namespace,
    handles: _Handles,
    method_name: str,
    arg_of: dict[str, str],
) -> PageMethods:
    """The ``_iter`` methods of a paginated operation (its arguments renamed for Python)."""
    assert op.pagination is not None
    name = methods.claim(f"iter:{view.name}", f"{method_name}_iter")
    methods.claim(f"iter_sync:{view.name}", f"{name}_sync")
    hint = f"{class_name(view.name, prefix='Op')}Item"
    item = builder.annotation(handles.item, hint) if handles.item is not None else ANY
    return PageMethods(
        name=name,
        pagination=op.pagination.renamed(arg_of),
        item=item,
        params=[],
        arguments=list(arg_of.values()),
        request_name="",
        operation=view.name,
    )


def _result_kind(schema: Any, op: Operation) -> str:
    """How the response body comes back: ``json``, ``text``, ``bytes``, ``stream``, ``none``."""
    if op.stream is not None:
        return "stream"
    if op.response_content_type is None:
        return "none"
    ctype = op.response_content_type.split(";")[0].strip().lower()
    if _JSON.search(ctype):
        return "json"
    if (isinstance(schema, Mapping) and schema.get("format") == "binary") or not ctype.startswith(
        "text/"
    ):
        return "bytes"
    return "text"


def _status_name(status: str) -> str:
    """``404`` → ``404``, ``4XX`` → ``4xx``, ``default`` → ``Default`` (class name hints)."""
    return status.capitalize() if status.isalpha() else status.lower()


def _first_sentence(text: str) -> str:
    """Return the docstring summary: the first line, cut after its first sentence.

    The full text is the kernel function's ``description``.
    """
    line = text.strip().split("\n", 1)[0] if text.strip() else ""
    head, dot, _ = line.partition(". ")
    return head + "." if dot else line


def _usable(name: str) -> bool:
    """A view parameter name that can be a Python argument as it is (``petId`` can)."""
    return (
        name.isidentifier()
        and name.isascii()
        and not keyword.iskeyword(name)
        and not name.startswith("_")
        and name not in _ARGUMENT_NAMES
    )
