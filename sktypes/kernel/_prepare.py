"""Arguments as a kernel function gets them: validated and hydrated in one pass.

:func:`prepare_arguments` is the one step between a model's (JSON) arguments and a call,
whoever calls — ``Kernel.invoke``, a filter chain's end, a template, a plan, an
integration. It is :func:`sktypes.hydrate` of the function's view with ``repair=False``:
the same targets, the same lax coercions (numeric and boolean strings, ISO dates and
times, UUID text, enums by value and — as a fallback — by name), or none of them with
``strict=True``. Values the function's native types accept as they are (a ``str`` for a
``str``) pass without pydantic being called (hydration's own shortcut).

What validation adds is decided once per function:

- a function whose view was introspected from its native function (the usual case) is
  described completely by its native types: hydrating *is* validating, in one pass;
- a view whose schemas say something its native types do not (a hand-built or edited
  view, e.g. ``minimum`` added to an ``int`` parameter) is also checked against its
  arguments schema, with the schema's own lax coercions (numeric and boolean strings);
- a function that takes JSON (a remote operation, ``KernelFunction.hydrate=False``) is
  checked against its arguments schema only, and gets the (coerced) JSON values.

When the arguments are refused, the error says why in the view's terms: an
:class:`~sktypes.errors.ArgumentsError` when they break the arguments schema (every
violation, each with its JSON path), a :class:`~sktypes.errors.HydrationError` when they
fit the schema but not the native types (``"nope"`` for a ``date`` whose schema says
``string``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sktypes._identity import by_identity
from sktypes.content._codec import to_json_value
from sktypes.errors import ArgumentsError, ContentError, ErrorDetail, HydrationError
from sktypes.kernel._function import KernelFunction
from sktypes.views import FunctionView

__all__ = ["prepare_arguments"]


def prepare_arguments(
    fn: KernelFunction, arguments: Mapping[str, Any], *, strict: bool = False
) -> dict[str, Any]:
    """Validate and hydrate ``arguments`` for ``fn`` (see the module docstring).

    Args:
        fn: the function to be called.
        arguments: JSON values as a model sends them; native values go through their
            JSON form first.
        strict: no coercions: every value must already have its JSON type.

    Raises:
        ArgumentsError: the arguments break the view's arguments schema.
        HydrationError: they fit the schema but cannot become the native types, or are
            not JSON.
    """
    shape = _shape(fn)
    target = shape.target
    if shape.exact and type(arguments) is dict:  # hydration's shortcut, before any copy
        ready: dict[str, Any] | None = target.plain_arguments(arguments)
        if ready is not None:
            return ready
    view = fn.view
    json_args = _json_arguments(arguments, view)
    if target is None:
        return _checked(view, json_args, strict)
    try:
        native: dict[str, Any] = target.from_value(json_args, strict)
    except shape.invalid as exc:
        raise _refused(view, json_args, strict, exc.details) from None
    if shape.schema_says_more:
        _checked(view, json_args, strict)
    return native


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _json_arguments(arguments: Mapping[str, Any], view: FunctionView) -> dict[str, Any]:
    """``arguments`` with every value in its JSON form (the same dict when they all are)."""
    out: dict[str, Any] | None = None
    for key, value in arguments.items():
        if type(value) in _PLAIN:
            continue
        if out is None:
            out = dict(arguments)
        try:
            out[key] = to_json_value(value, f"$.{key}")
        except ContentError as exc:
            raise HydrationError(
                [ErrorDetail(exc.where or "$", exc.message)],
                summary=f"arguments for {view.fully_qualified_name} are not JSON",
            ) from None
    if out is not None:
        return out
    return arguments if type(arguments) is dict else dict(arguments)


@dataclass(frozen=True, slots=True)
class _Shape:
    """What preparing a function's arguments takes, decided once per function."""

    target: Any  # the view's FunctionTarget; None when the function takes JSON
    schema_says_more: bool
    exact: bool  # hydration's plain shortcut can answer (the target is plain, nothing more)
    invalid: Any  # hydration's Invalid (imported on first use: jsonschema is heavy)


@by_identity
def _shape(fn: KernelFunction) -> _Shape:
    from sktypes.hydration._errors import Invalid
    from sktypes.hydration._targets import function_target

    if not fn.hydrate:
        return _Shape(None, True, False, Invalid)
    target = function_target(fn.view)
    more = not _described_by_natives(fn.view)
    return _Shape(target, more, target.is_plain and not more, Invalid)


def _described_by_natives(view: FunctionView) -> bool:
    """Whether the view's schemas say no more than its native types (so hydrating checks all).

    True for a view introspected from its native function (the parameters are the
    introspector's, schema derived from type), and for a view whose parameters have no
    native types (their schemas are what hydration checks). False otherwise — the view's
    arguments schema is then checked too.
    """
    if all(p.native_type is None for p in view.parameters):
        return True
    from sktypes.introspect import is_introspected

    return is_introspected(view)


def _checked(view: FunctionView, json_args: dict[str, Any], strict: bool) -> dict[str, Any]:
    """The JSON arguments when they fit the arguments schema (coerced, unless ``strict``).

    Raises:
        ArgumentsError: every violation that remains.
    """
    from sktypes.validate import validate_arguments

    try:
        validate_arguments(view, json_args)
    except ArgumentsError:
        if strict:
            raise
        fixed = _coerced(view, json_args)
        if fixed is None:
            raise
        validate_arguments(view, fixed)  # raises what remains after the coercions
        return fixed  # type: ignore[no-any-return]
    return json_args


def _coerced(view: FunctionView, json_args: dict[str, Any]) -> Any:
    """The arguments with numeric/boolean strings turned into what the schema wants.

    Where a string may be coerced is read from the schema model of the arguments schema:
    the first coerced copy the schema accepts, else the first coerced copy (its remaining
    problems are then reported), else ``None``.
    """
    from sktypes.hydration._coerce import coerce_schema_strings
    from sktypes.schema import parse
    from sktypes.validate import validator_for
    from sktypes.views import parameters_document

    validator = validator_for(view)
    candidates = coerce_schema_strings(parse(parameters_document(view)).root, json_args)
    for candidate in candidates:
        if validator.is_valid(candidate):
            return candidate
    return candidates[0] if candidates else None


def _refused(
    view: FunctionView, json_args: dict[str, Any], strict: bool, details: list[ErrorDetail]
) -> ArgumentsError | HydrationError:
    """The error for arguments hydration refused: the schema's view of them, if it has one."""
    try:
        _checked(view, json_args, strict)
    except ArgumentsError as exc:
        return exc
    return HydrationError(
        details, summary=f"cannot hydrate arguments of {view.fully_qualified_name}"
    )
