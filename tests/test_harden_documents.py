"""Issue 13, items 5-8: any document loads, or is refused with its place, quickly.

Nesting is bounded before any recursive parser sees the text; YAML aliases by count and by
expanded size and depth; values JSON cannot hold (NaN, infinities, numbers past the float
range, lone surrogates) are refused with their line or JSON pointer; a spec that would make
openapi-spec-validator walk an exponential or quadratic number of schemas is refused before
it starts. The pathological inputs here took minutes (or crashed the interpreter) before.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from sktypes._documents import line_of, locate, parse_document
from sktypes.errors import OpenApiError, SktypesError
from sktypes.limits import DocumentLimits
from sktypes.openapi import load_openapi

HEAD = {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}}
SKTYPES = str(Path(sys.executable).parent / "sktypes")
BUDGET = 20.0  # seconds; each input below took minutes (or crashed) before the fix


def _parser_limits_depth() -> bool:
    """Whether the YAML parser stops deep documents itself (libyaml 0.2.6+: PyYAML 6.0.4+).

    The lowest PyYAML pyproject.toml allows (6.0.1, ``make test``'s lowest venv) has no
    such limit: there sktypes' own bound is the only one, and these tests check that.
    """
    try:
        for _ in yaml.parse(b"[" * 1_500 + b"]" * 1_500, yaml.CSafeLoader):
            pass
    except yaml.YAMLError:
        return True
    except AttributeError:  # no libyaml: the pure-Python parser has no limit of its own
        return False
    return False


PARSER_LIMITS_DEPTH = _parser_limits_depth()


def _returning(schema: Any, **schemas: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {
        **HEAD,
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": schema}},
                        }
                    },
                }
            }
        },
    }
    if schemas:
        spec["components"] = {"schemas": schemas}
    return spec


def _quick(source: Any, **kwargs: Any) -> Any:
    """Load ``source``; return the plugin or the OpenApiError, asserting it took < BUDGET."""
    start = time.monotonic()
    try:
        result: Any = load_openapi(source, **kwargs)
    except OpenApiError as exc:
        result = exc
    assert time.monotonic() - start < BUDGET
    return result


def test_30000_nested_arrays_do_not_crash_the_interpreter(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"openapi": "3.0.3", "x": ' + "[" * 30_000 + "]" * 30_000 + "}")
    code = (
        "import sys; from sktypes import load_openapi, OpenApiError\n"
        "try:\n    load_openapi(sys.argv[1])\nexcept OpenApiError as e:\n    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"{path}:1:154: nested deeper than 128 levels"


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,
        '{"a": ' * 100_000 + "1" + "}" * 100_000,
        "[" * 100_000,  # cut off: not JSON, so the YAML parser reads it
        "- " * 20_000 + "x",  # block-style YAML
        "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 3000)),
    ],
    ids=["arrays", "objects", "unclosed", "yaml-sequences", "yaml-mappings"],
)
def test_deep_nesting_is_refused_with_its_line_in_linear_time(text: str) -> None:
    start = time.monotonic()
    with pytest.raises(OpenApiError, match=r"nested deeper than 128 levels") as info:
        load_openapi(text.encode())
    assert time.monotonic() - start < BUDGET
    assert info.value.line is not None


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    spec = _returning({"type": "string", "pattern": "\\[" * 500, "description": '"]]]\\"' * 300})
    plugin = load_openapi(json.dumps(spec))
    assert plugin.view("a").return_parameter.schema is not None


def test_the_depth_limit_can_be_raised() -> None:
    deep: Any = "leaf"
    for _ in range(150):
        deep = {"x": deep}
    spec = {**_returning({"type": "object", "example": deep})}
    with pytest.raises(OpenApiError, match="nested deeper than 128 levels"):
        load_openapi(json.dumps(spec), validate=False)
    plugin = load_openapi(json.dumps(spec), validate=False, limits=DocumentLimits(max_depth=200))
    assert plugin.views


def test_locating_a_pointer_in_a_deep_document_does_not_recurse() -> None:
    # 900 levels: past Python's recursion limit for a recursive walk, within libyaml's own
    raw = b"[" * 900 + b"]" * 900
    start = time.monotonic()
    assert line_of(raw, "/0/0/0") == 1
    assert locate(raw, "/1") is None
    # 200,000 levels: libyaml (PyYAML 6.0.4+) refuses the text before its first event, so
    # there is nothing to locate; the walk must still end at once, without an error (an
    # older libyaml gives the events: the walk finds the pointer without recursing)
    deeper = b"[" * 200_000 + b"]" * 200_000
    found = locate(deeper, "/0/0/0")
    assert found is None if PARSER_LIMITS_DEPTH else found is not None and found.line == 1
    assert time.monotonic() - start < BUDGET
    text = b"a:\n  b: |\n    x\n  c: [1, {d: 2}]\n"
    found = locate(text, "/a/b")
    assert found is not None and (found.key_line, found.style) == (2, "|")
    assert line_of(text, "/a/c/1/d") == 4


def test_in_memory_specs_have_the_same_depth_bound() -> None:
    deep: Any = {}
    for _ in range(1000):
        deep = {"x": deep}
    with pytest.raises(OpenApiError, match="nested deeper than 128 levels"):
        load_openapi({**_returning({"type": "object"}), "x-deep": deep})
    loop: dict[str, Any] = {}
    loop["self"] = loop
    with pytest.raises(OpenApiError, match="nested deeper"):
        load_openapi({**_returning({"type": "object"}), "x-loop": loop})


ALIAS_BOMB = (
    "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(
        f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]\n"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    )
)


def test_an_alias_bomb_is_refused_quickly() -> None:
    start = time.monotonic()
    with pytest.raises(OpenApiError, match="alias bomb"):
        load_openapi(ALIAS_BOMB.encode())
    assert time.monotonic() - start < BUDGET


def test_aliases_may_not_nest_past_the_depth_limit() -> None:
    levels = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [[[[[[[[*a{i - 1}]]]]]]]]" for i in range(1, 40)]
    text = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n" + "\n".join(levels)
    with pytest.raises(
        OpenApiError, match=r"nested deeper than 128 levels \(YAML aliases expanded\)"
    ):
        load_openapi(text.encode())


def _diamond(levels: int) -> dict[str, Any]:
    schemas: dict[str, Any] = {"S0": {"type": "object", "properties": {"a": {"type": "string"}}}}
    for i in range(1, levels + 1):
        ref = {"$ref": f"#/components/schemas/S{i - 1}"}
        schemas[f"S{i}"] = {"allOf": [ref, ref]}
    return _returning({"$ref": f"#/components/schemas/S{levels}"}, **schemas)


def _chain(length: int) -> dict[str, Any]:
    schemas: dict[str, Any] = {"C0": {"type": "string"}}
    for i in range(1, length + 1):
        schemas[f"C{i}"] = {"$ref": f"#/components/schemas/C{i - 1}"}
    return _returning({"$ref": f"#/components/schemas/C{length}"}, **schemas)


@pytest.mark.parametrize("levels", [16, 20, 40])
def test_allof_diamonds_load_and_are_refused_by_validation_quickly(levels: int) -> None:
    text = json.dumps(_diamond(levels))
    assert len(text) < 5000
    plugin = _quick(text, validate=False)
    assert plugin.view("a").return_parameter.schema is not None
    refused = _quick(text)
    assert isinstance(refused, OpenApiError)
    assert "too costly to validate" in refused.message
    assert "validate=False" in refused.message


def test_small_diamonds_still_validate() -> None:
    assert _quick(json.dumps(_diamond(6))).views


@pytest.mark.parametrize("length", [1600, 5000])
@pytest.mark.parametrize("validate", [True, False])
def test_long_ref_chains_load_or_are_refused_quickly(length: int, validate: bool) -> None:
    result = _quick(json.dumps(_chain(length)), validate=validate)
    if validate:
        assert isinstance(result, OpenApiError)
    else:
        schema = result.view("a").return_parameter.schema
        assert schema is not None and len(schema.to_python()["$defs"]) == length + 1


def test_short_ref_chains_still_validate() -> None:
    assert _quick(json.dumps(_chain(50))).views


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('{"openapi": "3.0.3",\n "x": 1' + "0" * 400 + "}", 2),
        ('{"openapi": "3.0.3",\n "x": -1' + "0" * 5000 + "}", 2),
        ('{"openapi": "3.0.3",\n\n "x": 1e400}', 3),
        ('{"openapi": "3.0.3", "x": NaN}', 1),
        ('{"openapi": "3.0.3", "x": -Infinity}', 1),
        ("openapi: 3.0.3\nx: 1" + "0" * 400 + "\n", 2),
        ("openapi: 3.0.3\nx: 0x" + "f" * 400 + "\n", 2),
        ("openapi: 3.0.3\nx: 1" + "0" * 5000 + "\n", 2),
        ("openapi: 3.0.3\nx: 1.0e+400\n", 2),
        ("openapi: 3.0.3\ny: 1\nx: .nan\n", 3),
        ("openapi: 3.0.3\nx: [-.inf]\n", 2),
    ],
)
def test_numbers_json_cannot_hold_are_refused_with_their_line(text: str, line: int) -> None:
    with pytest.raises(OpenApiError, match="has no JSON form") as info:
        load_openapi(text.encode())
    assert info.value.line == line
    assert "\n" not in str(info.value)


def test_huge_integer_keys_keep_their_digits() -> None:
    key = "1" + "0" * 400
    spec = f"openapi: 3.0.3\ninfo: {{title: T, version: '1'}}\npaths: {{}}\nx-codes:\n  {key}: a\n"
    data = parse_document(spec.encode(), "<t>", OpenApiError)
    assert data["x-codes"] == {key: "a"}
    assert load_openapi(spec.encode()).views == []


def test_integers_past_64_bits_become_floats_within_the_float_range() -> None:
    assert parse_document(b'{"a": 18446744073709551616}', "<t>", OpenApiError) == {"a": 2.0**64}
    assert parse_document(b"a: -9223372036854776000\n", "<t>", OpenApiError) == {"a": -(2.0**63)}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"openapi": "3.0.3", "components": {"schemas": {"\\ud800": {}}}}', "/components/schemas"),
        ('{"openapi": "3.0.3", "x": ["ok", "a\\udc00b"]}', "/x/1"),
        ('{"openapi": "3.0.3", "x": "\\ud83d"}', "/x"),
    ],
)
def test_lone_surrogates_are_refused_with_their_pointer(text: str, where: str) -> None:
    with pytest.raises(OpenApiError, match="lone surrogate") as info:
        load_openapi(text.encode())
    assert info.value.where == where


def test_surrogate_pairs_and_escaped_backslashes_are_text() -> None:
    data = parse_document(b'{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}', "<t>", OpenApiError)
    assert data == {"a": "\U0001f600", "b": "\\ud800"}


def test_a_lone_surrogate_in_a_dict_or_str_spec_is_refused() -> None:
    spec = _returning({"type": "object", "properties": {"\ud800": {"type": "string"}}})
    with pytest.raises(OpenApiError, match="lone surrogate"):
        load_openapi(spec)
    with pytest.raises(OpenApiError, match="lone surrogate"):
        load_openapi(json.dumps(spec, ensure_ascii=False) + "\n")


def test_generate_refuses_a_lone_surrogate_with_one_line(tmp_path: Path) -> None:
    spec = tmp_path / "api.json"
    schema = {"type": "object", "properties": {"\ud800": {"type": "string"}}}
    spec.write_text(json.dumps(_returning(schema)))
    done = subprocess.run(
        [SKTYPES, "generate", str(spec), "-o", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "lone surrogate" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("raw", "line", "message"),
    [
        (b"openapi: 3.0.3\ninfo:\n  title: \x01x\n", 3, "unacceptable character #x0001"),
        (b"openapi: 3.0.3\nx: \x7f\n", 2, "unacceptable character #x007f"),
        (b"openapi: 3.0.3\n\nx: \xff\xfe\n", 3, "unacceptable character #x00ff"),
        (b"openapi: 3.0.3\nx: a\x85b\n", 2, "unacceptable character"),
    ],
)
def test_control_characters_and_bad_utf8_name_their_line_in_one_line(
    raw: bytes, line: int, message: str
) -> None:
    with pytest.raises(OpenApiError) as info:
        load_openapi(raw)
    assert info.value.line == line
    assert info.value.message.startswith(message)
    assert "\n" not in str(info.value)


def test_every_error_is_an_sktypes_error_for_a_path_with_a_nul_byte() -> None:
    with pytest.raises(SktypesError, match="cannot read the file"):
        load_openapi("api\x00.yaml")


def test_the_yaml_parser_s_own_depth_limit_is_reported_as_a_depth_with_its_line() -> None:
    # libyaml stops at 1,000 levels whatever sktypes' bound: raised past it, the parser's
    # refusal is still one message with the place, never the parser's own words
    text = b"x: 1\ny: " + b"[" * 1_500 + b"]" * 1_500
    problem = "nested deeper than the YAML parser allows" if PARSER_LIMITS_DEPTH else "no 'openapi'"
    with pytest.raises(OpenApiError, match=problem) as info:
        load_openapi(text, validate=False, limits=DocumentLimits(max_depth=5_000))
    if PARSER_LIMITS_DEPTH:
        assert info.value.line == 2
    with pytest.raises(OpenApiError, match="nested deeper than 128 levels") as info:
        load_openapi(b"x: 1\n\ny: " + b"[" * 1_500 + b"]" * 1_500)
    assert info.value.line == 3
