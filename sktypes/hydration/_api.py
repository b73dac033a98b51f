"""``hydrate``: the public entry point and the repair pipeline.

The order of work, cheapest first:

1. **fast path** — the whole text goes to the target (pydantic's ``validate_json`` for
   types): clean JSON costs exactly what pydantic costs;
2. **value fixes** — valid JSON that does not fit: a JSON string holding the object
   (double encoding) is unwrapped; enum member names are mapped to values;
3. **extraction** — the first code fence (``json``-labelled first), else the text
   itself: its outermost ``{…}``/``[…]`` span is tried as it is;
4. **repair** — the tolerant scanner (:mod:`._scan`) rewrites the first complete value
   into strict JSON, which goes to the target.

``strict=True`` stops after step 1 and validates in pydantic's strict mode.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from sktypes.errors import ErrorDetail, HydrationError, SktypesError, snippet
from sktypes.hydration._dispatch import target_for
from sktypes.hydration._errors import Invalid, line_col
from sktypes.hydration._extract import (
    OPEN,
    TRAILING_NUMBER,
    cut_json,
    is_json_body,
    is_json_label,
    matching_close,
    outer_span,
    regions,
    scan_detail,
    starts,
    tail,
)
from sktypes.hydration._finite import FiniteOnly
from sktypes.hydration._quick import quick_rewrite
from sktypes.hydration._scan import ScanResult, scan
from sktypes.hydration._targets import JsonSyntax, Target, loads
from sktypes.jsondoc import JsonDocument
from sktypes.views import FunctionView, ParameterView, ReturnParameterView

__all__ = ["DEFAULT_LIMITS", "HydrationLimits", "hydrate"]

T = TypeVar("T")

_NOTHING: Any = object()


@dataclass(frozen=True, slots=True)
class HydrationLimits:
    """Bounds on what one hydration reads.

    Attributes:
        max_size: largest input, in bytes (UTF-8) or characters; larger input fails at once.
        max_depth: deepest nesting of arrays and objects the repair scanner follows.
            pydantic's own JSON parser stops at 200 levels whatever this says.
        max_candidates: how many ``{``/``[`` positions in prose are tried as the start
            of the JSON value before giving up (keeps repair linear in the input size).
    """

    max_size: int = 16 * 1024 * 1024
    max_depth: int = 200
    max_candidates: int = 16


DEFAULT_LIMITS = HydrationLimits()
"""The limits ``hydrate`` applies when none are given: 16 MiB, 200 levels, 16 candidates."""
_PARSER_DEPTH = 200  # pydantic's JSON parser refuses deeper nesting by itself

JsonInput = str | bytes | bytearray | memoryview | Any
"""What ``hydrate`` reads: text, UTF-8 bytes, or an already-parsed JSON value."""


@overload
def hydrate(
    target: type[T],
    data: JsonInput,
    *,
    partial: bool = ...,
    repair: bool = ...,
    strict: bool = ...,
    limits: HydrationLimits | None = ...,
    allow_inf_nan: bool = ...,
) -> T: ...
@overload
def hydrate(
    target: FunctionView,
    data: JsonInput,
    *,
    partial: bool = ...,
    repair: bool = ...,
    strict: bool = ...,
    limits: HydrationLimits | None = ...,
    allow_inf_nan: bool = ...,
) -> dict[str, Any]: ...
@overload
def hydrate(
    target: ParameterView | ReturnParameterView | Mapping[str, Any] | JsonDocument | Any,
    data: JsonInput,
    *,
    partial: bool = ...,
    repair: bool = ...,
    strict: bool = ...,
    limits: HydrationLimits | None = ...,
    allow_inf_nan: bool = ...,
) -> Any: ...
def hydrate(
    target: Any,
    data: JsonInput,
    *,
    partial: bool = False,
    repair: bool = True,
    strict: bool = False,
    limits: HydrationLimits | None = None,
    allow_inf_nan: bool = False,
) -> Any:
    """Turn what a model sent back into a native value of ``target``.

    Args:
        target: a Python type (anything pydantic validates), a ``ParameterView`` or
            ``ReturnParameterView`` (its native type, else its schema), a
            ``FunctionView`` (an arguments object → ``dict`` of native values, defaults
            applied) or a JSON Schema (``dict`` or ``JsonDocument``; returns JSON values).
        data: the model's text (``str`` or UTF-8 ``bytes``) or an already-parsed value.
        partial: accept a truncated prefix and return the best value so far (fields not
            yet complete are absent; see docs/hydration.md).
        repair: find the JSON inside prose or code fences and fix what models get wrong.
        strict: no repair and no coercions (pydantic's strict mode).
        limits: size and depth bounds (:data:`DEFAULT_LIMITS`).
        allow_inf_nan: accept ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON numbers)
            for float fields; by default they are refused wherever they appear.

    Raises:
        HydrationError: listing every problem (JSON path, message, offending input);
            ``.for_llm()`` renders them for the model. Nothing else is raised.

    Examples:
        >>> import sktypes as sk
        >>> sk.hydrate(list[int], "Here you go: [1, 2, 3,]")
        [1, 2, 3]
        >>> sk.hydrate(dict[str, float], '{"temp_c": "21.5"}')
        {'temp_c': 21.5}
    """
    lim = limits or DEFAULT_LIMITS
    try:
        tgt = target_for(target)
    except SktypesError as exc:
        raise HydrationError(
            [ErrorDetail("$", f"cannot hydrate into {_name(target)}: {exc.message}")],
            summary=f"cannot hydrate into {_name(target)}",
        ) from None
    except Exception as exc:
        raise HydrationError(
            [ErrorDetail("$", f"cannot hydrate into {_name(target)}: {type(exc).__name__}")],
            summary=f"cannot hydrate into {_name(target)}",
        ) from None
    if not allow_inf_nan:
        tgt = FiniteOnly(tgt)
    try:
        return _run(tgt, data, partial, repair and not strict, strict, lim)
    except _Failed as exc:
        raise tgt.failure(exc.details, exc.note, exc.total) from None
    except HydrationError:
        raise
    except (Exception, RecursionError) as exc:  # a bug or a hostile validator: still ours
        detail = ErrorDetail("$", f"hydration failed: {type(exc).__name__}: {snippet(str(exc))}")
        raise HydrationError([detail], summary=f"cannot hydrate {tgt.name}") from None


def _name(target: Any) -> str:
    name = getattr(target, "__qualname__", None)
    return name if isinstance(name, str) else snippet(repr(target), 40)


class _Failed(Exception):
    def __init__(self, details: list[ErrorDetail], note: str = "", total: int = 0) -> None:
        super().__init__(details[0].message if details else note)
        self.details = details
        self.note = note
        self.total = max(total, len(details))


def _run(
    tgt: Target, data: Any, partial: bool, repair: bool, strict: bool, lim: HydrationLimits
) -> Any:
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, (str, bytes)):
        return _from_value(tgt, data, partial, repair, strict, lim)
    if len(data) > lim.max_size:
        raise _Failed([ErrorDetail("$", f"input is {len(data)} long; the limit is {lim.max_size}")])
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    if partial and cut_json(text):  # cannot be complete: go straight to the prefix parser
        return _repair(tgt, text, partial, repair, strict, lim, complete_tries=False)
    try:
        return _checked(tgt, data, partial, repair, strict, lim, unwrap=repair)
    except JsonSyntax as exc:
        syntax = str(exc)
    if not repair and not partial:
        raise _Failed([ErrorDetail("$", f"not valid JSON: {syntax}", tail(data))])
    return _repair(tgt, text, partial, repair, strict, lim)


def _from_value(
    tgt: Target, data: Any, partial: bool, repair: bool, strict: bool, lim: HydrationLimits
) -> Any:
    try:
        return tgt.from_value(data, strict)
    except Invalid as exc:
        first = exc
    if repair and isinstance(data, str) and not tgt.accepts_text:
        return _text_value(tgt, data, partial, strict, lim, first)
    if partial:
        try:
            return tgt.partial().from_value(data, strict)
        except Invalid:
            pass
    raise _Failed(first.details, total=first.total)


def _text_value(
    tgt: Target,
    data: str,
    partial: bool,
    strict: bool,
    lim: HydrationLimits,
    first: Invalid,
) -> Any:
    """An already-parsed string that should have been an object: parse it as text."""
    try:
        return _run(tgt, data, partial, True, strict, lim)
    except _Failed:
        raise _Failed(first.details, total=first.total) from None


def _checked(
    tgt: Target,
    raw: str | bytes,
    partial: bool,
    repair: bool,
    strict: bool,
    lim: HydrationLimits,
    *,
    unwrap: bool,
    note: str = "",
) -> Any:
    """Validate strict JSON text; on a misfit try the value fixes, then the partial twin."""
    try:
        return tgt.from_json(raw, strict)
    except Invalid as exc:
        misfit = exc
    if unwrap and not tgt.accepts_text and raw.lstrip()[:1] in ('"', b'"'):
        inner = loads(raw)
        if isinstance(inner, str) and inner.strip()[:1] in ("{", "["):  # double encoded
            try:
                return _run(tgt, inner, partial, repair, strict, lim)
            except _Failed:
                pass
    if partial:
        try:
            return tgt.partial().from_json(raw, strict)
        except Invalid:
            pass
    raise _Failed(misfit.details, note, misfit.total)


class _Hydrated(Exception):
    """The first JSON fence read into the target as the fence finder asked about it."""

    def __init__(self, value: Any) -> None:
        super().__init__("hydrated")
        self.value = value


class _FirstFence:
    """Whether the first JSON fence's body is JSON, answered by reading it into the target.

    It is the first region tried, and would be read into the target as it is anyway: a
    value ends the search (:class:`_Hydrated`), a misfit is kept for its turn (it is the
    answer's error, with the note the regions give it), and text that is not JSON goes
    to the repair without being read again. Other fences are asked of orjson.
    """

    def __init__(self, tgt: Target, partial: bool, strict: bool, lim: HydrationLimits) -> None:
        self.tgt, self.partial, self.strict, self.lim = tgt, partial, strict, lim
        self.asked = False
        self.body: str | None = None  # the body read into the target
        self.failed: _Failed | None = None  # its misfit
        self.syntax = False  # whether it was not JSON

    def __call__(self, label: str, body: str) -> bool:
        if self.asked or not is_json_label(label) or body.lstrip()[:1] not in ("{", "["):
            self.asked = self.asked or is_json_label(label)
            return is_json_body(label, body)
        self.asked = True
        self.body = body
        try:
            value = _checked(
                self.tgt, body.strip(), self.partial, True, self.strict, self.lim, unwrap=True
            )
        except JsonSyntax:
            self.syntax = True
            return False
        except _Failed as exc:
            self.failed = exc
            return True
        raise _Hydrated(value)


def _repair(
    tgt: Target,
    text: str,
    partial: bool,
    repair: bool,
    strict: bool,
    lim: HydrationLimits,
    *,
    complete_tries: bool = True,
) -> Any:
    first_error: ScanResult | None = None
    fence = _FirstFence(tgt, partial, strict, lim) if repair and complete_tries else None
    try:
        found = regions(text, fence) if fence is not None else regions(text)
    except _Hydrated as done:
        return done.value
    for region, note in found:
        body = outer_span(region) if complete_tries else ""
        tried = fence is not None and region is fence.body
        if tried and fence is not None and fence.failed is not None:
            failed = fence.failed
            raise _Failed(failed.details, note, failed.total)
        if body and repair:
            quick = lim.max_depth >= _PARSER_DEPTH  # else only the scanner enforces the limit
            for rewrite in (False, True) if quick else (False,):
                if tried and not rewrite:
                    continue  # the first fence, as it is, is not JSON (the target said)
                candidate = quick_rewrite(body) if rewrite else body  # rewrite only if needed
                try:
                    return _checked(
                        tgt, candidate, partial, repair, strict, lim, unwrap=True, note=note
                    )
                except JsonSyntax:
                    pass
        if partial:
            got = _clean_prefix(tgt, region, strict)
            if got is not _NOTHING:
                return got
        broken: list[tuple[int, int]] = []  # closed bracket pairs the scanner refused
        for start in starts(region, lim.max_candidates):
            if any(lo < start < hi for lo, hi in broken):
                continue  # a part of a broken value is not the answer
            result = scan(region, start, partial=partial, max_depth=lim.max_depth)
            if result.complete and result.json[:1] not in "{[" and region[result.end :].strip():
                result = ScanResult(
                    "", start, result.end, False, "text follows a bare value", result.end
                )
            if result.json and (result.complete or partial):
                more = OPEN.search(region, result.end) is not None if result.complete else False
                where = f"the text holds more JSON; used the value at {line_col(region, start)}"
                note2 = "; ".join(n for n in (note, where if more else "") if n)
                try:
                    return _checked(
                        tgt, result.json, partial, repair, strict, lim, unwrap=True, note=note2
                    )
                except JsonSyntax as exc:  # pragma: no cover - the scanner wrote strict JSON
                    raise _Failed([ErrorDetail("$", f"repair failed: {exc}")]) from None
            if first_error is None or (result.truncated and not first_error.truncated):
                first_error = result
            if result.error and region[start] in "{[":
                # A value the region opens with runs to its end even when never closed.
                opens = not region[:start].strip()
                close = len(region) if opens else matching_close(region, start)
                if close > 0:
                    broken.append((start, close))
            if result.truncated or result.elements:
                break  # later starts lie inside the broken (or cut-off) value
        if first_error is not None and (first_error.truncated or first_error.elements):
            break
    if tgt.accepts_text and repair and text.strip():
        try:
            return tgt.from_value(text.strip(), strict)
        except Invalid:
            pass
    raise _Failed([scan_detail(first_error, text)])


def _clean_prefix(tgt: Target, region: str, strict: bool) -> Any:
    """A prefix of clean JSON: pydantic's partial parser, then the partial target.

    A number that touches the end may be cut (``21`` of ``215``), so it is dropped
    first; incomplete strings, literals and keys are dropped by the parser itself.
    Returns ``_NOTHING`` when the prefix is not clean JSON (the scanner takes over).
    """
    first = OPEN.search(region)
    if first is None:
        return _NOTHING
    body = region[first.start() :]
    if body[-1:].isdigit():
        body = TRAILING_NUMBER.sub("", body)
    try:
        return tgt.partial().from_partial_json(body, strict)
    except JsonSyntax:
        return _NOTHING
    except Invalid as exc:
        raise _Failed(exc.details, total=exc.total) from None
