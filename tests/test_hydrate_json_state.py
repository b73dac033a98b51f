"""The fence finder's JSON-string state agrees with a character-by-character reference."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sktypes.hydration._extract import _JsonState


def _reference(text: str, at: int) -> bool:
    """Quotes open strings only inside brackets; escapes skip a character inside strings."""
    depth, in_string, i = 0, False, 0
    while i < at:
        c = text[i]
        if in_string:
            if c == "\\":
                if i + 1 == at:
                    return True  # the escaped character is inside the string
                i += 1
            elif c == '"':
                in_string = False
        elif c == "\\":
            i += 1
        elif c == '"':
            in_string = depth > 0
        elif c in "{[":
            depth += 1
        elif c in "}]" and depth:
            depth -= 1
        i += 1
    return in_string


_texts = st.lists(st.sampled_from(['"', "\\", "{", "}", "[", "]", "a", " ", "`", ":", ","])).map(
    "".join
)


@settings(max_examples=1000)
@given(text=_texts, data=st.data())
def test_inside_string_agrees_with_the_reference(text: str, data: st.DataObject) -> None:
    every = list(range(len(text) + 1))
    some = st.lists(st.integers(0, len(text)), max_size=5).map(sorted)
    positions = data.draw(st.just(every) | some)
    state = _JsonState(text)
    for at in positions:
        assert state.inside_string(at) == _reference(text, at), (text, at)
