"""Handlebars whitespace control (pybars3's rules), in linear time, with a map back to the source.

pybars3's regular expression backtracks exponentially on a line of many block tags (14 tags
took 27 s); here each position is looked at a bounded number of times.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["whitespace_control"]


_TAG_ANY = r"\{\{(?:#[^{}]++|/[^{}]++|![^{}]++|else|else if [^{}]++)\}\}"
_TAG_OPEN = r"\{\{(?:#[^{}]++|![^{}]++)\}\}"
_TAG_CLOSE = r"\{\{(?:/[^{}]++|![^{}]++)\}\}"


def _line_of(tag: str) -> re.Pattern[str]:
    """Spaces, one or more of ``tag`` with spaces between, spaces (possessive: linear)."""
    return re.compile(rf"(?:[ \t]*+{tag}[ \t]*+)++")


_STANDALONE = _line_of(_TAG_ANY)
_FIRST_LINE = _line_of(_TAG_OPEN)
_LAST_LINE = _line_of(_TAG_CLOSE)
_TIDY = re.compile(r"(?<=\{\{)~|~(?=\}\})|(?<=\}\})[ \t]+(?=\{\{)")


def whitespace_control(source: str) -> tuple[str, Callable[[int], int]]:
    """Apply Handlebars' whitespace rules; return the text and a map back to ``source``.

    The rules (pybars3's, in its order of precedence at each position):

    1. ``~}}`` eats the whitespace after it; ``{{~`` the whitespace before it;
    2. a line holding only block tags (``{{#…}}``, ``{{/…}}``, ``{{else}}``, comments)
       loses its indentation and its line break;
    3. so does a first line of opening tags, and a last line of closing tags (with the
       line break before it).

    The second value maps a position in the returned text to the position in ``source``
    it came from (for error messages).
    """
    out: list[str] = []
    edits: list[tuple[int, int]] = []  # (position in out, position in source) after an edit
    length = len(source)
    done = 0  # source[:done] is in out
    written = 0
    scan = _Scan(source)
    i = 0
    while i < length:
        end = scan.rule_at(i)
        if end < 0:
            i += 1
            continue
        kept = _TIDY.sub("", source[i:end].strip())
        if i > done:
            out.append(source[done:i])
            written += i - done
        out.append(kept)
        written += len(kept)
        edits.append((written, end))
        done = i = end
    if done < length:
        out.append(source[done:])
    text = "".join(out)

    def original(position: int) -> int:
        back = 0
        for at, source_at in edits:
            if at > position:
                break
            back = source_at - at
        return min(position + back, length)

    return text, original


class _Scan:
    """Which whitespace rule matches where, each position looked at a bounded number of times."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.no_tilde_until = -1  # positions before this start no ``\s*{{~`` match

    def rule_at(self, i: int) -> int:
        """The end of the rule matching at ``i`` (``-1``: none), in pybars3's order."""
        source = self.source
        char = source[i]
        if char == "~" and source.startswith("~}}", i):
            end = i + 3
            while end < len(source) and source[end].isspace():
                end += 1
            return end
        if i >= self.no_tilde_until and (char.isspace() or char == "{"):
            end = i
            while end < len(source) and source[end].isspace():
                end += 1
            if source.startswith("{{~", end):
                return end + 3
            self.no_tilde_until = end + 1  # the rest of this run is followed by the same
        if i > 0 and source[i - 1] == "\n":
            found = _STANDALONE.match(source, i)
            if found:
                end = _line_break(source, found.end())
                if end >= 0:
                    return end
        if i == 0:
            found = _FIRST_LINE.match(source)
            if found:
                end = _line_break(source, found.end())
                if end >= 0:
                    return end
        if char in "\r\n":
            start = _line_break(source, i)
            found = _LAST_LINE.match(source, start) if start >= 0 else None
            if found and (found.end() == len(source) or source[found.end() :] == "\n"):
                return found.end()
        return -1


def _line_break(source: str, i: int) -> int:
    """The position after a line break (CR LF or LF) at ``i`` (``-1``: there is none)."""
    if source.startswith("\r\n", i):
        return i + 2
    if source.startswith("\n", i):
        return i + 1
    return -1
