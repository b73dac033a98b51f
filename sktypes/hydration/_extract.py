"""Finding the JSON in a model's answer: code fences, prose, cut-off prefixes.

Everything here is a single linear pass with ``str.find`` or one compiled regex; nothing
is parsed twice on the way to the scanner.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import orjson

from sktypes.errors import ErrorDetail, snippet
from sktypes.hydration._errors import line_col
from sktypes.hydration._scan import ScanResult

__all__ = [
    "OPEN",
    "JsonTest",
    "TRAILING_NUMBER",
    "cut_json",
    "is_json_body",
    "is_json_label",
    "matching_close",
    "outer_span",
    "regions",
    "scan_detail",
    "starts",
    "tail",
]


def cut_json(text: str) -> bool:
    """Text that opens an object or array but does not close one is surely a prefix."""
    head = text.lstrip()[:1]
    return head in ("{", "[") and text.rstrip()[-1:] not in ("}", "]")


OPEN = re.compile(r"[{\[]")
_JSON_LABELS = ("json", "json5", "jsonc", "")


_FENCE = "```"
# a quote, an escape or a bracket (for matching_close)
_JSON_TOKEN = re.compile(r'\\.|["{}\[\]]', re.S)


# a whole JSON string (to its closing quote), matched in one step
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.S)
# what lies between two brackets inside a JSON value: whole strings and other characters
_BETWEEN = re.compile(r'(?:"(?:[^"\\]++|\\.)*+"|[^"{}\[\]\\]++|\\.)*+', re.S)
_BRACKET = re.compile(r"\\.|[{}\[\]]", re.S)  # escapes are skipped, as in strings


class _JsonState:
    """Whether a position of a model's answer lies inside a JSON string.

    Prose outside brackets is not JSON: its quotes are text. Inside a ``{``/``[`` value a
    ``"`` opens a string that runs to the next unescaped ``"``. The state advances
    monotonically through the text, one regex step per bracket (strings and everything
    else between brackets are skipped inside the regex engine), so finding every fence
    costs one linear pass.
    """

    __slots__ = ("depth", "pos", "string_end", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0
        self.string_end: int | None = None  # inside a string ending there (-1: never)

    def inside_string(self, at: int) -> bool:
        """Advance to ``at``; whether ``at`` is inside a JSON string."""
        if self.string_end is not None:
            if self.string_end < 0 or at < self.string_end:
                self.pos = max(self.pos, at)
                return True
            self.pos, self.string_end = self.string_end, None
        text = self.text
        pos = self.pos
        while pos < at:
            if self.depth == 0:  # prose: only a bracket matters
                m = _BRACKET.search(text, pos)
                if m is None or m.start() >= at:
                    pos = at
                    break
                pos = m.end()  # past ``at`` when ``at`` cuts an escape
                self.depth += m.group() in "{["  # an escape adds nothing
                continue
            pos = _BETWEEN.match(text, pos, at).end()  # type: ignore[union-attr]
            if pos >= at:
                break
            char = text[pos]
            if char == '"':  # a string that does not end before ``at``
                whole = _STRING.match(text, pos)
                end = whole.end() if whole is not None else -1
                if end < 0 or end > at:
                    self.pos, self.string_end = at, end
                    return True
                pos = end  # pragma: no cover - _BETWEEN would have taken it
            elif char == "\\":
                pos += 2  # an escape that ``at`` cuts: the escaped character goes with it
            else:
                self.depth += 1 if char in "{[" else -1
                pos += 1
        self.pos = max(pos, at)
        return False

    def reset(self, at: int) -> None:
        """A fence boundary: what follows starts outside any JSON value."""
        self.pos = at
        self.depth = 0
        self.string_end = None


def _is_json(body: str) -> bool:
    """Whether ``body`` is one whole JSON value.

    Then a fence right after it cannot lie inside one of its strings (a cut inside a string
    leaves it unterminated), and the walk through its strings is not needed.
    """
    try:
        orjson.loads(body)
    except ValueError:  # orjson.JSONDecodeError: not JSON, too deep, a lone surrogate
        return False
    return True


JsonTest = Callable[[str, str], bool]
"""``is_json(label, body)``: whether a fence's body (up to the next `````) is one JSON value."""


def is_json_body(label: str, body: str) -> bool:
    """The default :data:`JsonTest`: whether orjson reads ``body``."""
    return _is_json(body)


def _fences(text: str, limit: int = 8, is_json: JsonTest = is_json_body) -> list[tuple[str, str]]:
    """The first ``limit`` code fences as (label, body); an unclosed one runs to the end.

    A ````` that lies inside a JSON string is text, not a fence (a model may put a fenced
    snippet in a string field): only backticks outside JSON strings open or close one.
    Whether a body is JSON (then the ````` after it closes it) is asked of ``is_json``:
    ``hydrate`` answers for the first JSON fence by reading it into the target, so the
    answer is parsed once.
    """
    fences: list[tuple[str, str]] = []
    if _FENCE not in text:
        return fences
    state = _JsonState(text)
    pos = 0
    while len(fences) < limit:
        start = text.find(_FENCE, pos)
        if start < 0:
            break
        if state.inside_string(start):
            pos = start + 3
            continue
        eol = text.find("\n", start + 3)
        if eol < 0:
            break
        label = text[start + 3 : eol].strip().lower()
        state.reset(eol + 1)
        end = text.find(_FENCE, eol + 1)
        body = text[eol + 1 : end] if end >= 0 else text[eol + 1 :]
        if end >= 0 and not is_json(label, body):
            close = end
            while end >= 0 and state.inside_string(end):
                end = text.find(_FENCE, end + 3)
            if end != close:
                body = text[eol + 1 : end if end >= 0 else len(text)]
        fences.append((label, body))
        if end < 0:
            break
        pos = end + 3
        state.reset(pos)
    return fences


def matching_close(text: str, start: int) -> int:
    """The offset of the bracket that closes the one at ``start`` (``-1``: never closed).

    Used on values the scanner refused: a candidate between such a pair is part of the
    broken value, not a value of its own. Brackets inside JSON strings do not count; when
    the quotes themselves are broken (``{id": 0}``) so that no bracket closes, the brackets
    are counted without them.
    """
    close = _close(text, start, strings=True)
    return close if close >= 0 else _close(text, start, strings=False)


def _close(text: str, start: int, *, strings: bool) -> int:
    depth = 0
    in_string = False
    for m in _JSON_TOKEN.finditer(text, start):
        tok = m.group()
        if in_string:
            in_string = tok != '"'
        elif tok == '"':
            in_string = strings
        elif tok in "{[":
            depth += 1
        elif tok in "}]":
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def is_json_label(label: str) -> bool:
    """Whether a fence's label says JSON (or says nothing)."""
    return label in _JSON_LABELS


def regions(text: str, is_json: JsonTest = is_json_body) -> list[tuple[str, str]]:
    """Where to look, in order: code fences (``json`` ones first), then the whole text.

    A fence's body is the very string ``is_json`` was asked about when its answer stood.
    """
    fences = _fences(text, is_json=is_json)
    order = [i for i, f in enumerate(fences) if f[0] in _JSON_LABELS]
    order += [i for i in range(len(fences)) if i not in order]
    regions: list[tuple[str, str]] = []
    for i in order:
        note = f"used code block {i + 1} of {len(fences)}" if len(fences) > 1 else ""
        regions.append((fences[i][1], note))
    regions.append((text, ""))
    return regions


def starts(region: str, limit: int) -> Iterator[int]:
    stripped = len(region) - len(region.lstrip())
    if stripped < len(region) and region[stripped] not in "{[":
        yield stripped
        limit -= 1
    for i, m in enumerate(OPEN.finditer(region)):
        if i >= limit:
            return
        yield m.start()


TRAILING_NUMBER = re.compile(r"[-+.eE0-9]+\Z")


def outer_span(region: str) -> str:
    """The text from the first ``{``/``[`` to the last ``}``/``]`` (or the whole, stripped)."""
    body = region.strip()
    if body[:1] in ("{", "["):
        return body
    first = OPEN.search(body)
    if first is None:
        return ""
    last = max(body.rfind("}"), body.rfind("]"))
    return body[first.start() : last + 1] if last > first.start() else ""


def tail(data: str | bytes) -> str:
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    return snippet((text[-40:] if len(text) > 40 else text).strip())


def scan_detail(result: ScanResult | None, text: str) -> ErrorDetail:
    if result is None or not text.strip():
        return ErrorDetail("$", "no JSON value found in the output", snippet(text))
    if result.truncated:
        at = line_col(text, max(len(text.rstrip()) - 1, 0))
        return ErrorDetail(
            result.error_path or "$",
            f"the output ends at {at} before the JSON value is complete (truncated?)",
            tail(text),
        )
    near = text[result.error_pos : result.error_pos + 30]
    message = result.error or "no JSON value found"
    if result.error:
        message = f"not valid JSON: {message} at {line_col(text, result.error_pos)}"
    return ErrorDetail(result.error_path or "$", message, snippet(near))
