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

from sktypes.openapi import OpenApiPlugin, Operation
from sktypes.views import FunctionView
from sktypes_codegen._annotations import (
    ANY,
    BYTES,
    NONE,
    STR,
    Call,
    Expr,
    Name,
    Raw,
    class_refs,
)
from sktypes_codegen._naming import Namespace, class_name, identifier, import_order, py_string
from sktypes_codegen._render import Param, assignment, call, line_length
from sktypes_codegen._schemas import Handle, SchemaSet
from sktypes_codegen._types import AliasDef, ClassDef, TypeBuilder, Unexpressed

__all__ = ["OperationContext", "PluginContext", "plugin_context"]

_PARSE_JSON = Name("parse_json")
_OPTIONAL_STR = Raw("str | None")
_INIT_NAMES = {"self", "base_url", "client", "sync_client", "timeout", "credentials"}
# names the class body itself evaluates while the class is created: a method of the same
# name, defined earlier in the body, would shadow them for every later operation
_CLASS_BODY_NAMES = {"kernel_function"}
_JSON = re.compile(r"^application/([\w.+-]+\+)?json|/json$|^\*/\*$")


@dataclass(slots=True)
class OperationContext:
    """One operation, as the plugin template renders it."""

    name: str
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
    result_kind: str  # "none" | "json" | "text" | "bytes"
    arguments: dict[str, str] = field(default_factory=dict)
    """View parameter name → Python argument name, where they differ."""
    tag: str = ""
    """The operation's first tag (``""`` without tags): its submodule when split by tag."""
    models: frozenset[str] = frozenset()
    """The generated classes its signature names (what its module imports from the models)."""

    def annotations(self) -> list[Expr]:
        """Every annotation of its signature (for imports and model references)."""
        return [self.returns, *(a for _, a, _ in self.params if a is not None)]

    def code(self, is_async: bool) -> str:
        """The method body after the docstring: send, then turn the response into the result."""
        send = "await self._send" if is_async else "self._send_sync"
        pad = " " * 8
        head = send if self.result_kind == "none" else f"response = {send}"
        inner = f"self.{self.request_name}({self.call_args})"
        args = [a for a in self.call_args.split(", ") if a]
        if args and 8 + len(f"{head}({inner})") > line_length():  # the line ends with a comma
            inner = call(f"self.{self.request_name}", args, 12, ",")[:-1]
        lines = [pad + call(head, [inner], 8)]
        if self.result_kind == "none":
            return lines[0]
        if self.result_kind == "json":
            parse = Call(_PARSE_JSON, (self.returns, Raw("response")))
            lines.append(pad + assignment("result", self.returns, parse, 8))
            lines.append(f"{pad}return result")
        elif self.result_kind == "bytes":
            lines.append(f"{pad}return response.content")
        else:
            lines.append(f"{pad}return response.text")
        return "\n".join(lines)


@dataclass(slots=True)
class PluginContext:
    """The whole plugin: class, constructor, operations and the models they use."""

    class_name: str
    title: str
    description: str
    base_url: str
    init_params: list[Param]
    credentials: list[str]
    operations: list[OperationContext] = field(default_factory=list)
    classes: list[ClassDef] = field(default_factory=list)
    aliases: list[AliasDef] = field(default_factory=list)
    model_names: list[str] = field(default_factory=list)
    unexpressed: list[tuple[str, str, str, str]] = field(default_factory=list)
    """What the schemas say that the generated code cannot: ``(file, pointer, keyword,
    note)`` each, ``file`` empty for the spec itself (see :class:`Unexpressed`)."""


def plugin_context(plugin: OpenApiPlugin, description: str = "") -> PluginContext:
    """Build the template context of ``plugin`` (deterministic: spec order throughout)."""
    cls: str = class_name(plugin.name, prefix="Api")
    cls = cls if cls.endswith("Plugin") else f"{cls}Plugin"
    schemas = SchemaSet()
    handles = [
        _handles(view, op, schemas)
        for view, op in zip(plugin.views, plugin.operations, strict=True)
    ]
    schemas.parse()
    builder = TypeBuilder(schemas, "pydantic", taken={cls, "ApiClient", "Credential", "Request"})
    init_params, credentials = _constructor(plugin.security_schemes)
    ctx = PluginContext(
        class_name=cls,
        title=plugin.title,
        description=description,
        base_url=plugin.servers[0] if plugin.servers else "http://localhost",
        init_params=init_params,
        credentials=credentials,
    )
    methods = Namespace(_INIT_NAMES | _CLASS_BODY_NAMES | {"_send", "_send_sync", "_build"})
    for view, op, found in zip(plugin.views, plugin.operations, handles, strict=True):
        ctx.operations.append(_operation(view, op, builder, methods, found))
    ctx.classes = builder.ordered_classes()
    ctx.aliases = builder.ordered_aliases()
    unsupported = [Unexpressed(u.pointer, u.keyword) for u in schemas.unsupported()]
    seen: set[tuple[str, str]] = set()
    for item in [*unsupported, *builder.warnings]:
        file, pointer, note = schemas.locate(item.pointer, plugin.definitions)
        if (file + pointer, item.keyword) not in seen:
            seen.add((file + pointer, item.keyword))
            ctx.unexpressed.append((file, pointer, item.keyword, note))
    names = frozenset(c.name for c in ctx.classes) | frozenset(a.name for a in ctx.aliases)
    for done in ctx.operations:
        done.models = frozenset(class_refs(done.annotations())) & names
    used = frozenset().union(*(done.models for done in ctx.operations))
    ctx.model_names = sorted(used, key=import_order)
    return ctx


@dataclass(slots=True)
class _Handles:
    """Where an operation's schemas went in the module's :class:`SchemaSet`."""

    parameters: dict[str, Handle]
    result: Handle | None


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
    return _Handles(params, result)


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _constructor(schemes: Mapping[str, Any]) -> tuple[list[Param], list[str]]:
    """The constructor's parameters and the ``Credential(...)`` expressions, one per scheme.

    API keys (header, query or cookie), bearer tokens (``http``/``bearer``, OAuth2, OpenID
    Connect) and HTTP basic (a username and a password) become keyword arguments; other
    schemes are left to a custom client.
    """
    params: list[Param] = [
        ("self", None, None),
        ("base_url", _OPTIONAL_STR, "None"),
        ("*", None, None),
    ]
    creds: list[str] = []
    args = Namespace(_INIT_NAMES)
    for key in sorted(schemes):
        scheme = schemes[key]
        if not isinstance(scheme, Mapping):
            continue
        kind = str(scheme.get("type", "")).lower()
        http = str(scheme.get("scheme", "")).lower()
        if kind == "apikey" and scheme.get("name"):
            arg = args.claim(key, identifier(f"{key}_api_key" if "key" not in key.lower() else key))
            where, name = str(scheme.get("in", "header")), str(scheme["name"])
            value = f'{arg} or ""'
        elif kind in ("http", "oauth2", "openidconnect") and http in ("bearer", ""):
            arg = args.claim(key, identifier(f"{key}_token"))
            where, name = "header", "Authorization"
            value = f'f"Bearer {{{arg}}}" if {arg} else ""'
        elif kind == "http" and http == "basic":
            arg = args.claim(key, identifier(f"{key}_username"))
            password = args.claim(f"{key}:password", identifier(f"{key}_password"))
            where, name = "header", "Authorization"
            value = f"basic_auth({arg}, {password})"
            params.append((arg, _OPTIONAL_STR, "None"))
            arg = password
        else:
            continue
        creds.append(call("Credential", [py_string(where), py_string(name), value], 12))
        params.append((arg, _OPTIONAL_STR, "None"))
    params += [
        ("client", Raw("httpx.AsyncClient | None"), "None"),
        ("sync_client", Raw("httpx.Client | None"), "None"),
        ("timeout", Raw("float"), "30.0"),
    ]
    return params, creds


def _operation(
    view: FunctionView,
    op: Operation,
    builder: TypeBuilder,
    methods: Namespace,
    handles: _Handles,
) -> OperationContext:
    base = class_name(view.name, prefix="Op")
    method_name = methods.claim(view.name, identifier(view.name, prefix="call"))
    request_name = methods.claim(f"request:{view.name}", f"_{method_name}_request")
    args = Namespace({"self", "response", "result"})
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
    if op.request_body is not None and op.request_body.argument in arg_of:
        body = arg_of[op.request_body.argument]
        content_type = op.request_body.content_type
    ret = view.return_parameter.schema
    kind = _result_kind(ret.value if ret is not None else None, op)
    if handles.result is not None:
        returns = builder.annotation(handles.result, f"{base}Result")
    else:  # a JSON body without a schema comes back as the JSON it is
        returns = {"none": NONE, "text": STR, "bytes": BYTES}.get(kind, ANY)
    return OperationContext(
        name=view.name,
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
        arguments={k: v for k, v in arg_of.items() if k != v},
        tag=op.tags[0] if op.tags else "",
    )


def _result_kind(schema: Any, op: Operation) -> str:
    """How the response body comes back: ``json``, ``text``, ``bytes`` or ``none``."""
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
        and name not in {"self", "response", "result"}
    )
