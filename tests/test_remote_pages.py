"""Pagination: recognised from the spec (guessed or declared), walked against a real server.

Recognition: one inline spec per rule. Walks: the package generated from
``tests/specs/remote_api.yaml`` against ``tests/remote_server.py`` (every style, async and
sync), ``kernel_openapi.openapi_pages``, and the errors a walk must raise instead of looping
or losing items.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import sktypes as sk
from sktypes.errors import RemoteResponseError
from sktypes.kernel import openapi_plugin
from sktypes.kernel_openapi import openapi_pages
from sktypes.remote import (
    ApiClient,
    ApiError,
    Pagination,
    Request,
    iterate_pages,
    iterate_pages_sync,
)
from tests.remote_server import RemoteServer, Reply
from tests.remote_util import REMOTE_SPEC, import_generated, load, operation_spec, query

ITEM = {"type": "object", "properties": {"id": {"type": "integer"}}}
ARRAY = {"type": "array", "items": ITEM}


def _page(**members: Any) -> dict[str, Any]:
    return {"type": "object", "properties": members}


def _recognised(spec: dict[str, Any]) -> Pagination | None:
    plugin = load(spec)
    return plugin.operations[0].pagination


# --- recognition: the guess ---------------------------------------------------------------


def test_a_declared_link_header_pages_by_link() -> None:
    link = {"Link": {"schema": {"type": "string"}}}
    spec = operation_spec(parameters=[query("page", "integer")], response=ARRAY, headers=link)
    assert _recognised(spec) == Pagination("link", items="")


@pytest.mark.parametrize(
    ("param", "member", "pointer"),
    [
        ("cursor", "next_cursor", "/next_cursor"),
        ("cursor", "nextCursor", "/nextCursor"),
        ("pageToken", "nextPageToken", "/nextPageToken"),
        ("page_token", "next_page_token", "/next_page_token"),
        ("continue", "metadata", "/metadata/continue"),  # Kubernetes
        ("after", "last_id", "/last_id"),  # OpenAI
        ("marker", "NextMarker", "/NextMarker"),
    ],
)
def test_a_cursor_in_the_body_feeds_its_query_parameter(
    param: str, member: str, pointer: str
) -> None:
    value: dict[str, Any] = {"type": "string"}
    if member == "metadata":
        value = _page(**{"continue": {"type": "string"}})
    spec = operation_spec(parameters=[query(param)], response=_page(items=ARRAY, **{member: value}))
    assert _recognised(spec) == Pagination(
        "cursor", items="/items", cursor=param, next_cursor=pointer
    )


def test_stripe_lists_take_the_cursor_from_the_last_items_id() -> None:
    spec = operation_spec(
        parameters=[query("starting_after"), query("limit", "integer")],
        response=_page(data=ARRAY, has_more={"type": "boolean"}),
    )
    assert _recognised(spec) == Pagination(
        "cursor",
        items="/data",
        cursor="starting_after",
        last_item_cursor="/id",
        has_more="/has_more",
    )


def test_a_textual_page_parameter_is_a_cursor() -> None:  # Stripe's and OpenAI's search
    spec = operation_spec(
        parameters=[query("page")],
        response=_page(data=ARRAY, next_page={"type": ["string", "null"]}),
    )
    assert _recognised(spec) == Pagination(
        "cursor", items="/data", cursor="page", next_cursor="/next_page"
    )


@pytest.mark.parametrize(
    ("members", "pointer"),
    [
        ({"next": {"type": ["string", "null"], "format": "uri"}}, "/next"),
        ({"nextLink": {"type": "string"}}, "/nextLink"),  # Azure
        ({"next_page_uri": {"type": "string"}}, "/next_page_uri"),  # Twilio (relative)
        ({"links": _page(next={"type": "string"})}, "/links/next"),  # JSON:API
        ({"_links": _page(next=_page(href={"type": "string"}))}, "/_links/next/href"),  # HAL
    ],
)
def test_a_next_url_in_the_body(members: dict[str, Any], pointer: str) -> None:
    spec = operation_spec(
        parameters=[query("limit", "integer")], response=_page(results=ARRAY, **members)
    )
    assert _recognised(spec) == Pagination("next_url", items="/results", next_url=pointer)


def test_offset_and_limit_with_a_total() -> None:
    spec = operation_spec(
        parameters=[query("offset", "integer"), query("limit", "integer", maximum=50)],
        response=_page(items=ARRAY, total={"type": "integer"}),
    )
    assert _recognised(spec) == Pagination(
        "offset", items="/items", offset="offset", limit="limit", max_limit=50, total="/total"
    )


def test_page_and_per_page_with_has_more_and_a_zero_based_first_page() -> None:
    spec = operation_spec(
        parameters=[query("page", "integer", minimum=0), query("per_page", "integer")],
        response=_page(data=ARRAY, has_more={"type": "boolean"}, total_pages={"type": "integer"}),
    )
    assert _recognised(spec) == Pagination(
        "page",
        items="/data",
        page="page",
        limit="per_page",
        first_page=0,
        has_more="/has_more",
        total_pages="/total_pages",
    )


def test_a_bare_array_with_a_page_parameter_ends_on_a_short_page() -> None:
    spec = operation_spec(
        parameters=[query("page", "integer"), query("per_page", "integer")], response=ARRAY
    )
    assert _recognised(spec) == Pagination("page", items="", page="page", limit="per_page")


def test_several_arrays_pick_the_conventional_name_and_none_is_ambiguous() -> None:
    two = _page(data=ARRAY, tags=ARRAY, next_cursor={"type": "string"})
    assert _recognised(operation_spec(parameters=[query("cursor")], response=two)) is not None
    odd = _page(a=ARRAY, b=ARRAY, next_cursor={"type": "string"})
    assert _recognised(operation_spec(parameters=[query("cursor")], response=odd)) is None


@pytest.mark.parametrize(
    "spec",
    [
        # a page parameter but an object of items, not an array
        operation_spec(parameters=[query("page", "integer")], response=_page(map=ITEM)),
        # a POST is never guessed (a cursor in a create call means something else)
        operation_spec(
            method="post",
            parameters=[query("cursor")],
            response=_page(data=ARRAY, next_cursor={"type": "string"}),
        ),
        # a cursor parameter with nothing in the body to feed it, and no other rule
        operation_spec(parameters=[query("cursor")], response=_page(data=ARRAY)),
        # a list with a limit only
        operation_spec(parameters=[query("limit", "integer")], response=ARRAY),
    ],
)
def test_what_is_not_recognised(spec: dict[str, Any]) -> None:
    assert _recognised(spec) is None


# --- recognition: declarations ------------------------------------------------------------


def test_x_sktypes_pagination_overrides_the_guess() -> None:
    declared = {
        "style": "cursor",
        "cursor": "after",
        "next_cursor": "/meta/end",
        "items": "/rows",
        "has_more": "/meta/more",
    }
    spec = operation_spec(
        method="post",
        parameters=[query("after"), query("cursor")],
        response=_page(rows=ARRAY, next_cursor={"type": "string"}),
        extra={"x-sktypes-pagination": declared},
    )
    assert _recognised(spec) == Pagination(
        "cursor",
        items="/rows",
        cursor="after",
        next_cursor="/meta/end",
        has_more="/meta/more",
        source="x-sktypes-pagination",
    )


def test_x_sktypes_pagination_false_turns_the_guess_off() -> None:
    spec = operation_spec(
        parameters=[query("cursor")],
        response=_page(data=ARRAY, next_cursor={"type": "string"}),
        extra={"x-sktypes-pagination": False},
    )
    assert _recognised(spec) is None


@pytest.mark.parametrize(
    ("declared", "problem"),
    [
        ({"style": "cursor", "cursor": "nope", "next_cursor": "/n"}, "'nope' is not a parameter"),
        ({"style": "sideways"}, "style must be one of"),
        ({"style": "cursor", "cursor": "cursor"}, "needs 'next_cursor'"),
        ({"style": "link", "items": "data"}, "items must be a JSON pointer"),
        ({"style": "link", "colour": 1}, "unknown member 'colour'"),
    ],
)
def test_a_broken_declaration_is_a_warning_and_no_pagination(
    declared: dict[str, Any], problem: str
) -> None:
    spec = operation_spec(
        parameters=[query("cursor")],
        response=_page(data=ARRAY, next_cursor={"type": "string"}),
        extra={"x-sktypes-pagination": declared},
    )
    plugin = load(spec)
    assert plugin.operations[0].pagination is None
    (warning,) = plugin.warnings
    assert warning.startswith("/paths/~1things/get/x-sktypes-pagination: x-sktypes-pagination: ")
    assert problem in warning and warning.endswith("the operation is not paginated")


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        (
            {
                "type": "offsetLimit",
                "inputs": [
                    {"name": "page", "in": "parameters", "type": "page"},
                    {"name": "limit", "in": "parameters", "type": "limit"},
                ],
                "outputs": {"results": "$.data.resultArray", "numPages": "$.data.pages"},
            },
            Pagination(
                "page",
                items="/data/resultArray",
                page="page",
                limit="limit",
                total_pages="/data/pages",
                source="x-speakeasy-pagination",
            ),
        ),
        (
            {
                "type": "cursor",
                "inputs": [{"name": "cursor", "in": "parameters", "type": "cursor"}],
                "outputs": {"nextCursor": "$.resultArray[(@.length-1)]"},
            },
            Pagination(
                "cursor",
                items="/resultArray",
                cursor="cursor",
                last_item_cursor="",
                source="x-speakeasy-pagination",
            ),
        ),
        (
            {
                "type": "cursor",
                "inputs": [{"name": "cursor", "in": "parameters", "type": "cursor"}],
                "outputs": {"nextCursor": "$.pageInfo['next']", "results": "$.data"},
            },
            Pagination(
                "cursor",
                items="/data",
                cursor="cursor",
                next_cursor="/pageInfo/next",
                source="x-speakeasy-pagination",
            ),
        ),
        (
            {"type": "url", "outputs": {"nextUrl": "$.next"}},
            Pagination(
                "next_url", items="/data", next_url="/next", source="x-speakeasy-pagination"
            ),
        ),
    ],
)
def test_speakeasy_pagination(declared: dict[str, Any], expected: Pagination) -> None:
    spec = operation_spec(
        parameters=[query("page", "integer"), query("limit", "integer"), query("cursor")],
        response=_page(data=ARRAY),
        extra={"x-speakeasy-pagination": declared},
    )
    assert _recognised(spec) == expected


def test_speakeasy_request_body_inputs_are_refused_with_a_warning() -> None:
    declared = {
        "type": "offsetLimit",
        "inputs": [{"name": "page", "in": "requestBody", "type": "page"}],
        "outputs": {"results": "$.data"},
    }
    spec = operation_spec(response=_page(data=ARRAY), extra={"x-speakeasy-pagination": declared})
    plugin = load(spec)
    assert plugin.operations[0].pagination is None
    assert "inputs in 'requestBody' are not supported" in plugin.warnings[0]


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        (
            {
                "cursor": "$request.cursor",
                "next_cursor": "$response.meta.next",
                "results": "$response.data",
            },
            Pagination(
                "cursor",
                items="/data",
                cursor="cursor",
                next_cursor="/meta/next",
                source="x-fern-pagination",
            ),
        ),
        (
            {
                "offset": "$request.offset",
                "step": "$request.limit",
                "results": "$response.data",
                "has-next-page": "$response.hasMore",
            },
            Pagination(
                "offset",
                items="/data",
                offset="offset",
                limit="limit",
                has_more="/hasMore",
                source="x-fern-pagination",
            ),
        ),
        (
            {"offset": "$request.page", "results": "$response.data"},
            Pagination("page", items="/data", page="page", source="x-fern-pagination"),
        ),
    ],
)
def test_fern_pagination(declared: dict[str, Any], expected: Pagination) -> None:
    spec = operation_spec(
        parameters=[
            query("cursor"),
            query("offset", "integer"),
            query("limit", "integer"),
            query("page", "integer"),
        ],
        response=_page(data=ARRAY),
        extra={"x-fern-pagination": declared},
    )
    assert _recognised(spec) == expected


def test_fern_true_takes_the_document_level_declaration() -> None:
    spec = operation_spec(
        parameters=[query("page", "integer")],
        response=_page(data=ARRAY),
        extra={"x-fern-pagination": True},
        root={"x-fern-pagination": {"offset": "$request.page", "results": "$response.data"}},
    )
    assert _recognised(spec) == Pagination(
        "page", items="/data", page="page", source="x-fern-pagination"
    )


def test_pagination_round_trips_through_its_dict() -> None:
    p = Pagination("offset", items="/x", offset="o", limit="l", max_limit=9, total="/t")
    assert Pagination.from_dict(json.loads(json.dumps(p.to_dict()))) == p


# --- walks through the generated package --------------------------------------------------


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return import_generated(REMOTE_SPEC, tmp_path_factory.mktemp("pages"), "pages_shop")


ALL = list(range(1, 8))


async def _collect(iterator: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in iterator]


@pytest.mark.parametrize(
    ("method", "kwargs", "requests"),
    [
        ("list_link_items", {"per_page": 3}, 3),
        ("list_cursor_items", {"limit": 3}, 3),
        ("list_token_items", {"pageSize": 3}, 3),
        ("list_next_items", {"limit": 3}, 3),
        ("list_offset_items", {"limit": 3}, 3),  # a short third page ends it
        ("list_offset_items", {}, 4),  # no page size asked: 3 + 3 + 1, then an empty page
        ("list_page_items", {"per_page": 3}, 3),  # has_more false on the third
        ("list_plain_items", {"per_page": 3}, 3),  # short third page
        ("list_plain_items", {"per_page": 7}, 2),  # a full page, then an empty one
    ],
)
def test_every_style_walks_every_item_async_and_sync(
    shop: Any, remote_server: RemoteServer, method: str, kwargs: dict[str, Any], requests: int
) -> None:
    plugin = shop.PagesShopPlugin(remote_server.url)
    items = asyncio.run(_collect(getattr(plugin, f"{method}_iter")(**kwargs)))
    assert [item.id for item in items] == ALL
    assert all(isinstance(item, shop.models.Item) for item in items)
    sent = len(remote_server.requests)
    blocking = list(getattr(plugin, f"{method}_iter_sync")(**kwargs))
    assert blocking == items
    assert len(remote_server.requests) == 2 * sent
    assert sent == requests


def test_an_iterator_may_be_awaited_first(shop: Any, remote_server: RemoteServer) -> None:
    plugin = shop.PagesShopPlugin(remote_server.url)

    async def run() -> list[int]:
        return [item.id async for item in await plugin.list_cursor_items_iter(limit=4)]

    assert asyncio.run(run()) == ALL
    with pytest.raises(ValueError, match="max_pages"):
        plugin.list_cursor_items_iter(max_pages=0)  # at once, not at the first item


def test_the_walk_sends_the_cursor_it_was_given(shop: Any, remote_server: RemoteServer) -> None:
    plugin = shop.PagesShopPlugin(remote_server.url)
    list(plugin.list_cursor_items_iter_sync(limit=2))
    cursors = [s.query.get("cursor") for s in remote_server.requests]
    assert cursors[0] is None and all(c is not None for c in cursors[1:])
    assert [s.query["limit"] for s in remote_server.requests] == [["2"]] * 4


def test_max_pages_stops_the_walk(shop: Any, remote_server: RemoteServer) -> None:
    plugin = shop.PagesShopPlugin(remote_server.url)
    items = list(plugin.list_link_items_iter_sync(per_page=2, max_pages=2))
    assert [i.id for i in items] == [1, 2, 3, 4]
    assert len(remote_server.requests) == 2
    with pytest.raises(ValueError, match="max_pages"):
        list(plugin.list_link_items_iter_sync(max_pages=0))


def test_an_empty_list_is_one_request(shop: Any, remote_server: RemoteServer) -> None:
    remote_server.item_count = 0
    plugin = shop.PagesShopPlugin(remote_server.url)
    for method in ("link", "cursor", "token", "next", "offset", "page", "plain"):
        assert list(getattr(plugin, f"list_{method}_items_iter_sync")()) == []
    assert len(remote_server.requests) == 7


def test_the_link_walk_keeps_the_callers_other_parameters(
    shop: Any, remote_server: RemoteServer
) -> None:
    with httpx.Client(params={"q": "kept"}) as client:  # closed: its socket would leak
        plugin = shop.PagesShopPlugin(remote_server.url, sync_client=client)
        assert len(list(plugin.list_link_items_iter_sync(per_page=3))) == 7
    assert [s.query["q"] for s in remote_server.requests] == [["kept"]] * 3


def test_a_failed_page_raises_the_api_error(shop: Any, remote_server: RemoteServer) -> None:
    plugin = shop.PagesShopPlugin(remote_server.url)
    remote_server.script(
        "GET",
        "/cursor/items",
        Reply(200, {"items": [{"id": 1, "name": "a"}], "next_cursor": "x"}),
        Reply(404),
    )
    walk = plugin.list_cursor_items_iter_sync()
    assert next(walk).id == 1
    with pytest.raises(ApiError) as info:
        next(walk)
    assert info.value.status_code == 404


# --- what a walk refuses --------------------------------------------------------------------


def test_a_page_repeating_the_one_before_raises(shop: Any, remote_server: RemoteServer) -> None:
    same = Reply(200, {"data": [{"id": 1, "name": "a"}], "has_more": True})
    remote_server.script("GET", "/page/items", same, same)
    plugin = shop.PagesShopPlugin(remote_server.url)
    with pytest.raises(RemoteResponseError, match="page 2: the page repeats the page before"):
        list(plugin.list_page_items_iter_sync())


def test_a_next_url_on_another_origin_is_not_followed(
    shop: Any, remote_server: RemoteServer
) -> None:
    body = {"count": 9, "next": "http://evil.example/steal", "previous": None, "results": []}
    remote_server.script("GET", "/next/items", Reply(200, body))
    plugin = shop.PagesShopPlugin(remote_server.url, api_key="secret")
    with pytest.raises(RemoteResponseError, match="another origin") as info:
        list(plugin.list_next_items_iter_sync())
    assert "secret" not in str(info.value)
    assert len(remote_server.requests) == 1


def test_items_that_are_not_an_array_raise(shop: Any, remote_server: RemoteServer) -> None:
    remote_server.script(
        "GET", "/cursor/items", Reply(200, {"items": {"id": 1}, "next_cursor": None})
    )
    plugin = shop.PagesShopPlugin(remote_server.url)
    with pytest.raises(RemoteResponseError, match="page 1: the items at /items are not an array"):
        list(plugin.list_cursor_items_iter_sync())


def test_absent_items_are_an_empty_page(shop: Any, remote_server: RemoteServer) -> None:
    remote_server.script("GET", "/token/items", Reply(200, {}))  # Google leaves empty lists out
    plugin = shop.PagesShopPlugin(remote_server.url)
    assert list(plugin.list_token_items_iter_sync()) == []


def test_a_relative_next_url_resolves_against_the_request(remote_server: RemoteServer) -> None:
    first = {"results": [{"id": 1}], "next": "/next/page2?x=1"}
    remote_server.script("GET", "/next/page1", Reply(200, first))
    remote_server.script("GET", "/next/page2", Reply(200, {"results": [{"id": 2}], "next": None}))
    client = ApiClient(remote_server.url)
    pagination = Pagination("next_url", items="/results", next_url="/next")

    def build() -> Request:
        return Request("op", "get", "/next/page1")

    items = list(iterate_pages_sync(client, pagination, build))
    assert items == [{"id": 1}, {"id": 2}]
    assert remote_server.requests[1].query == {"x": ["1"]}
    remote_server.script("GET", "/next/page1", Reply(200, first))
    remote_server.script("GET", "/next/page2", Reply(200, {"results": [{"id": 2}], "next": None}))
    assert asyncio.run(_collect(iterate_pages(client, pagination, build))) == items


# --- kernel_openapi -------------------------------------------------------------------------


def test_kernel_openapi_pages(remote_server: RemoteServer) -> None:
    plugin = sk.load_openapi(REMOTE_SPEC)
    by_name = openapi_plugin(plugin, server_url=remote_server.url)
    for name in ("listLinkItems", "listCursorItems", "listOffsetItems", "listNextItems"):
        items = asyncio.run(_collect(openapi_pages(by_name[name], {"limit": 2, "per_page": 2})))
        assert [i["id"] for i in items] == ALL, name
    assert [
        i["id"]
        for i in asyncio.run(
            _collect(openapi_pages(by_name["listPageItems"], {"per_page": 2}, max_pages=2))
        )
    ] == [1, 2, 3, 4]
    with pytest.raises(sk.KernelError, match="is not a paginated OpenAPI operation"):
        openapi_pages(by_name["getItem"], {"id": 1})


def test_views_json_records_the_pagination(shop: Any) -> None:
    views = json.loads(Path(shop.__file__).with_name("views.json").read_text())
    found = {f["view"]["name"]: f.get("pagination") for f in views["functions"]}
    assert found["listCursorItems"] == {
        "style": "cursor",
        "items": "/items",
        "cursor": "cursor",
        "next_cursor": "/next_cursor",
    }
    assert found["listOffsetItems"]["source"] == "x-speakeasy-pagination"
    assert found["getItem"] is None


# --- sktypes serve: one page per call, the next page's arguments said --------------------------


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_answers_one_page_and_says_how_to_get_the_next(
    shop: Any, remote_server: RemoteServer, target: str
) -> None:
    mcp = pytest.importorskip("sktypes.integrations.mcp")
    from tests.mcp_helpers import connected

    served = sk.load_openapi(REMOTE_SPEC) if target == "spec" else shop
    server = mcp.server(served, base_url=remote_server.url)
    calls = [
        ("listLinkItems", {"per_page": 3}),
        ("listLinkItems", {"per_page": 3, "page": 3}),
        ("listCursorItems", {"limit": 5}),
        ("listOffsetItems", {"limit": 4, "offset": 4}),
        ("listNextItems", {"limit": 3}),
    ]

    async def main() -> list[Any]:
        async with connected(server, mode="legacy") as client:
            return [await client.call_tool(name, args) for name, args in calls]

    import anyio

    first, last, cursor, offset, next_url = anyio.run(main)
    assert [i["id"] for i in first.structured_content["result"]] == [1, 2, 3]
    assert first.meta[mcp.NEXT_PAGE_META] == {"page": 2, "per_page": 3}
    assert first.content[-1].text == 'note: more results: call again with {"page":2,"per_page":3}'
    assert last.meta is None or mcp.NEXT_PAGE_META not in last.meta  # the last page
    following = cursor.meta[mcp.NEXT_PAGE_META]
    assert (
        following["limit"] == 5 and following["cursor"] == cursor.structured_content["next_cursor"]
    )
    assert offset.meta is None or mcp.NEXT_PAGE_META not in offset.meta  # a short page
    assert next_url.meta[mcp.NEXT_PAGE_META] == {"limit": 3, "offset": 3}
