"""Issue 23, finding 10: escapes in a Python ``repr`` are read as Python reads them, or refused.

``hydrate`` repairs model output written the Python way (``{'k': 'v'}``). A ``repr`` writes
non-printable characters as ``\\xHH``, ``\\uHHHH`` and ``\\UHHHHHHHH``; the repair passed them
through as text, so ``{'k': 'bell\\x07'}`` came back as the eight characters ``bell\\x07``.
Now every escape Python reads in a string literal (``\\xHH``, ``\\uHHHH``, ``\\UHHHHHHHH``,
``\\N{NAME}``, ``\\a``, ``\\v``, ``\\'``, a backslash before a line end) is read as Python reads
it, in single- and double-quoted strings alike; one Python refuses (``\\x4``, ``\\U00110000``,
``\\N{NO SUCH NAME}``) is refused, with its place; octal escapes (``\\1``: a regex
back-reference as often as a character, and never written by ``repr``) are refused too. An
escape Python keeps as text (``\\d``) stays text, as before.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sktypes as sk


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{'k': 'bell\\x07'}", {"k": "bell\x07"}),
        ("{'k': 'caf\\xe9'}", {"k": "café"}),
        ("{'k': '\\u2603 \\U0001f600'}", {"k": "☃ 😀"}),
        ("{'k': '\\N{BULLET} \\N{greek small letter alpha}'}", {"k": "\u2022 \u03b1"}),
        ("{'k': 'a\\ab\\vc\\fd\\be'}", {"k": "a\x07b\x0bc\x0cd\x08e"}),
        ('{\'k\': \'it\\\'s\', "q": "say \\"hi\\" \\x21"}', {"k": "it's", "q": 'say "hi" !'}),
        ("{'k': 'line\\\nnext'}", {"k": "linenext"}),
        ("{'k': '\\x00\\x1f\\x7f\\x9f'}", {"k": "\x00\x1f\x7f\x9f"}),
        ("{'k': '\\\\x07'}", {"k": "\\x07"}),  # an escaped backslash: the text \x07
        ('{"pattern": "\\d+\\.\\w"}', {"pattern": "\\d+\\.\\w"}),  # Python keeps these as text
    ],
)
def test_python_escapes_are_read_as_python_reads_them(text: str, expected: Any) -> None:
    assert sk.hydrate(dict[str, str], text) == expected
    with warnings.catch_warnings():  # Python warns about "\d", which it keeps as text
        warnings.simplefilter("ignore", DeprecationWarning)
        assert eval(text) == expected  # the oracle: Python itself (trusted test input)


@pytest.mark.parametrize(
    ("text", "escape"),
    [
        ("{'k': 'a\\x4'}", "\\x4"),
        ("{'k': 'a\\xZZ'}", "\\xZZ"),
        ("{'k': 'C:\\Users\\bob'}", "\\Users"),
        ("{'k': '\\u12'}", "\\u12"),
        ("{'k': '\\U00110000'}", "\\U00110000"),
        ("{'k': '\\N{NO SUCH CHARACTER NAME}'}", "\\N{NO SUCH CHARACTER NAME}"),
        ("{'k': '\\N{BULLET'}", "\\N{BULLET"),
        ("{'k': 'group \\1'}", "\\1"),
        ('{"k": "\\x4"}', "\\x4"),
    ],
)
def test_an_escape_python_refuses_is_refused_with_its_place(text: str, escape: str) -> None:
    with pytest.raises(sk.HydrationError) as caught:
        sk.hydrate(dict[str, str], text)
    message = caught.value.errors[0].message
    assert "escape" in message and escape[:4] in message, message
    assert "column" in message


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def _no_surrogates(value: Any) -> bool:
    if isinstance(value, str):
        return not any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, list):
        return all(_no_surrogates(v) for v in value)
    if isinstance(value, dict):
        return all(_no_surrogates(k) and _no_surrogates(v) for k, v in value.items())
    return True


@given(_VALUES.filter(_no_surrogates))
def test_the_repr_of_any_json_value_hydrates_back_to_it(value: Any) -> None:
    """Whatever Python's ``repr`` writes (quotes, escapes, ``True``/``None``) reads back exactly."""
    assert sk.hydrate(Any, repr(value)) == value
    if isinstance(value, (dict, list)):  # in prose, as a model writes it
        got: object = sk.hydrate(Any, f"Here it is: {value!r}\nDone.")
        assert got == value
