"""sktypes.remote: OpenAPI parameter serialization, bodies, credentials and the ApiClient.

The serialization cases are the OpenAPI specification's style table (``color`` as the string
``blue``, the array ``[blue, black, brown]`` and the object ``{R: 100, G: 200, B: 150}``),
with RFC 6570's label expansion (``.blue,black,brown``) as OpenAPI 3.1.1 corrected it.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pydantic
import pytest

from sktypes.remote import (
    ApiClient,
    ApiError,
    Credential,
    Request,
    build_request,
    header_value,
    parse_json,
    path_value,
    query_pairs,
    to_json,
)

STRING = "blue"
ARRAY = ["blue", "black", "brown"]
OBJECT = {"R": 100, "G": 200, "B": 150}


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("simple", False, STRING, "blue"),
        ("simple", False, ARRAY, "blue,black,brown"),
        ("simple", False, OBJECT, "R,100,G,200,B,150"),
        ("simple", True, OBJECT, "R=100,G=200,B=150"),
        ("label", False, STRING, ".blue"),
        ("label", False, ARRAY, ".blue,black,brown"),
        ("label", True, ARRAY, ".blue.black.brown"),
        ("label", False, OBJECT, ".R,100,G,200,B,150"),
        ("label", True, OBJECT, ".R=100.G=200.B=150"),
        ("matrix", False, STRING, ";color=blue"),
        ("matrix", False, ARRAY, ";color=blue,black,brown"),
        ("matrix", True, ARRAY, ";color=blue;color=black;color=brown"),
        ("matrix", False, OBJECT, ";color=R,100,G,200,B,150"),
        ("matrix", True, OBJECT, ";R=100;G=200;B=150"),
        ("json", False, OBJECT, "%7B%22R%22%3A100%2C%22G%22%3A200%2C%22B%22%3A150%7D"),
    ],
)
def test_path_styles_follow_the_openapi_table(
    style: str, explode: bool, value: Any, expected: str
) -> None:
    assert path_value("color", value, style, explode) == expected


def test_path_values_are_percent_encoded() -> None:
    assert path_value("p", "a/b c?", "simple", False) == "a%2Fb%20c%3F"


@pytest.mark.parametrize(
    ("style", "explode", "value", "expected"),
    [
        ("form", True, STRING, [("color", "blue")]),
        ("form", False, ARRAY, [("color", "blue,black,brown")]),
        ("form", True, ARRAY, [("color", "blue"), ("color", "black"), ("color", "brown")]),
        ("form", False, OBJECT, [("color", "R,100,G,200,B,150")]),
        ("form", True, OBJECT, [("R", "100"), ("G", "200"), ("B", "150")]),
        ("spaceDelimited", False, ARRAY, [("color", "blue black brown")]),
        ("pipeDelimited", False, ARRAY, [("color", "blue|black|brown")]),
        (
            "deepObject",
            True,
            OBJECT,
            [("color[R]", "100"), ("color[G]", "200"), ("color[B]", "150")],
        ),
        ("json", False, OBJECT, [("color", '{"R":100,"G":200,"B":150}')]),
        ("form", True, True, [("color", "true")]),
        ("form", True, None, []),
        # RFC 6570 §2.3: an empty list or map is undefined (``ids=`` would read as [""])
        ("form", False, [], []),
        ("form", True, [], []),
        ("pipeDelimited", False, [], []),
        ("form", False, {}, []),
        ("deepObject", True, {}, []),
        ("json", False, [], [("color", "[]")]),
    ],
)
def test_query_styles_follow_the_openapi_table(
    style: str, explode: bool, value: Any, expected: list[tuple[str, str]]
) -> None:
    assert query_pairs([("color", value, style, explode)]) == expected


def test_headers_use_the_simple_style() -> None:
    assert header_value(ARRAY, False) == "blue,black,brown"
    assert header_value(OBJECT, True) == "R=100,G=200,B=150"
    assert header_value(OBJECT, False, "json") == '{"R":100,"G":200,"B":150}'


class Pet(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(populate_by_name=True)

    pet_id: int = pydantic.Field(alias="petId")
    name: str | None = None


def test_models_are_dumped_by_alias_without_unset_fields() -> None:
    assert to_json(Pet(pet_id=1)) == {"petId": 1}
    assert to_json({"pets": (Pet(petId=2, name="Rex"),)}) == {"pets": [{"petId": 2, "name": "Rex"}]}


def test_a_json_body_is_sent_compact_with_its_content_type() -> None:
    built = build_request(
        "https://api.test/v1/",
        Request("op", "post", "/pets", body=Pet(pet_id=1), send_body=True),
    )
    assert str(built.url) == "https://api.test/v1/pets"
    assert built.content == b'{"petId":1}'
    assert built.headers["Content-Type"] == "application/json"


def test_form_multipart_and_raw_bodies() -> None:
    form = build_request(
        "https://a.test",
        Request(
            "op",
            "post",
            "/f",
            body={"a": 1, "b": True},
            content_type="application/x-www-form-urlencoded",
            send_body=True,
        ),
    )
    assert form.read() == b"a=1&b=true"
    assert form.headers["Content-Type"] == "application/x-www-form-urlencoded"
    multipart = build_request(
        "https://a.test",
        Request(
            "op", "post", "/m", body={"a": "x"}, content_type="multipart/form-data", send_body=True
        ),
    )
    assert b'name="a"' in multipart.read()
    assert multipart.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    raw = build_request(
        "https://a.test",
        Request("op", "put", "/r", body="plain", content_type="text/plain", send_body=True),
    )
    assert raw.read() == b"plain"
    assert raw.headers["Content-Type"] == "text/plain"


def test_parameters_headers_cookies_and_credentials_land_in_their_places() -> None:
    built = build_request(
        "https://api.test",
        Request(
            "op",
            "get",
            "/items/{id}",
            path_params=[("id", "a b", "simple", False)],
            query=[("tags", ["x", "y"], "form", True), ("limit", None, "form", True)],
            headers=[("X-Trace", "t1", "simple", False), ("X-Absent", None, "simple", False)],
            cookies=[("session", "s1", "form", True)],
        ),
        credentials=[
            Credential("header", "Authorization", "Bearer tok"),
            Credential("query", "api_key", "k"),
            Credential("cookie", "csrf", "c"),
        ],
        headers={"User-Agent": "sktypes-test", "X-Trace": "default"},
    )
    assert built.method == "GET"
    assert str(built.url) == "https://api.test/items/a%20b?api_key=k&tags=x&tags=y"
    assert built.headers["X-Trace"] == "t1"
    assert "X-Absent" not in built.headers
    assert built.headers["Authorization"] == "Bearer tok"
    assert built.headers["User-Agent"] == "sktypes-test"
    assert built.headers["Cookie"] == "csrf=c; session=s1"


def test_api_client_sends_and_raises_api_error_outside_2xx() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/missing"):
            return httpx.Response(404, text="no such pet")
        return httpx.Response(200, json={"petId": 3, "name": "Tom"})

    transport = httpx.MockTransport(handler)
    api = ApiClient(
        "https://api.test",
        [Credential("header", "X-Key", "k")],
        client=httpx.AsyncClient(transport=transport),
        sync_client=httpx.Client(transport=transport),
    )
    response = asyncio.run(api._send(Request("getPet", "get", "/pets/3")))
    assert parse_json(Pet, response) == Pet(pet_id=3, name="Tom")
    assert response.request.headers["X-Key"] == "k"
    with pytest.raises(ApiError) as info:
        api._send_sync(Request("getMissing", "get", "/missing"))
    assert (info.value.operation, info.value.status_code, info.value.body) == (
        "getMissing",
        404,
        "no such pet",
    )
    assert json.loads(api._send_sync(Request("x", "get", "/x")).content)["petId"] == 3
