"""The quick repair: one regex pass for the common slips, before the full scanner.

Most broken answers are JSON written the Python way — single quotes, ``True``/``None``,
trailing commas, a comment. One ``re.sub`` fixes those with a callback per string or
word only (numbers and punctuation never leave C), which is several times faster than
walking every token. Strings are matched whole, so nothing inside a string is touched.
The result is only a candidate: if it is not valid JSON, the full scanner
(:mod:`._scan`) takes over, so this pass never has to be right about anything else.
"""

from __future__ import annotations

import re

from sktypes.hydration._scan import BadEscape, fix_string

__all__ = ["quick_rewrite"]

_QUICK = re.compile(
    r"""
     (?P<d>"[^"\\]*+(?:\\.[^"\\]*+)*+")
    |(?P<s>'[^'\\]*+(?:\\.[^'\\]*+)*+')
    |(?P<c>//[^\n]*+|/\*.*?\*/|\#[^\n]*+)
    |(?P<t>,(?=\s*+[}\]]))
    |(?P<w>\b(?:True|False|None|undefined)\b)
    """,
    re.S | re.X,
)
_WORDS = {"True": "true", "False": "false", "None": "null", "undefined": "null"}
_PLAIN_DQ = re.compile(r'"[^"\\\x00-\x1f]*+"')


def _sub(m: re.Match[str]) -> str:
    kind = m.lastgroup
    text = m.group()
    if kind == "d":
        return text if _PLAIN_DQ.fullmatch(text) else fix_string(text, False)
    if kind == "s":
        return fix_string(text, True)
    if kind == "w":
        return _WORDS[text]
    return ""  # a comment or a trailing comma


def quick_rewrite(body: str) -> str:
    """Return ``body`` with quotes, Python literals, comments and trailing commas fixed.

    ``body`` itself when a string holds an escape Python refuses: the full scanner then
    reports it with its place.
    """
    try:
        return _QUICK.sub(_sub, body)
    except BadEscape:
        return body
