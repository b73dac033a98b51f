"""``load_openapi``: read, resolve, walk the paths, build one view per operation."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sktypes._stages import stage
from sktypes.errors import OpenApiError
from sktypes.limits import DEFAULT_LIMITS, DocumentLimits
from sktypes.openapi._building import build
from sktypes.openapi._checking import Validation, add_line
from sktypes.openapi._model import OpenApiPlugin
from sktypes.openapi._refs import Refs
from sktypes.openapi._schemas import SchemaConverter
from sktypes.openapi._source import (
    Document,
    check_tree,
    digest_of,
    parse_bytes,
    read_path,
)

__all__ = [
    "Loading",
    "Source",
    "defer_openapi",
    "load_deferred",
    "load_document",
    "load_openapi",
    "spec_files",
]

Source = str | bytes | os.PathLike[str] | Mapping[str, Any]
"""What :func:`load_openapi` reads: a path, JSON/YAML text or bytes, or a parsed dict."""


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
    return defer_openapi(
        source,
        plugin_name,
        validate=validate,
        strict=strict,
        allow_remote_refs=allow_remote_refs,
        flatten_body=flatten_body,
        max_bytes=max_bytes,
        ref_roots=ref_roots,
        limits=limits,
        include=include,
        exclude=exclude,
    ).finish()


def defer_openapi(
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
) -> Loading:
    """:func:`load_openapi`, the validation left pending (:func:`load_deferred`)."""
    lim = limits or DEFAULT_LIMITS
    if max_bytes is not None:
        lim = lim.with_max_bytes(max_bytes)
    stage(f"reading {_named(source)}")
    doc = _read(source, lim)
    return load_deferred(
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
    loading = load_deferred(
        doc,
        plugin_name,
        validate=validate,
        strict=strict,
        allow_remote_refs=allow_remote_refs,
        flatten_body=flatten_body,
        ref_roots=ref_roots,
        limits=limits,
        include=include,
        exclude=exclude,
    )
    return loading.finish()


class Loading:
    """A spec's views built, its validation pending (:func:`load_deferred`).

    :attr:`plugin` has every view, but not the verdict nor the validation warnings yet;
    :meth:`finish` returns the plugin :func:`load_openapi` returns (or raises its error).
    Call it before committing anything made from :attr:`plugin`; :meth:`cancel` when
    giving up (an error elsewhere).
    """

    def __init__(
        self, plugin: OpenApiPlugin, validation: Validation | None, warnings: list[str]
    ) -> None:
        self.plugin = plugin
        self._validation = validation
        self._warnings = warnings
        self._finished: OpenApiPlugin | None = None if validation is not None else plugin

    def finish(self) -> OpenApiPlugin:
        """The validated plugin; raises what the sequential load raises for an invalid spec."""
        if self._finished is None:
            assert self._validation is not None
            try:
                self._finished = self._validation.finish(self.plugin, self._warnings)
            finally:
                self._validation.cancel()
        return self._finished

    def cancel(self) -> None:
        """Give up on the validation (its child, if any, is ended)."""
        if self._validation is not None:
            self._validation.cancel()


def load_deferred(
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
    concurrent: bool = True,
) -> Loading:
    """:func:`load_document`, the validation left pending until :meth:`Loading.finish`.

    With ``concurrent`` (and where it is safe: :mod:`._checking`), a big spec is validated
    by a forked child while the views are built and while the caller goes on.
    """
    lim = limits or DEFAULT_LIMITS
    try:
        version, version_text = _version(doc)
    except OpenApiError as exc:
        add_line(exc, [doc])
        raise
    warnings: list[str] = []
    roots = [Path(r) for r in ref_roots]
    refs = Refs(doc, allow_remote=allow_remote_refs, limits=lim, ref_roots=roots)
    schemas = SchemaConverter(refs, version, warnings.append)
    checking = None
    if validate:
        concurrent = concurrent and not allow_remote_refs  # a child would fetch them again
        checking = Validation(doc, version, refs, strict=strict, concurrent=concurrent)
    stage(f"building views of {doc.display}")
    try:
        try:
            plugin = build(doc, refs, schemas, version, version_text, plugin_name, flatten_body,
                           strict=validate and strict, warnings=warnings, include=tuple(include),
                           exclude=tuple(exclude))  # fmt: skip
        except RecursionError:
            raise OpenApiError("document nested too deeply", file=doc.display) from None
        if checking is not None:
            checking.prepare()
    except BaseException as exc:
        if checking is not None:
            checking.cancel()
        if isinstance(exc, OpenApiError):
            add_line(exc, [d for _, d in refs.documents()])
        raise
    return Loading(plugin, checking, warnings)


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
