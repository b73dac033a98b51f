"""Function views as MCP tools: the ``tools/list`` entries and the ``tools/call`` results.

A :class:`Served` function is a view (the contract the client sees) with two steps: ``prepare``
has the argument contract decide about the client's JSON arguments (raising
:class:`~sktypes.ArgumentsError`, whose text the client gets), ``execute`` calls the function
and returns its result as JSON. :class:`ToolSet` turns them into tools and results:

- ``inputSchema`` is the view's arguments schema (draft 2020-12, ``$defs`` hoisted);
- ``outputSchema`` is the return schema. Clients before protocol 2026-07-28 accept only
  object results, so a return schema that admits anything but objects is wrapped as
  ``{"result": …}`` (``_meta["sktypes/result-wrapped"]`` says so); newer clients get it as
  is, except when it admits ``null``: an absent ``structuredContent`` and a null one are the
  same on the wire, so such a result stays wrapped (``{"result": null}``);
- results come as ``structuredContent`` plus a text block with the same value;
- a streamed result (an async iterator: a streamed operation's items) is one result, the
  list of its items, read up to the server's bound (items and bytes); a result cut there
  has a note saying so and ``_meta["sktypes/truncated"]`` (a :class:`Noted` result);
- a paginated operation answers one page per call; when another page follows, the result
  has a note with the arguments that get it (``_meta["sktypes/next-page"]``);
- bytes (an image, a PDF: a :class:`Binary` result) come as a content block of their media
  type (image, audio, or an embedded blob) instead of the text block; a result declared as
  bytes (``format: binary``) has the output schema of its base64 text
  (``contentEncoding: base64``), which is its ``structuredContent``;
- ``outputSchema`` is the declared shape and nothing else (a client typing results from
  ``outputSchema.properties`` finds the result there). A result that breaks it (an API's
  *drift* from its spec) is still returned whole, as an *error result* (``isError``): the
  protocol asks a successful result's ``structuredContent`` to conform to the output schema,
  and clients check only successful results (the official SDK does exactly that). Its
  content is the value as received (its block) and a warning listing the problems; its
  ``_meta["sktypes/drift"]`` holds them as ``{path, message, input}``. With
  ``drift="error"`` the text says it failed instead of warning.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
import mcp.types as types
import orjson
from mcp.types.version import is_version_at_least

from sktypes._arguments_schema import parameters_document
from sktypes._stages import stage
from sktypes.errors import (
    ArgumentsError,
    ErrorDetail,
    HydrationError,
    SktypesError,
    arguments_header,
)
from sktypes.integrations.mcp._errors import api_error_text, unreachable
from sktypes.integrations.mcp._listings import cached_listing
from sktypes.integrations.mcp._schemas import (
    DriftMode,
    admits_anything,
    binary_inputs,
    binary_media_type,
    binary_schema,
    may_be_null,
    only_objects,
    output_schema,
    return_schema,
    tool_schema,
)
from sktypes.jsondoc import JsonDocument
from sktypes.manual import NameTable, provider_name
from sktypes.manual._shown import DETAILS, shown
from sktypes.remote import ApiError, redact
from sktypes.remote._secrets import redact_value
from sktypes.validate import value_problems
from sktypes.views import FunctionView

__all__ = [
    "DRIFT_META",
    "MODERN_VERSION",
    "WRAPPED_META",
    "NEXT_PAGE_META",
    "TRUNCATED_META",
    "Binary",
    "DriftMode",
    "Served",
    "ToolSet",
    "annotations_for",
]

log = logging.getLogger("sktypes.mcp")

WRAPPED_META = "sktypes/result-wrapped"
"""Tool ``_meta`` key: the result is wrapped as ``{"result": …}`` (as in the ``mcp`` manual)."""
DRIFT_META = "sktypes/drift"
"""Result ``_meta`` key: the problems of a result that breaks its output schema."""
TRUNCATED_META = "sktypes/truncated"
"""Result ``_meta`` key: a streamed result was cut at the server's bound (why, in words)."""
NEXT_PAGE_META = "sktypes/next-page"
"""Result ``_meta`` key: the arguments that get the next page of a paginated operation."""
MODERN_VERSION = "2026-07-28"
"""The first protocol version whose results may be any JSON value."""

Prepare = Callable[[dict[str, Any]], dict[str, Any]]
Execute = Callable[[dict[str, Any]], Awaitable[Any]]

_NO_VALUE: Any = object()


@dataclass(frozen=True, slots=True)
class Binary:
    """A result that is bytes (an image, a PDF...): sent base64-encoded, never as text.

    Attributes:
        data: the bytes, as received.
        media_type: what they are (the response's ``Content-Type``, or the declared type).
    """

    data: bytes
    media_type: str = "application/octet-stream"

    @property
    def base64(self) -> str:
        """The bytes, base64-encoded (what JSON can carry)."""
        return base64.b64encode(self.data).decode("ascii")

    def block(self, tool: str) -> types.ContentBlock:
        """The content block for the bytes: an image, audio, or an embedded blob."""
        if self.media_type.startswith("image/"):
            return types.ImageContent(data=self.base64, mime_type=self.media_type)
        if self.media_type.startswith("audio/"):
            return types.AudioContent(data=self.base64, mime_type=self.media_type)
        blob = types.BlobResourceContents(
            uri=f"sktypes://result/{tool}", mime_type=self.media_type, blob=self.base64
        )
        return types.EmbeddedResource(resource=blob)


@dataclass(frozen=True, slots=True)
class Noted:
    """A result with a note the model reads (a text block after it) and ``_meta`` entries.

    A streamed result cut at the server's bound (the items read, and why it stopped); a
    page of a paginated operation (the arguments of the next page).
    """

    value: Any
    note: str
    meta: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Served:
    """One function to serve.

    Attributes:
        view: what the client sees: name, description, arguments and return schemas.
        prepare: the client's JSON arguments → what ``execute`` takes (the argument
            contract's decision); raises :class:`ArgumentsError` for bad arguments.
            ``None``: ``execute`` has them decided itself (a kernel's invocation filters run
            first), and an :class:`ArgumentsError` from it is about the arguments too.
        execute: calls the function; returns its result as JSON (``None`` for nothing).
        method: the HTTP method of a remote operation (for the tool's annotations).
        media_type: the media type the result is declared with (a remote operation's
            response content type), for results declared as bytes.
    """

    view: FunctionView
    prepare: Prepare | None
    execute: Execute
    method: str | None = None
    media_type: str | None = None


def annotations_for(method: str | None) -> types.ToolAnnotations | None:
    """The hints an HTTP method implies: safe methods read only, PUT and DELETE idempotent."""
    if method is None:
        return None
    verb = method.lower()
    if verb in ("get", "head", "options", "trace"):
        return types.ToolAnnotations(read_only_hint=True)
    if verb == "delete":
        return types.ToolAnnotations(destructive_hint=True, idempotent_hint=True)
    if verb == "put":
        return types.ToolAnnotations(idempotent_hint=True)
    return None


class _Entry:
    """One tool: what it serves and its name; its result's form, worked out when first needed.

    A server answers ``initialize`` before any tool is listed or called: the result schema
    (what results are checked against), whether each era wraps it, and the media type of a
    result declared as bytes are read from the view at the first listing or call.
    """

    __slots__ = ("_shape", "name", "served")

    def __init__(self, served: Served, name: str) -> None:
        self.served = served
        self.name = name
        self._shape: tuple[JsonDocument | None, bool, bool, str | None] | None = None

    def _shaped(self) -> tuple[JsonDocument | None, bool, bool, str | None]:
        if self._shape is None:
            schema = return_schema(self.served.view)
            binary = None if schema is None else binary_media_type(schema, self.served.media_type)
            if schema is not None and binary is not None:
                schema = binary_schema(schema, binary)  # what the bytes travel as
            legacy = schema is not None and not only_objects(schema)
            modern = schema is not None and may_be_null(schema)
            self._shape = (schema, legacy, modern, binary)
        return self._shape

    @property
    def schema(self) -> JsonDocument | None:
        """What results are checked against."""
        return self._shaped()[0]

    @property
    def wrap_legacy(self) -> bool:
        """Older clients get the result as ``{"result": value}``."""
        return self._shaped()[1]

    @property
    def wrap_modern(self) -> bool:
        """Newer clients get the result as ``{"result": value}``."""
        return self._shaped()[2]

    @property
    def binary(self) -> str | None:
        """The media type of a result declared as bytes."""
        return self._shaped()[3]


class ToolSet:
    """The tools of a server: listings per protocol era, and the call path.

    Attributes:
        drift: what a result that breaks its schema becomes.
        warnings: what the tools cannot express (a bytes argument), each with its tool
            and argument path.

    Args:
        served: the functions.
        drift: ``"warn"`` returns a result that breaks its schema with a warning;
            ``"error"`` makes it an error result.
        qualified: name tools ``Plugin.Function`` (as the ``mcp`` functions manual does)
            rather than ``Function``; by default, only when the functions come from more
            than one plugin (the server's name says which plugin a lone one is). Names are
            cleaned and made unique as in the manual. Calls accept either form of a name
            that is not ambiguous.
        detail: how much each tool says (``full``, ``compact``, ``names``: the levels of
            :func:`sktypes.functions_manual`); calls are checked against the full view and
            results against the full return schema at every level.
    """

    def __init__(
        self,
        served: Sequence[Served],
        *,
        drift: DriftMode = "warn",
        qualified: bool | None = None,
        detail: str = "full",
    ) -> None:
        self.drift: DriftMode = drift
        if detail not in DETAILS:
            raise SktypesError(
                f"unknown detail level {detail!r}; choose one of {', '.join(DETAILS)}"
            )
        self.detail = detail
        self.warnings: list[str] = []
        if qualified is None:
            qualified = len({s.view.plugin_name for s in served}) > 1
        names = NameTable()
        stage(f"building {len(served)} tools")
        self._entries: dict[str, _Entry] = {}
        self._aliases: dict[str, _Entry | None] = {}
        for item in served:
            shown = item.view if qualified else dataclasses.replace(item.view, plugin_name="")
            name = names.assign(shown, "mcp")
            entry = _Entry(item, name)
            self._entries[name] = entry
            self.warnings.extend(
                f"{name}: {path}: bytes are sent as the UTF-8 text of the string argument "
                "(MCP arguments are JSON): bytes that are not text cannot be sent"
                for path in binary_inputs(parameters_document(item.view))
            )
            for alias in {provider_name(item.view, "mcp"), item.view.name} - {name}:
                self._aliases[alias] = None if alias in self._aliases else entry
        self._listings: dict[bool, dict[str, Any]] = {}

    @property
    def names(self) -> list[str]:
        """The tool names, in order."""
        return list(self._entries)

    def view(self, name: str) -> FunctionView:
        """The view behind tool ``name`` (``KeyError`` if there is none)."""
        return self._entries[name].served.view

    def listing(self, protocol_version: str) -> types.ListToolsResult:
        """The ``tools/list`` result for a client speaking ``protocol_version``."""
        return types.ListToolsResult.model_validate(self.listing_data(protocol_version))

    def listing_data(self, protocol_version: str) -> dict[str, Any]:
        """:meth:`listing` as JSON data (what the server sends; a new outer dict).

        Built when first asked for (a server answers ``initialize`` first), or read back
        from the per-user cache where the same tools were listed before.
        """
        modern = _modern(protocol_version)
        data = self._listings.get(modern)
        if data is None:
            data = self._listings[modern] = cached_listing(
                [(name, e.served) for name, e in self._entries.items()],
                self.detail,
                modern,
                lambda: self._built(modern),
            )
        return dict(data)

    def _built(self, modern: bool) -> types.ListToolsResult:
        stage(f"listing {len(self._entries)} tools")
        return types.ListToolsResult(
            tools=[self._tool(e, modern=modern) for e in self._entries.values()]
        )

    def _tool(self, entry: _Entry, *, modern: bool) -> types.Tool:
        view = entry.served.view
        seen = shown(view, self.detail)
        meta = None
        output = None
        if entry.schema is not None:
            wrap = entry.wrap_modern if modern else entry.wrap_legacy
            if not seen.deferred:
                output = output_schema(entry.schema, wrap=wrap, modern=modern, detail=self.detail)
            if wrap:
                meta = {WRAPPED_META: True}
        return types.Tool(
            name=entry.name,
            description=seen.description or None,
            input_schema=tool_schema(seen.parameters),
            output_schema=output,
            annotations=annotations_for(entry.served.method),
            _meta=meta,
        )

    # --- calls ----------------------------------------------------------------------

    def find(self, name: str) -> _Entry | None:
        """The tool called ``name`` (or by the other form of its name), or ``None``."""
        entry = self._entries.get(name)
        return entry if entry is not None else self._aliases.get(name)

    async def call(
        self, entry: _Entry, arguments: Mapping[str, Any] | None, protocol_version: str
    ) -> tuple[types.CallToolResult, str]:
        """Call a tool; return its result and status: ``ok``, ``drift``, ``invalid`` or ``error``.

        Nothing raises: bad arguments and failures become error results whose text a model
        can act on (every bad argument named by its path).
        """
        args = dict(arguments or {})
        prepare = entry.served.prepare
        try:
            ready = args if prepare is None else prepare(args)
        except HydrationError as exc:  # the contract's ArgumentsError
            return _error(exc.for_llm(header=arguments_header(entry.name))), "invalid"
        try:
            value = await entry.served.execute(ready)
        except ArgumentsError as exc:
            if prepare is not None:  # raised by the function itself, not about the arguments
                log.info("%s failed: %s", entry.name, exc)
                return _error(f"{entry.name} failed: {exc}"), "error"
            return _error(exc.for_llm(header=arguments_header(entry.name))), "invalid"
        except ApiError as exc:
            log.info("%s failed: the API answered %s", entry.name, exc.status_code)
            return _error(api_error_text(entry.name, exc)), "error"
        except SktypesError as exc:
            log.info("%s failed: %s", entry.name, redact(str(exc)))
            return _error(redact(f"{entry.name} failed: {exc}")), "error"
        except httpx.RequestError as exc:  # the API could not be reached, or stopped answering
            reason = redact(unreachable(exc))
            log.error("%s failed: %s", entry.name, reason)
            return _error(f"{entry.name} failed: {reason}"), "error"
        except Exception as exc:
            log.error("%s raised %s", entry.name, redact(f"{type(exc).__name__}: {exc}"))
            return _error(redact(f"{entry.name} failed: {type(exc).__name__}: {exc}")), "error"
        modern = _modern(protocol_version)
        if isinstance(value, Noted):  # the value, and a note the model sees
            result, status = self._result(entry, value.value, modern)
            note = types.TextContent(text=f"note: {value.note}")
            meta = {**(result.meta or {}), **value.meta}
            return result.model_copy(
                update={"content": [*result.content, note], "meta": meta}
            ), status
        if isinstance(value, Binary):
            return self._binary(entry, value, modern)
        if entry.binary is not None and value is not None:
            kind = "text" if isinstance(value, str) else "JSON"
            expected = ErrorDetail("$", f"expected bytes ({entry.binary}), got {kind}")
            return self._result(entry, value, modern, [expected])
        return self._result(entry, value, modern)

    def _result(
        self,
        entry: _Entry,
        value: Any,
        modern: bool,
        found: Sequence[ErrorDetail] = (),
        first: types.ContentBlock | None = None,
    ) -> tuple[types.CallToolResult, str]:
        """The result for ``value`` (``found``: problems known; ``first``: its block, not text).

        A credential the server sends that the value holds (an API echoing a header) is
        redacted: no credential reaches the model.
        """
        value = redact_value(value)
        shown = first if first is not None else None if value is None else _text_block(value)
        if entry.schema is None:
            return types.CallToolResult(content=[] if shown is None else [shown]), "ok"
        problems = [*found, *value_problems(entry.schema, value)]
        if not problems:
            wrap = entry.wrap_modern if modern else entry.wrap_legacy
            structured = {"result": value} if wrap else value
            result = types.CallToolResult(
                content=[] if shown is None else [shown], structured_content=structured
            )
            return result, "ok"
        lines = [f"{p.path}: {p.message}" for p in problems]
        log.warning(
            "%s: the result does not match the output schema (drift): %s",
            entry.name,
            "; ".join(lines),
        )
        listed = "\n".join(f"- {line}" for line in lines)
        if self.drift == "error":
            failure = (
                "error: the result does not match the declared output schema (drift). "
                "Problems:\n" + listed
            )
            if first is not None:  # the value as its own block (bytes), then the error
                blocks = [first, types.TextContent(text=failure)]
                return types.CallToolResult(content=blocks, is_error=True), "error"
            return _error(_dumps(value) + "\n\n" + failure), "error"
        warning = (
            "warning: the result does not match the declared output schema (drift); it is "
            "returned whole, as received, above. Problems:\n" + listed
        )
        shown = first if first is not None else _text_block(value)
        return (
            types.CallToolResult(
                content=[shown, types.TextContent(text=warning)],
                is_error=True,  # only a conforming value may be a successful structured result
                _meta={DRIFT_META: [p.to_dict() for p in problems]},
            ),
            "drift",
        )

    def _binary(
        self, entry: _Entry, value: Binary, modern: bool
    ) -> tuple[types.CallToolResult, str]:
        """Bytes: their content block, and their base64 text as the structured value.

        Bytes where the schema declares JSON are drift: returned whole, with the warning. A
        schema that admits anything (``Any``) takes them as their base64 text.
        """
        found: list[ErrorDetail] = []
        if entry.schema is not None and entry.binary is None and not admits_anything(entry.schema):
            found.append(ErrorDetail("$", f"expected JSON, got bytes ({value.media_type})"))
        return self._result(entry, value.base64, modern, found, value.block(entry.name))


def _modern(version: str) -> bool:
    return is_version_at_least(version, MODERN_VERSION) if version else False


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=text)], is_error=True)


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def _text_block(value: Any) -> types.TextContent:
    return types.TextContent(text=value if isinstance(value, str) else _dumps(value))
