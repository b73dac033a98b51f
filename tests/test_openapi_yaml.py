"""The spec YAML reader: safe_load's values, JSON's keys, and refusals with a line number."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from sktypes._yaml import YamlProblem, load_yaml
from sktypes.errors import OpenApiError
from sktypes.limits import DocumentLimits
from sktypes.openapi._source import parse_bytes

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(json_values)
def test_yaml_written_by_pyyaml_reads_back_equal(value: Any) -> None:
    for style in (False, True, None):
        text = yaml.safe_dump(value, default_flow_style=style, allow_unicode=True)
        assert load_yaml(text.encode()) == value


def test_values_match_safe_load_for_yaml_11_scalars() -> None:
    text = (
        "a: yes\nb: off\nc: ~\nd: 0x1F\ne: 017\nf: 1_000\ng: 1:30\ni: -.5\n"
        "j: '123'\nk: !!str 5\nl: 1e5\nm: +12\n"
    )
    assert load_yaml(text.encode()) == yaml.safe_load(text)


def test_timestamps_stay_strings_and_keys_become_strings() -> None:
    text = "created: 2020-09-14\n200: ok\ntrue: t\n~: n\n1.5: f\n"
    assert load_yaml(text.encode()) == {
        "created": "2020-09-14",
        "200": "ok",
        "true": "t",
        "null": "n",
        "1.5": "f",
    }


def test_integers_past_64_bits_become_floats() -> None:
    assert load_yaml(b"min: -9223372036854776000\nok: 9223372036854775807\n") == {
        "min": -9.223372036854776e18,
        "ok": 9223372036854775807,
    }


def test_merge_keys_and_shared_anchors() -> None:
    text = (
        "base: &base {a: 1, b: 2}\nmore: &more {c: 3}\n"
        "one:\n  <<: *base\n  b: 20\ntwo:\n  <<: [*base, *more]\n"
    )
    data = load_yaml(text.encode())
    assert data["one"] == {"a": 1, "b": 20}
    assert data["two"] == {"a": 1, "b": 2, "c": 3}
    assert data["one"] == yaml.safe_load(text)["one"]


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("a: !!python/object:os.system {}\n", "unsupported YAML tag", 1),
        ("a: 1\nb: !custom x\n", "unsupported YAML tag !custom", 2),
        ("a: 1\n---\nb: 2\n", "more than one YAML document in the file", 2),
        ("a: 1\nb: *nope\n", "unknown YAML alias", 2),
        ("a: &x [1]\n? [1, 2]\n: v\n", "a mapping key must be a scalar", 3),
        ("a: {x: 1}\nb:\n  <<: 5\n", "a merge key (<<) needs a mapping or a list of mappings", 4),
    ],
)
def test_refused_yaml_names_the_line(text: str, message: str, line: int) -> None:
    with pytest.raises(YamlProblem) as info:
        load_yaml(text.encode())
    assert info.value.message.startswith(message)
    assert info.value.line == line


def test_spec_reader_reports_yaml_problems_as_openapi_errors() -> None:
    with pytest.raises(OpenApiError) as info:
        parse_bytes(
            b"openapi: 3.0.3\nx: !!binary aGk=\n", "api.yaml", DocumentLimits(max_bytes=1000)
        )
    assert str(info.value) == "api.yaml:2:4: unsupported YAML tag !!binary"
