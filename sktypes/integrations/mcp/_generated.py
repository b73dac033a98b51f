"""Packages written by ``sktypes generate``, served: their typed methods, the spec's contract.

The plugin class is built on the server's HTTP client. When the package records its spec
(``sktypes.json``), the spec is the contract: tools are listed from its views, arguments
checked against them, and the plugin is given the spec's credentials (``SKTYPES_AUTH_*``,
``credentials=``) and the server's ``--header`` values, which its requests send per
operation as the generated code says. The tool's value is the body the API sent (a model
would drop the fields it does not declare); the server checks it for drift.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import types
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import orjson

from sktypes._documents import read_document
from sktypes._imports import TargetError
from sktypes.errors import SktypesError
from sktypes.generated import VIEWS_FILE, PackageViews, load_views
from sktypes.integrations.mcp._deferred import Deferred, recorded_items
from sktypes.integrations.mcp._remote import collected, paged
from sktypes.integrations.mcp._responses import body_of, recording
from sktypes.integrations.mcp._targets import (
    Item,
    LoadOptions,
    bound_to,
    claim_name,
    credentials_for,
    names_of,
    plain,
)
from sktypes.integrations.mcp._tools import Served
from sktypes.kernel import Kernel, KernelFunction
from sktypes.openapi import OpenApiPlugin, Operation
from sktypes.openapi._records import plugin_from_records
from sktypes.openapi._select import operation_candidate
from sktypes.remote import ApiClient

__all__ = ["carried_items", "generated_items"]

LINK_FILE = "sktypes.json"
"""A generated package's link record: its spec, options and every file's digest."""


def carried_items(path: Path, options: LoadOptions) -> list[Item] | None:
    """The tools of the package at ``path``, served from its ``views.json`` alone.

    Nothing of the package is imported until one of its tools is called: ``tools/list``
    needs only the views (their JSON Schemas), and importing a big package's models takes
    seconds. What could fail later is checked now: every file its link record lists is
    there with the digest it was written with (the generator compiled them all), and no
    other module of its name is imported. ``None`` when any of that does not hold (an
    edited package, one without a link record, or one whose ``views.json`` records no
    operations): the package is then imported now, its errors reported at start.
    """
    folder = path.resolve()
    views_file = folder / VIEWS_FILE
    if not (folder / "__init__.py").is_file() or not _as_written(folder):
        return None
    claim_name(folder)  # imported later: no other module may take its name meanwhile
    try:
        bindings, record = load_views(views_file.read_bytes())
    except (OSError, SktypesError):
        return None
    name = bindings[0].view.plugin_name if bindings else folder.name
    spec = plugin_from_records(name, bindings, record, str(views_file))
    if spec is None:
        return None
    return recorded_items(spec, bindings, _package_calls(path, spec, options))


def _as_written(folder: Path) -> bool:
    """Every file the link record lists is there, with its digest (a quick check, no import)."""
    try:
        record = orjson.loads((folder / LINK_FILE).read_bytes())
        files = record["files"]
        if not isinstance(files, dict) or VIEWS_FILE not in files:
            return False
        for name, digest in files.items():
            file = folder / name
            if folder not in file.resolve().parents:
                return False
            if hashlib.sha256(file.read_bytes()).hexdigest() != digest:
                return False
    except (OSError, KeyError, TypeError, ValueError):
        return False
    return True


def _package_calls(path: Path, spec: OpenApiPlugin, options: LoadOptions) -> Deferred:
    """The calls of a generated package imported when one of its tools is first called.

    Its plugin class is built on the server's client with the spec's credentials (as
    :func:`generated_items` does; their warnings now, at start); each method is bound to
    the view the tools were listed with.
    """
    security = credentials_for(spec, options)

    def load() -> dict[str, Served]:
        from sktypes.integrations.mcp._targets import generated_classes, import_directory

        module = import_directory(path)
        bound: dict[str, Served] = {}
        for cls in generated_classes(module):
            instance = _instance(cls, options)
            instance._configure(security=security, headers=options.headers)
            for fn in Kernel().add_plugin(instance, spec.name).values():
                typed = bound_to(spec.view(fn.name), fn)
                operation = spec.operation(fn.name)
                call = _response_call(typed, operation, options)
                bound[fn.name] = Served(typed.view, typed.prepare, call)
        missing = [op.name for op in spec.operations if op.name not in bound]
        if missing:
            raise TargetError(
                f"the package declares no method for {', '.join(missing[:3])}"
                f"{' ...' if len(missing) > 3 else ''} (listed in its {VIEWS_FILE})",
                file=str(path),
            )
        return bound

    return Deferred(load)


def _instance(cls: type[ApiClient], options: LoadOptions) -> ApiClient:
    kwargs: dict[str, Any] = {"client": options.client}
    if options.base_url:
        kwargs["base_url"] = options.base_url
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise TargetError(f"cannot build {cls.__qualname__}: {exc}", where=cls.__module__) from None


def generated_items(
    module: types.ModuleType, cls: type[ApiClient], options: LoadOptions
) -> list[Item]:
    """The tools of the generated plugin class ``cls`` of ``module``."""
    instance = _instance(cls, options)
    # tools keep the spec's plugin name (as recorded; else the class's, ``<Plugin>Plugin``)
    carried = _carried_spec(module, cls)
    name = carried.name if carried is not None else cls.__name__.removesuffix("Plugin")
    functions = list(Kernel().add_plugin(instance, name or cls.__name__).values())
    spec = carried or _recorded_spec(module, options)
    instance._configure(
        security=credentials_for(spec, options) if spec is not None else None,
        headers=options.headers,
    )
    if spec is None:
        return [
            Item(Served(fn.view, fn.prepare, _response_call(fn, None, options)), names_of(fn.view))
            for fn in functions
        ]
    out: list[Item] = []
    for fn in functions:
        try:
            operation, view = spec.operation(fn.name), spec.view(fn.name)
        except KeyError:
            operation = None
        if operation is None or not {p.name for p in view.parameters} <= {
            p.name for p in fn.view.parameters
        }:
            options.warnings.append(
                f"{module.__name__}: {fn.name} does not match its operation in {spec.source}; "
                "served as the package declares it"
            )
            served = Served(fn.view, fn.prepare, _response_call(fn, None, options))
            out.append(Item(served, names_of(fn.view)))
            continue
        contract = dataclasses.replace(view, plugin_name=name)
        bound = bound_to(contract, fn)  # the spec's view checks, the method's types hydrate
        served = Served(
            contract,
            bound.prepare,
            _response_call(bound, operation, options),
            operation.method,
            operation.response_content_type,
        )
        out.append(Item(served, operation_candidate(operation, view)))
    return out


def _carried_spec(module: types.ModuleType, cls: type[ApiClient]) -> OpenApiPlugin | None:
    """The spec as the package's ``views.json`` records it: nothing is read but that file.

    ``None`` for a package generated before ``views.json`` recorded its operations.
    """
    views = inspect.getattr_static(cls, "__function_views__", None)
    if not isinstance(views, PackageViews):
        return None
    bindings, spec = views.recorded()
    source = str(Path(module.__file__ or "").parent / VIEWS_FILE)
    # the views keep the spec's plugin name (the class may be named after its package)
    name = bindings[0].view.plugin_name if bindings else cls.__name__
    return plugin_from_records(name, bindings, spec, source)


def _recorded_spec(module: types.ModuleType, options: LoadOptions) -> OpenApiPlugin | None:
    """The spec a generated package records in ``sktypes.json`` (its operations as generated).

    Read for a package whose ``views.json`` does not record its operations (generated by an
    earlier version).
    """
    from sktypes.openapi import load_openapi
    from sktypes.openapi._verdicts import Verdict, remember

    folder = Path(module.__file__ or "").parent
    link = folder / "sktypes.json"
    if not link.is_file():
        return None
    try:
        _, record = read_document(link, str(link), TargetError, regular_only=True, strict_json=True)
        spec = (folder / record["spec"]).resolve()
        recorded = record.get("options", {})
        verdict = Verdict.from_dict(record.get("validation"))
        if verdict is not None:
            remember(verdict)  # the spec is not validated again for its package
        return load_openapi(  # only the operations the package was generated with
            spec,
            validate=bool(recorded.get("validate", True)),
            include=recorded.get("include", ()),
            exclude=recorded.get("exclude", ()),
        )
    except (OSError, KeyError, TypeError, orjson.JSONDecodeError, SktypesError) as exc:
        options.warnings.append(
            f"{link}: the recorded spec cannot be read ({exc}); the package is served without "
            "its annotations and credentials"
        )
        return None


def _response_call(
    fn: KernelFunction, operation: Operation | None, options: LoadOptions
) -> Callable[[dict[str, Any]], Any]:
    """A generated method's call whose value is the response body as the API sent it.

    The typed method builds and sends the request (credentials, retries) and reads the
    response; the tool's value is the body itself (a model would drop fields it does not
    declare). Drift is reported by the server's own check, with the same rule. A streamed
    operation's value is its items (bounded, see :func:`collected`); a page carries the
    next page's arguments (:func:`paged`).
    """

    async def execute(arguments: dict[str, Any]) -> Any:
        with recording() as seen:
            value = await fn.call(arguments)
            if isinstance(value, AsyncIterator):  # a streamed operation: its items
                return plain(fn, await collected(value, options))
        if seen and seen[-1].is_success:
            body = body_of(seen[-1])
            return paged(operation, arguments, seen, body) if operation is not None else body
        return plain(fn, value)

    return execute
