"""Tools served from what was recorded of them, their calls built when first called.

A generated package's ``views.json`` and the per-user record of a spec served before
(:mod:`._spec_records`) both hold each operation's view and what binds it to HTTP (the
records of :mod:`sktypes.openapi._records`): that is all ``tools/list`` needs. What calls
need (the package's imported methods, the spec's operations as ``load_openapi`` builds
them) takes seconds on a big API, so it is built when a tool is first called, once, by a
:class:`Deferred`; every call then goes through the function the usual load gives.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sktypes._imports import TargetError
from sktypes.errors import SktypesError
from sktypes.generated import Binding
from sktypes.integrations.mcp._targets import Item
from sktypes.integrations.mcp._tools import Served
from sktypes.openapi import OpenApiPlugin, Operation
from sktypes.openapi._select import operation_candidate

__all__ = ["Deferred", "recorded_items"]

log = logging.getLogger("sktypes.mcp")


class Deferred:
    """Each tool's call, from functions ``load`` builds when one of them is first called.

    ``load`` returns the functions by view name. A load that fails is logged once and
    makes every call an error result that says why.
    """

    def __init__(self, load: Callable[[], Mapping[str, Served]]) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._loaded: Mapping[str, Served] | None = None
        self._failure: TargetError | None = None

    def _served(self, name: str) -> Served:
        if self._loaded is None and self._failure is None:
            with self._lock:
                if self._loaded is None and self._failure is None:
                    try:
                        self._loaded = self._load()
                    except TargetError as exc:
                        log.error("%s", exc)
                        self._failure = exc
                    except SktypesError as exc:
                        log.error("%s", exc)
                        self._failure = TargetError(str(exc))
        if self._failure is not None:
            raise self._failure
        assert self._loaded is not None
        return self._loaded[name]

    def prepare(self, name: str) -> Callable[[dict[str, Any]], Any]:
        """Tool ``name``'s argument contract (the arguments as given if the load failed)."""

        def prepare(arguments: dict[str, Any]) -> Any:
            try:
                served = self._served(name)
            except TargetError:
                return arguments  # the call says why
            return arguments if served.prepare is None else served.prepare(arguments)

        return prepare

    def execute(self, name: str) -> Callable[[dict[str, Any]], Any]:
        """Tool ``name``'s call."""

        async def execute(arguments: dict[str, Any]) -> Any:
            return await self._served(name).execute(arguments)

        return execute


def recorded_items(
    spec: OpenApiPlugin,
    bindings: Sequence[Binding],
    calls: Deferred,
    check: Callable[[Operation], Callable[[], None] | None] | None = None,
) -> list[Item]:
    """The tools of ``spec`` (read back from records) in the order of ``bindings``.

    ``check``: what each kept operation must pass before the server starts (``None``:
    nothing).
    """
    out: list[Item] = []
    for binding in bindings:
        view = binding.view
        operation = spec.operation(view.name)
        served = Served(
            view,
            calls.prepare(view.name),
            calls.execute(view.name),
            operation.method,
            operation.response_content_type,
        )
        must = check(operation) if check is not None else None
        out.append(Item(served, operation_candidate(operation, view), must))
    return out
