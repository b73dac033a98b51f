"""Shared strategies: JSON values, model-style noise, byte mutations."""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import strategies as st

__all__ = ["json_values", "mutated", "noisy_text", "to_json", "to_yaml"]

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["```", "```json\n", "\\u0000", "NaN", "{", "]", "$ref", "\n", "'"])
)

json_values: st.SearchStrategy[Any] = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=25,
)


def to_json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def to_yaml(value: Any) -> bytes:
    try:
        return yaml.safe_dump(value, allow_unicode=True).encode("utf-8", "surrogatepass")
    except (yaml.YAMLError, UnicodeError):
        return to_json(value)


_INSERTS = [
    b"\x00",
    b"\x01",
    b"\xff",
    b"\xed\xa0\x80",  # a UTF-8-encoded lone surrogate
    b"[" * 300,
    b"{" * 300,
    b"1" + b"0" * 400,
    b"0x" + b"f" * 300,
    b"NaN",
    b"-Infinity",
    b".inf",
    b"&a",
    b"*a",
    b"<<: *a",
    b"!!python/object:os.system",
    b"\\ud800",
    b'"',
    b",",
    b"\n- ",
    b"\t",
    b"```",
]


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[bytes]) -> bytes:
    """``base`` with a few insertions, deletions, truncations or byte flips."""
    data = bytearray(draw(base))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["insert", "delete", "cut", "flip", "repeat"]))
        at = draw(st.integers(0, len(data)))
        if kind == "insert":
            data[at:at] = draw(st.sampled_from(_INSERTS) | st.binary(max_size=8))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 8))]
        elif kind == "cut":
            del data[at:]
        elif kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "repeat":
            piece = bytes(data[at : at + draw(st.integers(1, 16))])
            data[at:at] = piece * draw(st.integers(1, 50))
    return bytes(data)


_PROSE = st.sampled_from(
    ["", "Here it is:\n", "Sure! ", "The answer is below.\n\n", "Result: ", "I think "]
)
_AFTER = st.sampled_from(["", "\nDone.", "\nLet me know!", " // end", "\n```\nMore text"])


@st.composite
def noisy_text(draw: st.DrawFn, values: st.SearchStrategy[Any] = json_values) -> bytes:
    """JSON the way a model writes it: prose, fences, comments, cut-offs and junk."""
    text = json.dumps(draw(values), ensure_ascii=draw(st.booleans()))
    style = draw(st.sampled_from(["plain", "fenced", "prose", "trailing", "single", "cut"]))
    if style == "fenced":
        label = draw(st.sampled_from(["json", "", "JSON", "python", "jsonc"]))
        text = f"```{label}\n{text}\n```"
    elif style == "prose":
        text = draw(_PROSE) + text + draw(_AFTER)
    elif style == "trailing":
        text = text.replace("]", ",]").replace("}", ",}")
    elif style == "single":
        text = text.replace('"', "'")
    elif style == "cut" and text:
        text = text[: draw(st.integers(0, len(text)))]
    raw = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 3)) == 0:
        raw = draw(mutated(st.just(raw)))
    return raw
