"""A spec's tools recorded by content: a big spec is loaded once, then served from its record.

Serving an OpenAPI document needs, for ``tools/list``, each operation's view and what binds
it to HTTP: what a generated package carries in its ``views.json``
(:func:`sktypes.generated.dump_views` with the records of :mod:`sktypes.openapi._records`).
After a document is loaded (read, validated, its views built: seconds for GitHub's 13 MB),
that is recorded in the per-user cache (:mod:`sktypes._cache`, ``mcp-spec/``) under a digest
of

- the document's bytes and the path it was named by (the warnings and errors name it),
- the options that shape the views (``validate``, ``strict``, ``include``, ``exclude``),
- sktypes' source, the validator's identity and the YAML parser's version;

the record lists every local file the document's ``$ref``-s reach with its digest. The next
server of the same document reads the record back (no parse of the document, no validation,
no views built) when every one of those files still has its digest, and serves the tools
the way a generated package is served (:mod:`._deferred`): listed from the record, their
calls built by the usual load when a tool is first called. Anything else is a miss, and a
miss is the usual load. A load whose warnings name a ``$ref`` (a file that could not be
read, which may appear later) is not recorded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import orjson

from sktypes import _cache
from sktypes._imports import TargetError
from sktypes._stages import stage
from sktypes.errors import SktypesError
from sktypes.generated import Binding, dump_views, load_views
from sktypes.integrations.mcp._deferred import Deferred, recorded_items
from sktypes.integrations.mcp._targets import (
    Item,
    LoadOptions,
    credentials_for,
    openapi_items,
    placed_warnings,
    url_check,
)
from sktypes.integrations.mcp._tools import Served
from sktypes.openapi import OpenApiPlugin
from sktypes.openapi._records import operation_features, plugin_from_records, spec_record
from sktypes.openapi._verdicts import cache_dir, validator_identity

__all__ = ["load_spec", "record_spec", "recorded_spec"]

_KIND = "mcp-spec"
_FORMAT = "sktypes-served-spec/1"
_LIBRARIES = ("PyYAML",)
"""What the views depend on besides sktypes' code and the validator (its own identity)."""


def load_spec(
    path: Path, raw: bytes, data: Any, options: LoadOptions, select_here: bool
) -> OpenApiPlugin:
    """The OpenAPI document at ``path`` (read as ``raw``, parsed as ``data``) loaded."""
    from sktypes.openapi._load import load_document
    from sktypes.openapi._source import Document, digest_of

    doc = Document(data, str(path), path.resolve().as_uri(), path=path, digest=digest_of(raw))
    return load_document(
        doc,
        validate=options.validate,
        strict=options.strict,
        include=options.include if select_here else (),
        exclude=options.exclude if select_here else (),
    )


def _key(path: Path, raw: bytes, options: LoadOptions, select_here: bool) -> str:
    shaping = {
        "source": str(path),
        "validate": options.validate,
        "strict": options.strict,
        "include": list(options.include) if select_here else [],
        "exclude": list(options.exclude) if select_here else [],
        "validator": validator_identity(),
    }
    return _cache.digest(_KIND, [_FORMAT.encode(), orjson.dumps(shaping), raw], *_LIBRARIES)


def _unchanged(folder: Path, files: Mapping[str, str]) -> bool:
    """Every recorded ``$ref``'d file (relative to ``folder``) still has its digest."""
    for name, digest in files.items():
        try:
            if hashlib.sha256((folder / name).read_bytes()).hexdigest() != digest:
                return False
        except OSError:
            return False
    return True


def recorded_spec(
    path: Path, raw: bytes, options: LoadOptions, select_here: bool
) -> list[Item] | None:
    """The tools of the document at ``path`` (its bytes ``raw``) from its record, or ``None``.

    ``select_here``: the options' filters were applied when it was loaded.
    """
    stage(f"reading {path}")
    if cache_dir() is None:
        return None
    key = _key(path, raw, options, select_here)
    data = _cache.read(_KIND, key)
    if data is None:
        return None
    stage(f"reading the record of {path}")
    head, _, views = data.partition(b"\n")
    try:
        found = orjson.loads(head)
        if not isinstance(found, dict) or found.get("format") != _FORMAT:
            return None
        files, warnings, name = found["files"], found["warnings"], found["plugin"]
        if not _unchanged(path.resolve().parent, files):
            return None
        bindings, record = load_views(views)
        spec = plugin_from_records(name, bindings, record, str(path))
    except (KeyError, TypeError, ValueError, AttributeError, SktypesError):
        return None  # not a record of this form: a miss
    if spec is None or not bindings:
        return None
    options.filtered_load = select_here
    options.warnings.extend(str(w) for w in warnings)
    credentials_for(spec, options)  # its warnings: at start, as the load gives them
    calls = Deferred(_loader(path, key, files, options, select_here))
    return recorded_items(spec, bindings, calls, lambda op: url_check(spec, op, options.base_url))


def _loader(
    path: Path, key: str, files: Mapping[str, str], options: LoadOptions, select_here: bool
) -> Callable[[], Mapping[str, Served]]:
    """The served functions of the document as the usual load builds them (on a first call)."""

    def load() -> Mapping[str, Served]:
        from sktypes._documents import read_document

        raw, data = read_document(path, str(path), TargetError)
        if _key(path, raw, options, select_here) != key or not _unchanged(
            path.resolve().parent, files
        ):
            raise TargetError(
                "the document changed since the server started; restart the server",
                file=str(path),
            )
        own = dataclasses.replace(options, warnings=[])  # said at start already
        plugin = load_spec(path, raw, data, own, select_here)
        return {item.served.view.name: item.served for item in openapi_items(plugin, own)}

    return load


def record_spec(
    path: Path, raw: bytes, options: LoadOptions, select_here: bool, plugin: OpenApiPlugin
) -> None:
    """Record what serving ``plugin`` (loaded from ``path``, bytes ``raw``) needs."""
    if cache_dir() is None or not plugin.operations:
        return
    placed = placed_warnings(plugin)
    if any("$ref" in w for w in placed):
        return  # a file that could not be read may be there next time
    from sktypes.openapi._load import spec_files

    folder = path.resolve().parent
    try:
        reached = spec_files(path)
    except SktypesError:
        return
    files: dict[str, str] = {}
    for file in reached[1:]:
        try:
            digest = hashlib.sha256(file.read_bytes()).hexdigest()
        except OSError:
            return
        files[Path(os.path.relpath(file, folder)).as_posix()] = digest
    bindings = [Binding(op.view, op.name, {}, operation_features(op)) for op in plugin.operations]
    views = dump_views(plugin.name, bindings, spec=spec_record(plugin))
    head: dict[str, Any] = {
        "format": _FORMAT,
        "plugin": plugin.name,
        "files": files,
        "warnings": placed,
    }
    key = _key(path, raw, options, select_here)
    _cache.write(_KIND, key, orjson.dumps(head) + b"\n" + views.encode())
