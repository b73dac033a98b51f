"""The argument contract: what every door into a function decides about its arguments.

A function view compiles once, from its parameters (their schema model and native types),
into an :class:`ArgumentContract`, kept with the view (:func:`sktypes.views.derived`); views
copied from one another (a method bound again) share the compiled checks. Every
door into a function calls it, and nothing else decides: ``Kernel.invoke`` (and through it
templates, plans and the framework integrations), ``validate_arguments``, ``hydrate(view,
...)`` and the MCP server. The contract decides in one pass:

1. the arguments are a JSON object (native values are taken in their JSON form), every
   required argument is there and no unknown one (unless the function takes ``**kwargs``);
2. the parameters whose schema decides — those without a native type, and those whose
   schema says more than their native type (a ``minimum`` added by hand, a spec's schema
   beside a generated model) — are checked against their schemas (:class:`SchemaCheck`:
   a compiled yes-check, jsonschema for the details), with the lax coercions of
   :func:`sktypes.hydrate` (``"2"`` for an integer) unless ``strict``;
3. the parameters with native types are hydrated by pydantic in one pass over the whole
   arguments object (lax: numeric and boolean strings, ISO dates and times, UUID text, enums
   by value and — as a fallback — by member name; none of it with ``strict``).

Whether a parameter's schema says more than its native type is decided when the contract
is compiled, by comparing the schema with the one :func:`sktypes.function_view` derives
from that type and default (:func:`sktypes.introspect.native_schema`).

A refusal is one :class:`~sktypes.errors.ArgumentsError` listing every problem, in the
order of the view's parameters, then the unknown arguments: ``$.name: required argument
missing``; ``$.name: unknown argument (known: ...)``; a value's problems at their JSON
paths, in the schema's terms when the schema finds them (``'two' is not of type
'integer'``), else in the native type's (``Input should be a valid date``). Whatever the
door, the same arguments give the same outcome and the same text.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import pydantic_core
import typing_extensions
from pydantic import ConfigDict

from sktypes._arguments_schema import build_parameters_schema, parameters_document
from sktypes._identity import IdentityCache
from sktypes.errors import ArgumentsError, ErrorDetail, HydrationError, snippet
from sktypes.hydration._check import NO_FIT, SchemaCheck
from sktypes.hydration._errors import Invalid, join_path, member_of
from sktypes.hydration._partial import partial_schema, partial_type
from sktypes.hydration._targets import JsonSyntax, Target, TypeTarget, loads
from sktypes.introspect import native_schema
from sktypes.schema import compat_type
from sktypes.views import FunctionView, ParameterView, derived

__all__ = [
    "MISSING_ARGUMENT",
    "ArgumentContract",
    "ContractTarget",
    "argument_contract",
]

MISSING_ARGUMENT = "required argument missing"
"""What a required argument the call lacks is reported as."""

_PLAIN_TYPES = frozenset({str, int, float, bool})
"""Native types whose exact instances pydantic's lax validation returns as they are."""
_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})
_IMMUTABLE = frozenset({str, int, float, bool, type(None), bytes})
"""Default values of these types are filled in as they are; others are deep-copied per call."""


def argument_contract(view: FunctionView) -> ArgumentContract:
    """The argument contract of ``view``: compiled on first use, then kept with the view."""
    return derived(view, ArgumentContract, ArgumentContract)


class ArgumentContract:
    """The compiled decision about a function view's arguments (see the module docstring).

    Args:
        view: the function view.
        partial: the contract for a *prefix* of the arguments (streamed hydration): nothing
            is required, native types and schemas are their partial twins, no defaults.

    Attributes:
        view: the view it was compiled from.
        function: the function's ``Plugin.name`` (what its errors name).
        schema_decides: the parameters whose schema is checked (no native type, or a
            schema that says more than the native type); the others are decided by their
            native types alone.
        is_partial: whether this is the contract for prefixes.
    """

    __slots__ = (
        "_compiled",
        "_defaults",
        "_extra",
        "_gate",
        "_known",
        "_native",
        "_partial",
        "_plain",
        "_required",
        "_target",
        "function",
        "is_partial",
        "schema_decides",
        "view",
    )

    def __init__(self, view: FunctionView, *, partial: bool = False) -> None:
        self.view = view
        self.function = view.fully_qualified_name
        self.is_partial = partial
        compiled = self._compiled = _compiled(view, partial)
        self.schema_decides = compiled.schema_decides
        self._known = compiled.known
        self._extra = view.accepts_extra
        self._required = compiled.required
        self._defaults = compiled.defaults
        self._gate = compiled.gate
        self._native = compiled.native
        self._plain = compiled.plain
        self._partial: ArgumentContract | None = None
        self._target: ContractTarget | None = None

    # --- deciding ---------------------------------------------------------------------

    def arguments(self, arguments: Mapping[str, Any], *, strict: bool = False) -> dict[str, Any]:
        """The arguments as the function takes them: native values, defaults filled in.

        Args:
            arguments: the model's arguments (JSON values; native values are taken in
                their JSON form).
            strict: no coercions: every value must already have its JSON type.

        Raises:
            ArgumentsError: every way the arguments break the contract.
        """
        plain = self._plain
        if plain is not None and type(arguments) is dict and self._required <= arguments.keys():
            for key, value in arguments.items():
                if type(value) is not plain.get(key):
                    break
            else:  # pydantic would return every value as it is: it is not called
                return self._with_defaults(dict(arguments))
        json_args, native = self._decide(arguments, strict)
        return self._with_defaults(native if native is not None else dict(json_args))

    def json_arguments(
        self, arguments: Mapping[str, Any], *, strict: bool = False
    ) -> dict[str, Any]:
        """The arguments as JSON values, for a function that takes JSON (a remote operation).

        The same decision as :meth:`arguments`; the values are their JSON form after the
        coercions (``"2"`` → ``2``), and absent arguments stay absent (no defaults: the
        other side applies its own).

        Raises:
            ArgumentsError: every way the arguments break the contract.
        """
        json_args, native = self._decide(arguments, strict)
        if native is None:
            return dict(json_args)
        return {
            key: pydantic_core.to_jsonable_python(value, by_alias=True)
            for key, value in native.items()
        }

    def check(self, arguments: Mapping[str, Any], *, strict: bool = False) -> None:
        """Decide, and keep nothing: raise :class:`ArgumentsError` when refused."""
        self._decide(arguments, strict)

    def _decide(
        self, arguments: Mapping[str, Any], strict: bool
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The (coerced) JSON arguments, and the native ones when there are native types.

        Without a schema to check, the JSON form is not made: pydantic reads native values
        through their JSON form itself (or as they are, when they have none), and the first
        part of the answer is then the arguments as given (unused when natives are there).
        """
        if type(arguments) is not dict:
            if not isinstance(arguments, Mapping):
                raise self._refused(arguments, strict)
            arguments = dict(arguments)
        keys = arguments.keys()
        if not self._required <= keys or (not self._extra and not keys <= self._known):
            raise self._refused(arguments, strict)
        gate = self._gate
        native = self._native
        if gate is None and native is not None:  # pydantic reads native values as they are
            try:
                return arguments, native.from_value(arguments, strict)
            except Invalid:
                raise self._refused(arguments, strict) from None
        json_args = _json_form(arguments)
        if json_args is None:
            raise self._refused(arguments, strict)
        if gate is not None:
            fitted = gate.fitting(json_args, strict)
            if fitted is NO_FIT:
                raise self._refused(arguments, strict)
            json_args = fitted
        if native is None:
            return json_args, None
        try:
            return json_args, native.from_value(json_args, strict)
        except Invalid:
            raise self._refused(arguments, strict) from None

    def _with_defaults(self, out: dict[str, Any]) -> dict[str, Any]:
        for name, default, mutable in self._defaults:
            if name not in out:
                out[name] = copy.deepcopy(default) if mutable else default
        return out

    # --- refusing ---------------------------------------------------------------------

    def _refused(self, arguments: Any, strict: bool) -> ArgumentsError:
        """Every problem of arguments the contract refuses, as one error (the slow path)."""
        details = self.problems(arguments, strict=strict)
        if not details:  # pragma: no cover - a refusal always has a reason
            details = [ErrorDetail("$", "the arguments do not fit the function")]
        return self.error(details)

    def error(
        self, details: Sequence[ErrorDetail], note: str = "", total: int | None = None
    ) -> ArgumentsError:
        """The error refusing arguments with ``details`` (``note``: how they were read)."""
        summary = f"invalid arguments for {self.function}" + (f" ({note})" if note else "")
        return ArgumentsError(details, summary=summary, function=self.function, total=total)

    def problems(self, arguments: Any, *, strict: bool = False) -> list[ErrorDetail]:
        """Every way ``arguments`` break the contract, in order (empty: they are accepted)."""
        if not isinstance(arguments, Mapping):
            return [ErrorDetail("$", "arguments must be a JSON object", snippet(arguments))]
        by_name: dict[str, list[ErrorDetail]] = {}
        values: dict[str, Any] = {}
        for key, value in arguments.items():
            if key not in self._known and not self._extra:
                continue
            try:
                values[key] = _json_value(value)
            except ValueError as exc:
                by_name[key] = [ErrorDetail(join_path("$", key), str(exc), snippet(value))]
        schema_found = self._schema_problems(values, strict)
        refused = {name for name in schema_found if name in self.schema_decides}
        for name, details in self._native_problems(values, strict).items():
            refused.add(name)
            by_name.setdefault(name, details)
        for name in refused:
            if name in schema_found:
                by_name[name] = schema_found[name]
        out: list[ErrorDetail] = []
        for name in (p.name for p in self.view.parameters):
            if name in by_name:
                out.extend(by_name[name])
            elif name in self._required and name not in arguments:
                out.append(ErrorDetail(join_path("$", name), MISSING_ARGUMENT))
        if not self._extra:
            known = ", ".join(sorted(self._known)) or "none"
            out.extend(
                ErrorDetail(join_path("$", str(key)), f"unknown argument (known: {known})")
                for key in arguments
                if key not in self._known
            )
        return out

    def _schema_problems(
        self, values: dict[str, Any], strict: bool
    ) -> dict[str, list[ErrorDetail]]:
        """The schema's problems with each argument (after the lax coercions)."""
        full = self._full_check()
        candidate, _ = full.fit(values, strict, members=False)
        found: dict[str, list[ErrorDetail]] = {}
        for detail in full.problems(candidate, members=False):
            name = member_of(detail.path)
            if name is not None:
                found.setdefault(name, []).append(detail)
        return found

    def _native_problems(
        self, values: dict[str, Any], strict: bool
    ) -> dict[str, list[ErrorDetail]]:
        """What the native types refuse, per argument (missing and unknown ones left out)."""
        native = self._native
        if native is None:
            return {}
        present = {k: v for k, v in values.items() if k in self._known}
        try:
            native.from_value(present, strict)
        except Invalid as exc:
            found: dict[str, list[ErrorDetail]] = {}
            for detail in exc.details:
                name = member_of(detail.path)
                if name is None or name not in present:
                    continue  # the arguments object itself: reported as arguments
                found.setdefault(name, []).append(detail)
            return found
        return {}

    def _full_check(self) -> SchemaCheck:
        """The check of the whole arguments schema (built on the first refusal)."""
        compiled = self._compiled
        if compiled.full is None:
            document = parameters_document(self.view)
            compiled.full = SchemaCheck(
                partial_schema(document.to_python()) if self.is_partial else document
            )
        return compiled.full

    def target(self) -> ContractTarget:
        """The contract as a hydration target (what ``hydrate(view, ...)`` reads into)."""
        if self._target is None:
            self._target = ContractTarget(self)
        return self._target

    def partial(self) -> ArgumentContract:
        """The contract for a prefix of the arguments (see the class docstring)."""
        if self.is_partial:
            return self
        if self._partial is None:
            self._partial = ArgumentContract(self.view, partial=True)
        return self._partial


class _Compiled:
    """What a contract compiles to: shared by the views made from one another.

    A view made with ``dataclasses.replace`` (a method bound again, a plugin renamed) keeps
    the parameters tuple of the view it came from, and so the compiled checks: compiling
    again would cost what a first call costs (a pydantic schema build, ~1 ms) on every copy.
    """

    __slots__ = (
        "defaults",
        "full",
        "gate",
        "known",
        "native",
        "plain",
        "required",
        "schema_decides",
    )

    def __init__(self, view: FunctionView, partial: bool) -> None:
        params = view.parameters
        self.known = frozenset(p.name for p in params)
        self.required = frozenset(() if partial else (p.name for p in params if p.is_required))
        self.defaults = tuple(
            (p.name, p.default_value, type(p.default_value) not in _IMMUTABLE)
            for p in params
            if not p.is_required and not partial and _declares_default(p)
        )
        gated = [p for p in params if _schema_decides(p, partial)]
        self.schema_decides = frozenset(p.name for p in gated)
        self.gate = _gate(gated, partial) if gated else None
        natives = [p for p in params if p.native_type is not None]
        self.native = _native(view, natives, partial) if natives else None
        self.plain: dict[str, type] | None = None
        simple = not gated and not partial and not view.accepts_extra
        if simple and all(p.native_type in _PLAIN_TYPES for p in params):
            self.plain = {p.name: p.native_type for p in params}
        self.full: SchemaCheck | None = None


_COMPILED: IdentityCache[tuple[ParameterView, ...], dict[tuple[bool, bool], _Compiled]] = (
    IdentityCache(4096)
)
"""Compiled contracts by the identity of the parameters tuple (and ``accepts_extra``,
partial): views copied from one another share it; nothing is hashed."""


def _compiled(view: FunctionView, partial: bool) -> _Compiled:
    by_kind = _COMPILED.get(view.parameters)
    if by_kind is None:
        by_kind = _COMPILED.put(view.parameters, {})
    key = (view.accepts_extra, partial)
    found = by_kind.get(key)
    if found is None:
        found = by_kind[key] = _Compiled(view, partial)
    return found


def _declares_default(param: ParameterView) -> bool:
    """Whether an optional parameter has a default to fill in when it is absent.

    ``default_value`` is ``None`` both for a default of ``None`` and for "no default known"
    (a spec's optional parameter, a generated method's ``MISSING``): only a schema that says
    ``default`` (as :func:`sktypes.function_view` writes for ``= None``) tells them apart.
    Filling in a ``None`` nobody declared would turn an absence into a ``null``.
    """
    if param.default_value is not None or param.schema is None:
        return True
    root = param.schema.to_python()
    return not isinstance(root, dict) or "default" in root


def _schema_decides(param: ParameterView, partial: bool) -> bool:
    """Whether the parameter's schema decides (its native type does not say it all)."""
    if param.schema is None:
        return False
    if param.native_type is None:
        return True
    return not partial and native_schema(param) != param.schema


def _gate(params: list[ParameterView], partial: bool) -> SchemaCheck:
    """The check of the parameters whose schema decides (presence is checked apart)."""
    schema = build_parameters_schema(params, accepts_extra=True)
    schema.pop("required", None)
    return SchemaCheck(partial_schema(schema) if partial else schema)


def _native(view: FunctionView, natives: list[ParameterView], partial: bool) -> TypeTarget:
    """One pydantic pass over the arguments object: the native parameters typed, others as sent."""
    fields: dict[str, Any] = {}
    for p in natives:
        tp = compat_type(p.native_type)
        if partial:
            tp = partial_type(tp)
        required = p.is_required and not partial
        fields[p.name] = (
            typing_extensions.Required[tp] if required else typing_extensions.NotRequired[tp]
        )
    make: Any = typing_extensions.TypedDict
    arguments = make(f"{view.name}Arguments", fields)
    arguments.__pydantic_config__ = ConfigDict(extra="allow")
    target = TypeTarget(arguments, is_partial=True)
    target.name = f"arguments of {view.fully_qualified_name}"
    return target


def _json_value(value: Any) -> Any:
    """The JSON form of one argument value (``ValueError`` when it has none)."""
    if type(value) in _JSON_SCALARS:
        return value
    try:
        return pydantic_core.to_jsonable_python(value, by_alias=True)
    except Exception as exc:  # pydantic-core raises its own error types for unknown values
        raise ValueError(f"{type(value).__name__} is not JSON-representable") from exc


def _json_form(arguments: dict[str, Any]) -> dict[str, Any] | None:
    """``arguments`` with every value in its JSON form (the same dict when they all are)."""
    out: dict[str, Any] | None = None
    for key, value in arguments.items():
        if type(value) in _JSON_SCALARS:
            continue
        if out is None:
            out = dict(arguments)
        try:
            out[key] = _json_value(value)
        except ValueError:
            return None
    return arguments if out is None else out


class ContractTarget(Target):
    """An argument contract as a hydration target (what ``hydrate(view, ...)`` reads into)."""

    def __init__(self, contract: ArgumentContract) -> None:
        self.contract = contract
        self.name = f"arguments of {contract.function}"

    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Parse the arguments object, then decide."""
        return self.from_value(loads(raw), strict)

    def from_value(self, value: Any, strict: bool) -> Any:
        """Decide about an already-parsed arguments object."""
        try:
            return self.contract.arguments(value, strict=strict)
        except ArgumentsError as exc:
            raise Invalid(exc.errors, exc.total) from None

    def from_partial_json(self, body: str, strict: bool) -> Any:
        """Decide about the complete part of a prefix (the partial contract)."""
        try:
            value = pydantic_core.from_json(body, allow_partial=True)
        except ValueError as exc:
            raise JsonSyntax(str(exc)) from None
        return self.from_value(value, strict)

    def partial(self) -> Target:
        """The target of the partial contract."""
        if self.contract.is_partial:
            return self
        return self.contract.partial().target()

    def failure(self, details: list[ErrorDetail], note: str, total: int) -> HydrationError:
        """The contract's own error: refused arguments are refused alike at every door."""
        return self.contract.error(details, note, total)
