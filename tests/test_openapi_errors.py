"""Bad OpenAPI input: one line naming the file and the place, never a traceback or a hang."""

from __future__ import annotations

from pathlib import Path

import pytest

from sktypes.errors import OpenApiError
from sktypes.openapi import load_openapi

HEAD = 'openapi: 3.0.3\ninfo: {title: T, version: "1"}\n'

BOMB = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
)


def _response_ref(ref: str) -> str:
    return HEAD + (
        "paths:\n  /a:\n    get:\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        f"              schema: {{$ref: '{ref}'}}\n"
    )


CYCLE = HEAD + (
    "paths:\n  /a:\n    get:\n      parameters:\n        - $ref: '#/components/parameters/A'\n"
    "      responses:\n        '200': {description: ok}\n"
    "components:\n  parameters:\n    A: {$ref: '#/components/parameters/B'}\n"
    "    B: {$ref: '#/components/parameters/A'}\n"
)
DUPLICATE = HEAD + (
    "paths:\n  /a:\n    get:\n      parameters:\n"
    "        - {name: id, in: query, schema: {type: string}}\n"
    "        - {name: id, in: query, schema: {type: integer}}\n"
    "      responses:\n        '200': {description: ok}\n"
)
RESPONSE = "/paths/~1a/get/responses/200/content/application~1json/schema"

# (file name, content, expected message after "<file>", also fails with validate=False)
CASES = [
    (
        "not_yaml.yaml",
        "openapi: 3.0.3\ninfo: [unclosed\n",
        ":3:1: not valid YAML or JSON: did not find expected ',' or ']'"
        " (while parsing a flow sequence that starts at line 2, column 7)",
        True,
    ),
    (
        "list.yaml",
        "- a\n- b\n",
        ": not an OpenAPI document: the top level is list, not an object",
        True,
    ),
    (
        "no_version.json",
        '{"info": {"title": "T", "version": "1"}, "paths": {}}',
        ": /: not an OpenAPI document: no 'openapi' or 'swagger' field",
        True,
    ),
    (
        "v4.yaml",
        'openapi: 4.0.0\ninfo: {title: T, version: "1"}\npaths: {}\n',
        ":1:1: /openapi: unsupported OpenAPI version '4.0.0' "
        "(sktypes reads 2.0, 3.0.x, 3.1.x and 3.2.x)",
        True,
    ),
    (
        "dangling.yaml",
        _response_ref("#/components/schemas/Nope"),
        f":11:15: {RESPONSE}: $ref '#/components/schemas/Nope' points to nothing",
        False,
    ),
    (
        "cycle.yaml",
        CYCLE,
        ":7:11: /paths/~1a/get/parameters/0: $ref cycle in a parameter:"
        " #/components/parameters/A"
        " → #/components/parameters/B → #/components/parameters/A",
        False,
    ),
    (
        "remote.yaml",
        _response_ref("https://example.com/schemas.yaml#/Pet"),
        f":11:15: {RESPONSE}: remote $ref 'https://example.com/schemas.yaml#/Pet' refused"
        " (pass allow_remote_refs=True to fetch it)",
        False,
    ),
    (
        "bomb.yaml",
        BOMB,
        ":2: YAML aliases expand to more than 2000000 nodes (alias bomb?)",
        True,
    ),
    (
        "duplicate.yaml",
        DUPLICATE,
        ":8:11: /paths/~1a/get/parameters/1: duplicate parameter 'id' in query",
        False,
    ),
    (
        "invalid.yaml",
        HEAD + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          content: {}\n",
        ":7:9: /paths/~1a/get/responses/200: not a valid OpenAPI document:"
        " {'content': {}} is not valid under any of the given schemas",
        False,
    ),
]


@pytest.mark.parametrize(("name", "text", "message", "always"), CASES, ids=[c[0] for c in CASES])
def test_bad_spec_fails_with_one_line_naming_file_and_place(
    tmp_path: Path, name: str, text: str, message: str, always: bool
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(OpenApiError) as info:
        load_openapi(path)
    assert str(info.value) == f"{path}{message}"
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [(n, t, m) for n, t, m, always in CASES if not always],
    ids=[c[0] for c in CASES if not c[3]],
)
def test_without_validation_a_broken_operation_becomes_a_warning(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    plugin = load_openapi(path, validate=False)
    if name == "invalid.yaml":  # understood despite the missing description
        assert [v.name for v in plugin.views] == ["get_a"]
        return
    assert plugin.views == []
    assert plugin.warnings == [f"{message.split(': ', 1)[1]} (GET /a skipped)"]


def test_document_over_the_size_limit_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:
        f.truncate(100 * 1024 * 1024)  # sparse: 100 MB on paper, nothing on disk
    with pytest.raises(OpenApiError) as info:
        load_openapi(path)
    assert str(info.value) == (
        f"{path}: document is 104857600 bytes, over the 67108864-byte limit"
        " (pass a larger max_bytes to load it)"
    )


def test_max_bytes_can_be_lowered_and_raised(tmp_path: Path) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(HEAD + "paths: {}\n")
    with pytest.raises(OpenApiError, match="over the 10-byte limit"):
        load_openapi(path, max_bytes=10)
    assert load_openapi(path, max_bytes=10_000).views == []


def test_text_and_bytes_sources_are_named_in_messages() -> None:
    with pytest.raises(OpenApiError) as info:
        load_openapi(b"- not\n- a spec\n")
    assert str(info.value).startswith("<bytes>: not an OpenAPI document")
    with pytest.raises(OpenApiError) as info2:
        load_openapi("openapi: 9\ninfo: {}\n")
    assert str(info2.value).startswith("<string>:1:1: /openapi: unsupported OpenAPI version '9'")


def test_missing_file_is_an_openapi_error(tmp_path: Path) -> None:
    path = tmp_path / "absent.yaml"
    with pytest.raises(OpenApiError) as info:
        load_openapi(path)
    assert str(info.value) == f"{path}: cannot read the file: No such file or directory"


def test_recursive_yaml_alias_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("openapi: 3.0.3\nx: &a\n  - *a\n")
    with pytest.raises(OpenApiError) as info:
        load_openapi(path)
    assert str(info.value) == (
        f"{path}:3: a YAML alias refers to its own ancestor (recursive document)"
    )


def test_relative_ref_in_a_spec_given_as_text_is_refused() -> None:
    text = _response_ref("other.yaml#/Pet")
    with pytest.raises(OpenApiError) as info:
        load_openapi(text)
    assert str(info.value) == (
        f"<string>:11:15: {RESPONSE}: $ref 'other.yaml#/Pet' is relative to a spec given in"
        " memory;"
        " load the spec from its file to resolve it"
    )
