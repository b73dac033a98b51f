"""Arguments as a kernel function gets them: checked against its view, then hydrated.

:func:`prepare_arguments` is the step ``Kernel.invoke`` runs before every call (and the
blocking calls of templates run inline). :func:`fast_path` is its shortcut for the
commonest functions, kept per function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sktypes.content._codec import to_json_value
from sktypes.errors import ContentError, ErrorDetail, HydrationError
from sktypes.kernel._function import KernelFunction
from sktypes.views import FunctionView

__all__ = ["FastPath", "fast_path", "prepare_arguments"]


def prepare_arguments(fn: KernelFunction, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Validate JSON arguments against the view and hydrate them (when ``fn.hydrate``).

    Raises:
        ArgumentsError: every way the arguments break the view.
        HydrationError: every argument that cannot become its native type.
    """
    if type(arguments) is dict:
        shortcut = fast_path(fn)
        if shortcut is not None:
            ready = shortcut(arguments)
            if ready is not None:
                return ready
    validate, hydrate, target = _checkers()
    view = fn.view
    json_args: dict[str, Any] = {}
    for key, value in arguments.items():
        if value is None or type(value) in _PLAIN:
            json_args[key] = value
            continue
        try:
            json_args[key] = to_json_value(value, f"$.{key}")
        except ContentError as exc:
            raise HydrationError(
                [ErrorDetail(exc.where or "$", exc.message)],
                summary=f"arguments for {view.fully_qualified_name} are not JSON",
            ) from None
    validate(view, json_args)
    if not fn.hydrate:
        return json_args
    fast: dict[str, Any] | None = target(view).plain_arguments(json_args)
    if fast is not None:
        return fast
    native: dict[str, Any] = hydrate(view, json_args, repair=False)
    return native


_PLAIN = frozenset({str, int, float, bool})
_PLAIN_TYPES = (str, int, float, bool)
FastPath = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""Ready arguments for ``arguments`` taken as they are, or ``None``: take the full path."""
_FAST_PATHS: dict[int, tuple[KernelFunction, FastPath | None]] = {}


def fast_path(fn: KernelFunction) -> FastPath | None:
    """:func:`prepare_arguments` for the commonest functions, in one step (cached by identity).

    For a function whose parameters are all ``str``/``int``/``float``/``bool`` (no
    ``**kwargs``) and whose schema the compiled check covers: arguments each of exactly
    its parameter's type that the check accepts are already valid *and* native, so they
    pass as they are, defaults filled in. When the schema says nothing but those types
    (the usual introspected function), the exact-type test and the required names are the
    whole check. Anything else gives ``None``: the full path decides (and reports).
    """
    hit = _FAST_PATHS.get(id(fn))
    if hit is not None and hit[0] is fn:
        return hit[1]
    fast = _build_fast_path(fn)
    if len(_FAST_PATHS) > 4096:
        _FAST_PATHS.clear()
    _FAST_PATHS[id(fn)] = (fn, fast)
    return fast


def _build_fast_path(fn: KernelFunction) -> FastPath | None:
    from sktypes.validate import quick_check

    view = fn.view
    if not fn.hydrate or view.accepts_extra:
        return None
    kinds: dict[str, type] = {}
    defaults: list[tuple[str, Any]] = []
    for p in view.parameters:
        if p.native_type not in _PLAIN_TYPES:  # a tuple: a native type may not be hashable
            return None
        kinds[p.name] = p.native_type
        if not p.is_required:
            if p.default_value is not None and type(p.default_value) not in _PLAIN:
                return None  # a mutable default is copied per call: the full path does it
            defaults.append((p.name, p.default_value))
    schema = view.parameters_schema
    required = frozenset(p.name for p in view.parameters if p.is_required)
    check = None  # a schema of bare types: the exact-type test below is the whole check
    if _types_only(schema, kinds):
        required |= frozenset(schema.get("required", ()))
    else:
        check = quick_check(view)
        if check is None:
            return None

    def ready(arguments: dict[str, Any]) -> dict[str, Any] | None:
        for key, value in arguments.items():
            if type(value) is not kinds.get(key):
                return None
        if not required <= arguments.keys() or (check is not None and not check(arguments)):
            return None
        out = dict(arguments)
        for name, default in defaults:
            if name not in out:
                out[name] = default
        return out

    return ready


_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}
_NOTES = frozenset({"type", "title", "description", "default", "examples", "deprecated"})
_OBJECT_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "title", "description"}
)


def _types_only(schema: Mapping[str, Any], kinds: Mapping[str, type]) -> bool:
    """Whether ``schema`` says no more than each parameter's JSON type (and notes)."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if (
        not schema.keys() <= _OBJECT_KEYS
        or schema.get("type") != "object"
        or not isinstance(required, list)
        or not all(isinstance(name, str) and name in kinds for name in required)
        or schema.get("additionalProperties") is not False
        or not isinstance(properties, Mapping)
        or properties.keys() != kinds.keys()
    ):
        return False
    return all(
        isinstance(prop, Mapping)
        and prop.keys() <= _NOTES
        and prop.get("type") == _JSON_TYPES[kinds[name]]
        for name, prop in properties.items()
    )


_Checkers = tuple[Callable[..., None], Callable[..., Any], Callable[[FunctionView], Any]]
_CHECKERS: list[_Checkers] = []


def _checkers() -> _Checkers:
    """Return ``validate_arguments``, ``hydrate`` and ``function_target``.

    Imported on first use: jsonschema is heavy, and a kernel that never invokes needs none.
    """
    if not _CHECKERS:
        from sktypes.hydration import hydrate
        from sktypes.hydration._targets import function_target
        from sktypes.validate import validate_arguments

        _CHECKERS.append((validate_arguments, hydrate, function_target))
    return _CHECKERS[0]
