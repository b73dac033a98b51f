"""A tolerant, bounded, linear-time JSON scanner that rewrites model output into JSON.

It reads one JSON-ish value starting at a given offset and emits strict JSON text that
pydantic can then validate at full speed. It never evaluates anything: it only moves
tokens around. What it repairs:

- single-quoted strings, raw control characters and invalid escapes inside strings;
- ``True``/``False``/``None`` (and ``undefined``) as literals; bare object keys;
- ``//``, ``/* */`` and ``#`` comments; trailing, doubled and missing commas;
- numbers such as ``+1``, ``.5`` or ``1.``; stray control characters between tokens.

Tokens come from one compiled regex (strings are matched in C, whatever their length),
so the cost is one regex match per token. Nesting uses an explicit stack with a depth
limit: no recursion, no ``RecursionError``.

At the end of the text with containers still open, a *final* scan reports where the
text was cut; a *partial* scan drops the unfinished element (a half-written string,
a number or word that touches the end, a key without a value) and closes the containers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["BadEscape", "ScanResult", "fix_string", "scan"]

_TOKEN = re.compile(
    r"""\s*+(?:
     (?P<s>"[^"\\]*+(?:\\.[^"\\]*+)*+(?P<se>")?)
    |(?P<q>'[^'\\]*+(?:\\.[^'\\]*+)*+(?P<qe>')?)
    |(?P<c>//[^\n]*+|/\*.*?(?:\*/|\Z)|\#[^\n]*+)
    |(?P<n>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)
    |(?P<w>[A-Za-z_$][\w$]*+)
    |(?P<p>[{}\[\]:,])
    |(?P<x>\S)
    )""",
    re.S | re.X,
)
_NEEDS_FIX = re.compile(r"[\x00-\x1f\\]")
# One escape (or a character JSON must escape) inside a string, read as Python reads a
# string literal: what JSON also reads is kept; \xHH \UHHHHHHHH \N{NAME} \a \v \' and a
# backslash before a line end become what they stand for; an escape Python refuses (or an
# octal one, see _escape) is an error; any other backslash is text, as in Python ("\d").
_ESCAPE = re.compile(
    r"""\\(?:
     (?P<json>u[0-9a-fA-F]{4}|["\\/bfnrt])
    |x(?P<x>[0-9a-fA-F]{2})
    |U(?P<U>[0-9a-fA-F]{8})
    |N\{(?P<N>[-A-Za-z0-9 ]{1,100})\}
    |(?P<simple>[av'])
    |(?P<octal>[0-7]{1,3})
    |(?P<line>\r\n|\n|\r)
    |(?P<bad>[xuUN])
    )
    |(?P<backslash>\\)
    |(?P<quote>")
    |(?P<control>[\x00-\x1f])""",
    re.X,
)
_SIMPLE = {"a": "\\u0007", "v": "\\u000b", "'": "'"}
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?\Z")
_LITERALS = {
    "true": "true",
    "false": "false",
    "null": "null",
    "True": "true",
    "False": "false",
    "None": "null",
    "undefined": "null",
}
_IGNORED = frozenset("\x7f\ufeff\u200b\u200c\u200d\u2060") | frozenset(map(chr, range(32)))

# frame states
_KEY, _COLON, _VALUE, _CHILD, _NEXT = range(5)


@dataclass(frozen=True, slots=True)
class ScanResult:
    """What one scan found.

    Attributes:
        json: strict JSON text of the value ('' when nothing usable was found).
        start: offset of the value's first character in the source.
        end: offset just after the value (or the end of the text).
        complete: the value ended before the text did.
        error: why the scan stopped early ('' when it did not).
        error_pos: offset of the problem in the source.
        error_path: JSON path of the problem (``$.a[2]``).
        truncated: the text ended inside the value.
        elements: how many array items and object members were complete (a scan that
            failed after reading some is the value, broken; one that failed at once was
            probably prose that happens to hold a bracket).
    """

    json: str
    start: int
    end: int
    complete: bool
    error: str = ""
    error_pos: int = 0
    error_path: str = "$"
    truncated: bool = False
    elements: int = 0


class _Frame:
    __slots__ = ("count", "key", "mark", "obj", "state")

    def __init__(self, obj: bool, mark: int) -> None:
        self.obj = obj
        self.state = _KEY if obj else _VALUE
        self.mark = mark
        self.count = 0
        self.key = ""


def _escape_ctrl(ch: str) -> str:
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}.get(
        ch, f"\\u{ord(ch):04x}"
    )


class BadEscape(ValueError):
    """An escape Python refuses in a string literal (or an octal one); ``at``: its offset."""

    def __init__(self, message: str, at: int) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def _char(code: int) -> str:
    """One character as JSON string content."""
    if code < 0x20 or code in (0x22, 0x5C) or 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return chr(code)


def _escape(m: re.Match[str]) -> str:
    kind = m.lastgroup
    if kind == "json":
        return m.group(0)
    if kind == "x":
        return _char(int(m.group("x"), 16))
    if kind == "U":
        code = int(m.group("U"), 16)
        if code > 0x10FFFF:
            raise BadEscape(f"invalid escape {m.group(0)!r}: past U+10FFFF", m.start())
        return _char(code)
    if kind == "N":
        try:
            return "".join(_char(ord(c)) for c in unicodedata.lookup(m.group("N")))
        except KeyError:
            raise BadEscape(f"invalid escape {m.group(0)!r}: no such name", m.start()) from None
    if kind == "simple":
        return _SIMPLE[m.group("simple")]
    if kind == "octal":  # Python reads \1 as U+0001; in model output it is as often a regex
        raise BadEscape(  # back-reference, and Python's repr never writes one: refused
            f"ambiguous escape {m.group(0)!r} (an octal character in Python); write \\\\ for "
            "a backslash or \\u00XX for a character",
            m.start(),
        )
    if kind == "line":
        return ""
    if kind == "bad":
        shown = m.string[m.start() : m.start() + 10]
        raise BadEscape(
            f"invalid escape {shown!r} (truncated \\{m.group('bad')} escape)", m.start()
        )
    if kind == "backslash":
        return "\\\\"
    if kind == "quote":
        return '\\"'
    text = m.group(0)
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}.get(
        text, f"\\u{ord(text):04x}"
    )


def fix_string(tok: str, single: bool) -> str:
    """A complete string token (quotes included) as a strict JSON string.

    Escapes are read as Python reads them in a string literal (see :data:`_ESCAPE`).

    Raises:
        BadEscape: an escape Python refuses, or an octal one (``at``: offset in ``tok``).
    """
    return _string(tok, single, True)


def _string(tok: str, single: bool, terminated: bool) -> str:
    inner = tok[1:-1] if terminated else tok[1:]
    if single or _NEEDS_FIX.search(inner):
        try:
            return '"' + _ESCAPE.sub(_escape, inner) + '"'
        except BadEscape as exc:
            raise BadEscape(exc.message, exc.at + 1) from None  # the opening quote
    return tok if terminated else '"' + inner + '"'


def _number(tok: str) -> str:
    if _JSON_NUMBER.match(tok):
        return tok
    sign = "-" if tok.startswith("-") else ""
    body = tok.lstrip("+-")
    mant, e, exp = body.partition("e") if "e" in body else body.partition("E")
    whole, dot, frac = mant.partition(".")
    whole = whole.lstrip("0") or "0"
    out = sign + whole + ("." + frac if dot and frac else "")
    return out + ("e" + exp if e else "")


def _path(stack: list[_Frame]) -> str:
    out = "$"
    for f in stack:
        if f.obj:
            if f.state in (_COLON, _VALUE, _CHILD) and f.key:
                out += f".{f.key}" if f.key.isidentifier() else f"[{f.key!r}]"
        else:
            out += f"[{f.count}]"
    return out


def scan(text: str, start: int, *, partial: bool, max_depth: int) -> ScanResult:
    """Read one value from ``text[start:]`` and return it as strict JSON text.

    The scan stops after the first complete value; ``end`` tells where. See the module
    docstring for what is repaired and how the end of the text is handled.
    """
    out: list[str] = []
    stack: list[_Frame] = []
    n = len(text)
    pos = start
    value_start = -1
    match = _TOKEN.match

    elements = 0

    def error(message: str, at: int) -> ScanResult:
        where = _path(stack)
        return ScanResult(
            "", max(value_start, start), at, False, message, at, where, False, elements
        )

    while True:
        m = match(text, pos)
        if m is None:  # only whitespace is left: the end of the text
            break
        kind = m.lastgroup or "x"
        tok_start = m.start(kind)
        pos = m.end()
        if kind == "c":
            continue
        if kind == "se" or kind == "qe":  # the closing quote is the last group matched
            kind = "s" if kind == "se" else "q"
        if value_start < 0:
            value_start = tok_start
        tok = m.group(kind)
        frame = stack[-1] if stack else None
        state = frame.state if frame is not None else _VALUE
        if kind == "x":
            if tok in _IGNORED:
                continue
            if pos >= n and stack and tok in "-+.":  # a number cut after its sign
                return _at_end(out, stack, text, value_start, partial)
            if frame is not None and frame.state == _COLON and tok == "=":
                frame.state = _VALUE
                out.append(":")
                continue
            return error(f"unexpected character {tok!r}", tok_start)
        if kind == "p":
            if tok == ",":
                if frame is None:
                    return error("unexpected ','", tok_start)
                if state == _NEXT:
                    frame.state = _KEY if frame.obj else _VALUE
                    continue
                if state in (_KEY, _VALUE) and frame.count:
                    continue  # a doubled comma
                return error("unexpected ','", tok_start)
            if tok == ":":
                if frame is not None and state == _COLON:
                    frame.state = _VALUE
                    out.append(":")
                    continue
                return error("unexpected ':'", tok_start)
            if tok in "}]":
                want_obj = tok == "}"
                if frame is None or frame.obj != want_obj:
                    return error(f"unexpected {tok!r}", tok_start)
                if (state == _KEY if want_obj else state == _VALUE) or state == _NEXT:
                    out.append(tok)
                    stack.pop()
                    if not stack:
                        return ScanResult("".join(out), value_start, pos, True)
                    parent = stack[-1]
                    parent.state = _NEXT
                    parent.count += 1
                    elements += 1
                    continue
                return error(f"unexpected {tok!r}: a value is missing", tok_start)
            # an opening bracket: a value
            if frame is not None:
                if state == _NEXT and not frame.obj:
                    state = frame.state = _VALUE  # a missing comma
                if state != _VALUE:
                    return error(f"unexpected {tok!r}", tok_start)
                if not frame.obj:
                    frame.mark = len(out)
                    if frame.count:
                        out.append(",")
                frame.state = _CHILD
            if len(stack) >= max_depth:
                elements = max(elements, 1)  # fatal: no inner start may be tried instead
                return error(f"nesting deeper than {max_depth} levels", tok_start)
            stack.append(_Frame(tok == "{", len(out)))
            out.append(tok)
            continue
        # a scalar token: string, number or word
        at_end = pos >= n
        if frame is not None and state == _NEXT:
            state = frame.state = _KEY if frame.obj else _VALUE  # a missing comma
        if frame is not None and state == _KEY:
            if kind == "s" or kind == "q":
                closed = m.group("se" if kind == "s" else "qe") is not None
                if not closed:
                    return _at_end(out, stack, text, value_start, partial)
                try:
                    key = _string(tok, kind == "q", True)
                except BadEscape as exc:
                    return error(exc.message, tok_start + exc.at)
                frame.key = key[1:-1]
            elif kind == "w" or kind == "n":
                if at_end:
                    return _at_end(out, stack, text, value_start, partial)
                key = '"' + tok + '"'
                frame.key = tok
            else:  # pragma: no cover - every token kind is handled above
                return error("unexpected token", tok_start)
            frame.mark = len(out)
            if frame.count:
                out.append(",")
            out.append(key)
            frame.state = _COLON
            continue
        if frame is not None and state != _VALUE:
            return error(f"expected ':' after key {frame.key!r}", tok_start)
        if kind == "s" or kind == "q":
            closed = m.group("se" if kind == "s" else "qe") is not None
            if not closed:
                if frame is None and not partial:
                    return error("the text ends inside a string", n)
                return _at_end(out, stack, text, value_start, partial)
            try:
                value = _string(tok, kind == "q", True)
            except BadEscape as exc:
                return error(exc.message, tok_start + exc.at)
        elif kind == "n":
            if at_end and frame is not None:
                return _at_end(out, stack, text, value_start, partial)
            value = _number(tok)
        else:
            if at_end and (frame is not None or partial):
                return _at_end(out, stack, text, value_start, partial)
            lit = _LITERALS.get(tok)
            if lit is None:
                return error(f"unexpected word {tok!r} (not a JSON value)", tok_start)
            value = lit
        if frame is None:
            return ScanResult(value, value_start, pos, True)
        if not frame.obj:
            frame.mark = len(out)
            if frame.count:
                out.append(",")
        out.append(value)
        frame.count += 1
        frame.state = _NEXT
        elements += 1
    if not stack:
        return ScanResult("", start, n, False, "no JSON value found", n)
    return _at_end(out, stack, text, value_start, partial)


def _at_end(
    out: list[str], stack: list[_Frame], text: str, value_start: int, partial: bool
) -> ScanResult:
    """The text ended inside the value: close it up (partial) or report where."""
    n = len(text)
    if not partial:
        kind = "an object" if stack and stack[-1].obj else "an array"
        return ScanResult(
            "",
            value_start,
            n,
            False,
            f"the text ends inside {kind} before the JSON value is complete (truncated?)",
            n,
            _path(stack),
            truncated=True,
        )
    if not stack:
        return ScanResult("", value_start, n, False, "no complete value yet", n, truncated=True)
    frame = stack[-1]
    if frame.obj and frame.state in (_COLON, _VALUE):
        del out[frame.mark :]  # a key whose value is unfinished
    for f in reversed(stack):
        out.append("}" if f.obj else "]")
    return ScanResult("".join(out), value_start, n, False, truncated=True)
