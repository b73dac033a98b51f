"""NaN and ±Infinity: not JSON numbers, so refused unless the caller opts in.

pydantic's JSON parser reads ``NaN``, ``Infinity`` and ``-Infinity`` (a JavaScript habit),
its lax mode turns the strings ``"nan"``/``"inf"`` into floats, and a number past the float
range (``1e400``) becomes an infinity; a model that writes them has not written a JSON
number. :class:`FiniteOnly` wraps a target and refuses them with the JSON path: ``NaN``
tokens in text and non-finite floats in parsed values before the target sees them, and
non-finite floats in the result when the text could have produced one (it holds ``nan``,
``inf`` or a huge exponent or digit run). When the target knows where its floats are
(:meth:`Target.float_check <sktypes.hydration._targets.Target.float_check>`), only those
places are looked at first; the text is read for its shapes only when one of them is not
finite. A clean answer costs a search for a capital ``N`` and ``I`` and that look.
``hydrate(..., allow_inf_nan=True)`` skips the wrapper: float fields then accept them
(fields of other types refuse them as they refuse any misfit).
"""

from __future__ import annotations

import re
from typing import Any

from sktypes.errors import ErrorDetail, HydrationError, snippet
from sktypes.hydration._errors import Invalid, line_col
from sktypes.hydration._float_slots import NON_FINITE as _MESSAGE
from sktypes.hydration._float_slots import check_result, walk_non_finite
from sktypes.hydration._scan import scan
from sktypes.hydration._targets import Target

__all__ = ["FiniteOnly"]

_HINTS = (("N", "NaN"), ("I", "Infinity"))
_HINT_BYTES = tuple((first.encode(), word.encode()) for first, word in _HINTS)
# A capital looked at costs about what a substring search costs over 500 characters: past
# that many, one search instead (so the check never costs more than twice the search).
_CHARS_PER_LOOK = 512
# What in a text may give a non-finite float, found with one bytes.translate and a few
# substring searches (C loops over the text: a regular expression over a 1 MB answer cost
# 80 ms, six times pydantic's own validation). Digits become "0", the letters of "nan",
# "inf" and "e" lower case, and signs and white space go (so "-Infinity", '" nan"' and
# "1E+400" read "infinity", '"nan' and "0e000"). Then:
# - "nan"/"inf" anywhere: a NaN or Infinity token may be there (checked exactly, below);
# - '"nan'/'"inf': a string pydantic's lax mode turns into a non-finite float;
# - "0e000": an exponent of three digits or more; 200 "0"s: a run of 200+ digits (with
#   an exponent of two digits, 210 digits before the point pass the float range).
# Dropping characters can only join pieces into a false alarm (the result is then walked,
# as before), never hide one.
_SHAPES = bytes.maketrans(b"0123456789ENAIF", b"0000000000enaif")
_DROPPED = b"+- \t\r\n"
_LONG_RUN = b"0" * 200
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"|(?<![\w$.])(-?Infinity|NaN)(?![\w$])', re.S)


def may_hold_token(text: str | bytes) -> bool:
    """Whether ``text`` spells ``NaN`` or ``Infinity`` anywhere (in a string or not).

    Each capital ``N``/``I`` is found with ``find`` (memchr) and looked at; past one per
    500 characters, one substring search settles it. A substring search costs a third of
    a millisecond per MB (three times the looks of an answer with a capital per
    thousand characters).
    """
    hints = _HINT_BYTES if isinstance(text, bytes) else _HINTS
    few = max(len(text) // _CHARS_PER_LOOK, 8)
    for first, word in hints:
        at = text.find(first)  # type: ignore[arg-type]  # both str, or both bytes
        seen = 0
        while at >= 0:
            if text.startswith(word, at):  # type: ignore[arg-type]
                return True
            seen += 1
            if seen == few:
                if text.find(word, at) >= 0:  # type: ignore[arg-type]
                    return True
                break
            at = text.find(first, at + 1)  # type: ignore[arg-type]
    return False


def _first_token(text: str) -> re.Match[str] | None:
    """The first ``NaN``/``Infinity`` outside a double-quoted string, if any."""
    for m in _TOKEN.finditer(text):
        if m.group(1) is not None:
            return m
    return None


def check_text(raw: str | bytes) -> None:
    """Raise :class:`Invalid` if JSON text uses ``NaN`` or ``Infinity`` as a number."""
    if not may_hold_token(raw):
        return
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", errors="replace")
    found = _first_token(raw)
    if found is None:
        return
    start = raw.find("{")
    bracket = min((i for i in (start, raw.find("[")) if i >= 0), default=0)
    path = scan(raw, bracket, partial=True, max_depth=10_000).error_path or "$"
    where = line_col(raw, found.start(1))
    message = _MESSAGE.format(token=found.group(1)) + f" at {where}"
    raise Invalid([ErrorDetail(path, message, snippet(found.group(1)))])


def check_value(value: Any) -> None:
    """Raise :class:`Invalid` if an already-parsed value holds a NaN or infinite float."""
    walk_non_finite(value, _PARSED_SEQUENCES, objects=False, str_keys_only=True)


_PARSED_SEQUENCES = (list, tuple)


def _shapes(raw: str | bytes) -> bytes:
    data = raw.encode("utf-8", errors="surrogatepass") if isinstance(raw, str) else raw
    return data.translate(_SHAPES, _DROPPED)


def _checked_text(raw: str | bytes) -> bool:
    """Refuse NaN/Infinity tokens in ``raw``; whether its result must be walked for them.

    The result may hold a non-finite float when the text holds a string pydantic turns
    into one (``"nan"``, ``"-inf"``...), an exponent of three digits or more, or a run of
    300 digits.
    """
    shapes = _shapes(raw)
    words = b"nan" in shapes or b"inf" in shapes
    if words:
        check_text(raw)
    return (
        (words and (b'"nan' in shapes or b'"inf' in shapes))
        or b"0e000" in shapes
        or _LONG_RUN in shapes
    )


class FiniteOnly(Target):
    """A target that refuses NaN and ±Infinity before ``inner`` sees the input."""

    def __init__(self, inner: Target) -> None:
        self.inner = inner
        self.name = inner.name
        self.accepts_text = inner.accepts_text
        self.floats = inner.float_check()
        self._partial: FiniteOnly | None = None

    def from_json(self, raw: str | bytes, strict: bool) -> Any:
        """Validate JSON text with the wrapped target, then check it.

        A NaN/Infinity token is reported before anything else the target found; text that
        is not JSON is not scanned (the repair scans what it finds in it).
        """
        try:
            result = self.inner.from_json(raw, strict)
        except Invalid:
            check_text(raw)  # a NaN/Infinity token is said first
            raise
        self._check(raw, result)
        return result

    def _check(self, raw: str | bytes, result: Any) -> None:
        """Refuse a NaN/Infinity token in ``raw``, or a non-finite float it made.

        With the target's float check, the text's shapes are read only when a float is
        not finite: the outcome is the same, the cost that of the places floats can be.
        """
        floats = self.floats
        if floats is None:
            if _checked_text(raw):
                check_result(result)
            return
        check_text(raw)
        if not floats(result) and _checked_text(raw):
            check_result(result)

    def from_value(self, value: Any, strict: bool) -> Any:
        """Check, then validate an already-parsed value with the wrapped target."""
        check_value(value)
        result = self.inner.from_value(value, strict)
        check_result(result)
        return result

    def from_partial_json(self, body: str, strict: bool) -> Any:
        """Check, then validate a prefix with the wrapped target."""
        if self.floats is not None:
            check_text(body)
            result = self.inner.from_partial_json(body, strict)
            if not self.floats(result) and _checked_text(body):
                check_result(result)
            return result
        walk = _checked_text(body)
        result = self.inner.from_partial_json(body, strict)
        if walk:
            check_result(result)
        return result

    def failure(self, details: list[ErrorDetail], note: str, total: int) -> HydrationError:
        """The wrapped target's error."""
        return self.inner.failure(details, note, total)

    def partial(self) -> Target:
        """The wrapped target's partial twin, wrapped."""
        if self._partial is None:
            inner = self.inner.partial()
            self._partial = self if inner is self.inner else FiniteOnly(inner)
        return self._partial
