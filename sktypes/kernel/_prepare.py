"""Arguments as a kernel function gets them: checked against its view, then hydrated.

:func:`prepare_arguments` is the step ``Kernel.invoke`` runs before every call (and the
blocking calls of templates run inline). :func:`fast_path` is its shortcut for the
commonest functions, kept per function.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sktypes._identity import by_identity
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
FastPath = Callable[[dict[str, Any]], "dict[str, Any] | None"]
"""Ready arguments for ``arguments`` taken as they are, or ``None``: take the full path."""


@by_identity
def fast_path(fn: KernelFunction) -> FastPath | None:
    """:func:`prepare_arguments` for the commonest functions, in one step (kept per function).

    For a function whose parameters are all ``str``/``int``/``float``/``bool`` (no
    ``**kwargs``), hydration has a shortcut (``FunctionTarget.plain_arguments``): values
    each of exactly its parameter's type, required names present, no unknown names, are
    already native. Validation is then the compiled check — or nothing more, when the
    schema says no more than those types and required names (the usual introspected
    function). Anything else gives ``None``: the full path decides (and reports).
    """
    from sktypes.hydration._targets import function_target
    from sktypes.validate import quick_check

    if not fn.hydrate:
        return None
    view = fn.view
    target = function_target(view)
    if not target.is_plain:
        return None
    plain: FastPath = target.plain_arguments
    if _types_only(view):
        return plain
    check = quick_check(view)
    if check is None:
        return None

    def ready(arguments: dict[str, Any]) -> dict[str, Any] | None:
        return plain(arguments) if check(arguments) else None

    return ready


_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}
_NOTES = frozenset({"type", "title", "description", "default", "examples", "deprecated"})
_OBJECT_KEYS = frozenset(
    {"type", "properties", "required", "additionalProperties", "title", "description"}
)


def _types_only(view: FunctionView) -> bool:
    """Whether the arguments schema says no more than the view's parameters do.

    That is: an object of exactly the parameters, each of its native type's JSON type
    (plus notes such as descriptions), required exactly where the parameters are, nothing
    else allowed — what ``plain_arguments`` already checks.
    """
    schema = view.parameters_schema
    kinds = {p.name: p.native_type for p in view.parameters}
    required = schema.get("required", [])
    properties = schema.get("properties", {})
    if (
        not schema.keys() <= _OBJECT_KEYS
        or schema.get("type") != "object"
        or schema.get("additionalProperties") is not False
        or not isinstance(required, list)
        or not all(isinstance(name, str) for name in required)
        or set(required) != {p.name for p in view.parameters if p.is_required}
        or not isinstance(properties, Mapping)
        or properties.keys() != kinds.keys()
    ):
        return False
    return all(
        isinstance(prop, Mapping)
        and prop.keys() <= _NOTES
        and prop.get("type") == _JSON_TYPES.get(kinds[name])
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
