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
import types
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import orjson

from sktypes._documents import read_document
from sktypes.cli._targets import TargetError
from sktypes.errors import SktypesError
from sktypes.integrations.mcp._remote import collected, paged
from sktypes.integrations.mcp._responses import body_of, recording
from sktypes.integrations.mcp._targets import (
    Item,
    LoadOptions,
    contract_preparer,
    credentials_for,
    names_of,
    plain,
    preparer,
)
from sktypes.integrations.mcp._tools import Served
from sktypes.kernel import Kernel, KernelFunction
from sktypes.openapi import OpenApiPlugin, Operation
from sktypes.openapi._select import operation_candidate
from sktypes.remote import ApiClient

__all__ = ["generated_items"]


def generated_items(
    module: types.ModuleType, cls: type[ApiClient], options: LoadOptions
) -> list[Item]:
    """The tools of the generated plugin class ``cls`` of ``module``."""
    kwargs: dict[str, Any] = {"client": options.client}
    if options.base_url:
        kwargs["base_url"] = options.base_url
    try:
        instance = cls(**kwargs)
    except TypeError as exc:
        raise TargetError(f"cannot build {cls.__qualname__}: {exc}", where=cls.__module__) from None
    # the generator names the class ``<Plugin>Plugin``: tools keep the spec's plugin name
    name = cls.__name__.removesuffix("Plugin") or cls.__name__
    functions = list(Kernel().add_plugin(instance, name).values())
    spec = _recorded_spec(module, options)
    instance._configure(
        security=credentials_for(spec, options) if spec is not None else None,
        headers=options.headers,
    )
    if spec is None:
        return [
            Item(
                Served(fn.view, preparer(fn), _response_call(fn, None, options)), names_of(fn.view)
            )
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
            served = Served(fn.view, preparer(fn), _response_call(fn, None, options))
            out.append(Item(served, names_of(fn.view)))
            continue
        contract = dataclasses.replace(view, plugin_name=name)
        served = Served(
            contract,
            contract_preparer(contract, fn),
            _response_call(fn, operation, options),
            operation.method,
            operation.response_content_type,
        )
        out.append(Item(served, operation_candidate(operation, view)))
    return out


def _recorded_spec(module: types.ModuleType, options: LoadOptions) -> OpenApiPlugin | None:
    """The spec a generated package records in ``sktypes.json`` (its operations as generated)."""
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
