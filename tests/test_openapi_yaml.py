"""The spec YAML reader: safe_load's values, JSON's keys, and refusals with a line number."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from sktypes._yaml import Yaml12Resolver, YamlProblem, load_yaml
from sktypes.errors import OpenApiError
from sktypes.limits import DocumentLimits
from sktypes.openapi._source import parse_bytes
from tests.corpus_util import CORPUS

# NEL, LS and PS are line breaks to libyaml (YAML 1.1) that PyYAML's emitter may leave plain
_text = st.text(st.characters(exclude_characters="\x85\u2028\u2029"), max_size=20)
_key_text = st.text(st.characters(exclude_characters="\x85\u2028\u2029"), max_size=8)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_key_text, inner, max_size=4),
    max_leaves=20,
)


class Yaml12Dumper(
    yaml.emitter.Emitter,
    yaml.serializer.Serializer,
    yaml.representer.SafeRepresenter,
    Yaml12Resolver,
):
    """PyYAML's safe dumper quoting by the YAML 1.2 core schema (PyYAML's own quotes by 1.1)."""

    def __init__(self, stream: Any, **kwds: Any) -> None:
        yaml.emitter.Emitter.__init__(self, stream, allow_unicode=kwds.get("allow_unicode"))
        yaml.serializer.Serializer.__init__(self)
        yaml.representer.SafeRepresenter.__init__(
            self, default_flow_style=kwds.get("default_flow_style", False)
        )
        Yaml12Resolver.__init__(self)


@given(json_values)
def test_yaml_written_as_yaml_12_reads_back_equal(value: Any) -> None:
    for style in (False, True, None):
        text = yaml.dump(value, Dumper=Yaml12Dumper, default_flow_style=style, allow_unicode=True)
        assert load_yaml(text.encode()) == value


@given(json_values)
def test_yaml_written_by_pyyaml_reads_back_equal_but_for_yaml_12_numbers(value: Any) -> None:
    """PyYAML writes YAML 1.1: it leaves plain the strings that are numbers only in YAML 1.2."""

    def misread(leaf: Any) -> bool:
        if isinstance(leaf, str):
            return not isinstance(load_yaml(yaml.safe_dump(leaf).encode()), str)
        if isinstance(leaf, dict):
            return any(misread(k) or misread(v) for k, v in leaf.items())
        return isinstance(leaf, list) and any(misread(item) for item in leaf)

    for style in (False, True, None):
        text = yaml.safe_dump(value, default_flow_style=style, allow_unicode=True)
        if not misread(value):
            assert load_yaml(text.encode()) == value


def test_scalars_are_read_as_yaml_12_core_schema() -> None:
    text = (
        "a: yes\nb: off\nc: ~\nd: 0x1F\ne: 017\nf: 1_000\ng: 1:30\ni: -.5\n"
        "j: '123'\nk: !!str 5\nl: 1e5\nm: +12\nn: NO\no: 0o17\np: 0b101\nq: TRUE\n"
        "r:\ns: !!int '0777'\nt: 2020-09-14\non: push\nu: Null\nv: y\n"
    )
    assert load_yaml(text.encode()) == {
        "a": "yes",
        "b": "off",
        "c": None,
        "d": 31,
        "e": 17,
        "f": "1_000",
        "g": "1:30",
        "i": -0.5,
        "j": "123",
        "k": "5",
        "l": 100000.0,
        "m": 12,
        "n": "NO",
        "o": 15,
        "p": "0b101",
        "q": True,
        "r": None,
        "s": 777,
        "t": "2020-09-14",
        "on": "push",
        "u": None,
        "v": "y",
    }


def test_a_country_enum_keeps_norway() -> None:
    """The "Norway problem": YAML 1.1 reads ``NO`` as false, silently changing an enum."""
    text = b"type: string\nenum: [GB, NO, SE, 'ON', on, Off, Y, n]\n"
    assert load_yaml(text)["enum"] == ["GB", "NO", "SE", "ON", "on", "Off", "Y", "n"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: !!bool yes\n", "!!bool yes is not a YAML 1.2 bool"),
        ("a: !!int abc\n", "!!int abc is not a YAML 1.2 int"),
        ("a: !!float x\n", "!!float x is not a YAML 1.2 float"),
        ("a: .inf\n", "the number .inf has no JSON form"),
        ("a: .NaN\n", "the number .NaN has no JSON form"),
        ("a: " + "9" * 5000 + "\n", "the number 9999999999999999999… has no JSON form"),
    ],
)
def test_core_schema_refusals_name_the_line(text: str, message: str) -> None:
    with pytest.raises(YamlProblem) as info:
        load_yaml(text.encode())
    assert info.value.message.startswith(message)
    assert (info.value.line, info.value.column) == (1, 4)


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


@pytest.mark.parametrize(
    ("spec_file", "pointer", "member"),
    [
        ("digitalocean-multifile/resources/droplets/models/droplet.yml", "status", "off"),
        ("googlemaps-multifile/parameters/language.yml", "language", "no"),
        ("googlemaps-multifile/parameters/region.yml", "region", "no"),
    ],
)
def test_corpus_enums_keep_their_strings(spec_file: str, pointer: str, member: str) -> None:
    """Found on the corpus: read as YAML 1.1 these enums held ``False`` for ``off``/``no``."""
    path = CORPUS / spec_file
    if not path.is_file():
        pytest.skip(f"corpus file absent: {path}")
    tree = load_yaml(path.read_bytes())
    schema = tree["properties"][pointer] if "properties" in tree else tree["schema"]
    assert member in schema["enum"]
    assert False not in schema["enum"]
