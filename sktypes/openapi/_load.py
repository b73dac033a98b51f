"""``load_openapi``: read, resolve, walk the paths, build one view per operation."""

from __future__ import annotations

import dataclasses
import os
import posixpath
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sktypes._stages import stage
from sktypes.errors import OpenApiError, SktypesError
from sktypes.jsondoc import FrozenDict, freeze
from sktypes.limits import DEFAULT_LIMITS, DocumentLimits
from sktypes.openapi._model import OpenApiPlugin, Operation
from sktypes.openapi._naming import NameRegistry, identifier, plugin_identifier
from sktypes.openapi._operations import OperationBuilder, server_urls
from sktypes.openapi._paging import item_schema, recognise_pagination
from sktypes.openapi._params import ParamContext
from sktypes.openapi._refs import Place, Refs
from sktypes.openapi._schemas import SchemaConverter
from sktypes.openapi._select import Candidate, select
from sktypes.openapi._source import (
    Document,
    check_tree,
    digest_of,
    locate,
    parse_bytes,
    read_path,
)
from sktypes.openapi._streaming import recognise_stream
from sktypes.openapi._verdicts import Verdict, validate_once
from sktypes.views import ReturnParameterView

__all__ = ["Source", "load_document", "load_openapi", "spec_files"]

Source = str | bytes | os.PathLike[str] | Mapping[str, Any]
"""What :func:`load_openapi` reads: a path, JSON/YAML text or bytes, or a parsed dict."""

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
METHODS_32 = (*METHODS, "query")
"""OpenAPI 3.2 adds the QUERY method (a safe request with a body)."""


def load_openapi(
    source: Source,
    plugin_name: str | None = None,
    *,
    validate: bool = True,
    strict: bool = True,
    allow_remote_refs: bool = False,
    flatten_body: bool = False,
    max_bytes: int | None = None,
    ref_roots: Iterable[str | os.PathLike[str]] = (),
    limits: DocumentLimits | None = None,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
) -> OpenApiPlugin:
    """Load a Swagger 2.0 / OpenAPI 3.0 / 3.1 document as a plugin of function views.

    Args:
        source: a path (``str`` without a newline, or ``os.PathLike``) to a JSON or YAML
            file, JSON/YAML text (``str`` with a newline, or ``bytes``), or a parsed dict.
        plugin_name: the plugin name; defaults to a short form of ``info.title`` in CamelCase
            (``GitHub's official OpenAPI spec`` → ``GitHub``).
        validate: validate with openapi-spec-validator. With ``False``, every operation
            that can be understood is loaded and the rest are listed in ``.warnings``.
        strict: with ``validate``, fail on the first problem the validator finds (the
            default). ``strict=False`` loads every operation that can be understood and
            lists each validation problem in ``.warnings`` with its JSON pointer and line
            (what the CLI does unless given ``--strict``); only a document the views cannot
            be built from at all is refused.
        allow_remote_refs: follow ``http(s)`` ``$ref``s (with a timeout); refused otherwise.
        flatten_body: expose an object request body's top-level properties as separate
            parameters instead of one ``body`` parameter.
        max_bytes: size limit per file (also for files reached through ``$ref``); shorthand
            for ``limits.max_bytes``.
        ref_roots: directories local ``$ref``s may read besides the spec's own directory
            (and its subdirectories); a file anywhere else is refused.
        limits: size, depth and YAML alias limits for every file read
            (:data:`sktypes.limits.DEFAULT_LIMITS`).
        include: keep only the operations some pattern matches (``tag:T``, ``id:OP``,
            ``GET /path/*``, or a bare tag/operationId glob; see ``select_operations``).
        exclude: then drop the operations some pattern matches.

    Raises:
        FilterError: an ``include``/``exclude`` pattern matches no operation.
        OpenApiError: the document cannot be read or is not a (valid) OpenAPI document; the
            message names the file and the JSON pointer or line.
    """
    lim = limits or DEFAULT_LIMITS
    if max_bytes is not None:
        lim = lim.with_max_bytes(max_bytes)
    stage(f"reading {_named(source)}")
    doc = _read(source, lim)
    return load_document(
        doc,
        plugin_name,
        validate=validate,
        strict=strict,
        allow_remote_refs=allow_remote_refs,
        flatten_body=flatten_body,
        ref_roots=ref_roots,
        limits=lim,
        include=include,
        exclude=exclude,
    )


def load_document(
    doc: Document,
    plugin_name: str | None = None,
    *,
    validate: bool = True,
    strict: bool = True,
    allow_remote_refs: bool = False,
    flatten_body: bool = False,
    ref_roots: Iterable[str | os.PathLike[str]] = (),
    limits: DocumentLimits | None = None,
    include: Iterable[str] = (),
    exclude: Iterable[str] = (),
) -> OpenApiPlugin:
    """:func:`load_openapi` for a spec already read and parsed.

    A caller that had to look inside the document first need not parse it twice.
    """
    lim = limits or DEFAULT_LIMITS
    try:
        version, version_text = _version(doc)
    except OpenApiError as exc:
        _add_line(exc, [doc])
        raise
    warnings: list[str] = []
    roots = [Path(r) for r in ref_roots]
    refs = Refs(doc, allow_remote=allow_remote_refs, limits=lim, ref_roots=roots)
    schemas = SchemaConverter(refs, version, warnings.append)
    stage(f"building views of {doc.display}")
    try:
        return _load(doc, refs, schemas, version, version_text, plugin_name, validate, strict,
                     flatten_body, warnings, tuple(include), tuple(exclude))  # fmt: skip
    except OpenApiError as exc:
        _add_line(exc, [d for _, d in refs.documents()])
        raise


def _load(
    doc: Document,
    refs: Refs,
    schemas: SchemaConverter,
    version: int,
    version_text: str,
    plugin_name: str | None,
    validate: bool,
    strict: bool,
    flatten_body: bool,
    warnings: list[str],
    include: tuple[str, ...],
    exclude: tuple[str, ...],
) -> OpenApiPlugin:
    """Build the views, then validate (the body of :func:`load_document`)."""
    try:
        plugin = _build(
            doc,
            refs,
            schemas,
            version,
            version_text,
            plugin_name,
            flatten_body,
            strict=validate and strict,
            warnings=warnings,
            include=include,
            exclude=exclude,
        )
    except RecursionError:
        raise OpenApiError("document nested too deeply", file=doc.display) from None
    if validate:
        stage(f"validating {doc.display}")
        refs.admit_all()  # the validator sees these documents and nothing else
        if strict:
            verdict = validate_once(doc, version, refs, lambda: validate_spec(doc, version, refs))
            verdict.check(doc.display)
        else:
            verdict = _reported(doc, version, refs)
            if verdict.problems and not plugin.views and doc.data.get("paths") not in (None, {}):
                # nothing could be built: the first problem is an error
                first = validate_once(doc, version, refs, lambda: validate_spec(doc, version, refs))
                first.check(doc.display)
            warnings.extend(verdict.problems)
        from sktypes.openapi._validate import ref_files_not_checked  # the validator: lazily

        gap = ref_files_not_checked(refs)  # an old validator: said, never passed silently
        if gap is not None:
            warnings.append(gap)
        plugin = dataclasses.replace(plugin, validation=verdict)
    return plugin


def _add_line(exc: OpenApiError, documents: Iterable[Document]) -> None:
    """Give an error naming a JSON pointer the line and column of that place in its file."""
    where = exc.where
    if exc.line is not None or not where or where == "/" or not where.startswith("/"):
        return
    for doc in documents:
        if doc.display == exc.file:
            found = locate(doc.raw(), where)
            if found is not None:
                exc.at_line(found.key_line, found.key_column)
            return


def _reported(doc: Document, version: int, refs: Refs) -> Verdict:
    """The validator's problems as warning lines (recorded per content like an error)."""

    def run() -> tuple[str, ...]:
        lines: list[str] = []
        validate_spec(doc, version, refs, lines.append)
        return tuple(lines)

    verdict = validate_once(doc, version, refs, run, report=True)
    base = posixpath.dirname(doc.display)
    if not base or not any(_in_other_file(line) for line in verdict.problems):
        return verdict
    lines = []  # a $ref'd file is recorded from the spec's folder: name it from here
    for line in verdict.problems:
        if _in_other_file(line) and "://" not in line.partition("#")[0]:
            file, _, rest = line.partition("#")
            line = f"{posixpath.normpath(posixpath.join(base, file))}#{rest}"
        lines.append(line)
    return dataclasses.replace(verdict, problems=tuple(lines))


def _in_other_file(line: str) -> bool:
    """A validation line placed in a ``$ref``'d file (``<file>#<pointer> ...: ...``)."""
    return not line.startswith("/") and "#" in line.partition(": ")[0]


def validate_spec(
    doc: Document, version: int, refs: Refs, report: Callable[[str], None] | None = None
) -> None:
    """openapi-spec-validator on ``doc`` (:mod:`._validate`, imported when first needed)."""
    from sktypes.openapi._validate import validate_spec as run

    run(doc, version, refs, report)


def spec_files(
    spec: str | os.PathLike[str],
    *,
    ref_roots: Iterable[str | os.PathLike[str]] = (),
    limits: DocumentLimits | None = None,
) -> list[Path]:
    """The spec file and every local file its ``$ref``s reach, transitively.

    The files are found exactly as :func:`load_openapi` admits them (inside the spec's
    directory or ``ref_roots``, regular files, size-limited); what the policy refuses, a
    remote document or a file that cannot be read is left out (loading reports it).
    Returns resolved paths, the spec first, then sorted.

    Raises:
        OpenApiError: the spec itself cannot be read or parsed.
    """
    lim = limits or DEFAULT_LIMITS
    doc = read_path(Path(spec), str(spec), lim)
    refs = Refs(doc, allow_remote=False, limits=lim, ref_roots=[Path(r) for r in ref_roots])
    refs.admit_all(lenient=True)
    return refs.local_files()


def _read(source: Source, limits: DocumentLimits) -> Document:
    if isinstance(source, Mapping):
        check_tree(source, "<dict>", OpenApiError, limits)
        return Document(source, "<dict>", None)
    if isinstance(source, bytes):
        data = parse_bytes(source, "<bytes>", limits)
        return Document(data, "<bytes>", None, source, digest=digest_of(source))
    if isinstance(source, str) and ("\n" in source or source.lstrip().startswith("{")):
        raw = _encode(source)
        data = parse_bytes(raw, "<string>", limits)
        return Document(data, "<string>", None, raw, digest=digest_of(raw))
    path = Path(source)
    return read_path(path, str(source), limits)


def _named(source: Source) -> str:
    if isinstance(source, Mapping):
        return "<dict>"
    if isinstance(source, bytes) or (isinstance(source, str) and "\n" in source):
        return "the spec"
    return str(source)


def _encode(text: str) -> bytes:
    try:
        return text.encode()
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise OpenApiError(
            "a lone surrogate is not Unicode text", file="<string>", line=line
        ) from None


def _version(doc: Document) -> tuple[int, str]:
    data = doc.data
    if not isinstance(data, dict):
        raise OpenApiError(
            f"not an OpenAPI document: the top level is {type(data).__name__}, not an object",
            file=doc.display,
        )
    if "openapi" in data:
        raw, field = data["openapi"], "/openapi"
    elif "swagger" in data:
        raw, field = data["swagger"], "/swagger"
    else:
        raise OpenApiError(
            "not an OpenAPI document: no 'openapi' or 'swagger' field", file=doc.display, where="/"
        )
    text = str(raw)
    if field == "/swagger" and text == "2.0":
        return 2, text
    if field == "/openapi" and (text == "3.0" or text.startswith("3.0.")):
        return 30, text
    if field == "/openapi" and (text == "3.1" or text.startswith("3.1.")):
        return 31, text
    if field == "/openapi" and (text == "3.2" or text.startswith("3.2.")):
        return 32, text  # schemas as in 3.1 (JSON Schema 2020-12)
    raise OpenApiError(
        f"unsupported OpenAPI version {text!r} (sktypes reads 2.0, 3.0.x, 3.1.x and 3.2.x)",
        file=doc.display,
        where=field,
    )


def _build(
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
