"""Streaming: SSE, JSON lines and JSON text sequences, parsed, recognised, read as they arrive.

The parser is tested on its own (WHATWG's event-stream rules, chunk boundaries anywhere),
recognition on inline specs (3.1 ``schema`` and 3.2 ``itemSchema``), and the reads against
``tests/remote_server.py``: through the generated package (async and sync), through
``kernel_openapi`` and through ``sktypes serve`` (one result, bounded).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sktypes as sk
from sktypes.errors import RemoteResponseError, StreamItemError
from sktypes.kernel import openapi_plugin
from sktypes.kernel_openapi import openapi_stream
from sktypes.remote import (
    ApiClient,
    ApiError,
    Request,
    ResponseDriftError,
    ResponseDriftWarning,
    ServerSentEvent,
    Stream,
    iterate_stream,
)
from sktypes.remote._streams import StreamParser
from tests.remote_server import RemoteServer, Reply
from tests.remote_util import REMOTE_SPEC, import_generated, load, operation_spec

TICK = {
    "type": "object",
    "required": ["n", "text"],
    "properties": {"n": {"type": "integer"}, "text": {"type": "string"}},
}


def _events(fmt: str, *chunks: bytes) -> list[tuple[Any, ...]]:
    parser = StreamParser(fmt)  # type: ignore[arg-type]
    raws = [r for c in chunks for r in parser.feed(c)] + parser.close()
    if fmt == "sse":
        return [(r.event, r.text.decode(), r.id, r.retry, r.line) for r in raws]
    return [(r.text.decode().strip(), r.line, r.error) for r in raws]


# --- the parser ------------------------------------------------------------------------------


def test_sse_fields_follow_the_whatwg_rules() -> None:
    text = (
        b"\xef\xbb\xbf: a comment\n"
        b"data: first\n"
        b"data:  second line (one space kept)\n"
        b"\n"
        b"event: add\r\n"
        b"id: 7\r\n"
        b"retry: 1500\r\n"
        b"data\r\n"  # a field without a colon: empty data
        b"\r\n"
        b"event: ignored\rdata: after CR\r\r"  # CR line ends
        b"retry: soon\n"  # not digits: ignored
        b"id: bad\x00id\n"  # NUL: ignored
        b"event: flush\n"
        b"\n"  # no data: nothing dispatched, the type resets
        b"data: last, without a blank line after it"
    )
    assert _events("sse", text) == [
        ("message", "first\n second line (one space kept)", None, None, 2),
        ("add", "", "7", 1500, 8),
        ("ignored", "after CR", "7", None, 11),
        ("message", "last, without a blank line after it", "7", None, 17),
    ]


@given(st.data())
def test_chunk_boundaries_do_not_change_the_items(data: st.DataObject) -> None:
    sse = b'event: a\r\ndata: {"x": 1}\r\n\r\nid: 2\ndata: [1,\ndata: 2]\n\n: c\rdata: \xc3\xa9\r\r'
    jsonl = b'{"n": 1}\r\n\n{"n": 2}\n  \n{"n": 3}'
    seq = b'\x1e{"n": 1}\n\x1e{\n "n": 2\n}\n\x1e3\n'
    for fmt, whole in (("sse", sse), ("jsonl", jsonl), ("json-seq", seq)):
        cuts = sorted(data.draw(st.sets(st.integers(1, len(whole) - 1), max_size=6)))
        parts = [whole[a:b] for a, b in zip([0, *cuts], [*cuts, len(whole)], strict=True)]
        assert _events(fmt, *parts) == _events(fmt, whole), (fmt, cuts)


def test_json_lines_skip_blank_lines_and_count_lines() -> None:
    assert _events("jsonl", b'{"a": 1}\n\n\r\n{"a": 2}\n') == [
        ('{"a": 1}', 1, None),
        ('{"a": 2}', 4, None),
    ]


def test_json_seq_records_and_text_outside_them() -> None:
    items = _events("json-seq", b'junk\n\x1e{"a":\n 1}\n\x1e"b"\n')
    assert items == [
        ("junk", 1, "text outside a record (no RS)"),
        ('{"a":\n 1}', 2, None),
        ('"b"', 4, None),
    ]


def test_a_json_seq_record_arrives_at_its_line_end() -> None:
    parser = StreamParser("json-seq")
    assert [r.text for r in parser.feed(b'\x1e{"a": 1}\n')] == [b'{"a": 1}\n']
    assert parser.feed(b'\x1e{"b":\n') == []  # not whole yet
    assert [r.text for r in parser.feed(b" 2}\n")] == [b'{"b":\n 2}\n']


# --- recognition -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("media", "fmt"),
    [
        ("text/event-stream", "sse"),
        ("application/jsonl", "jsonl"),
        ("application/x-ndjson", "jsonl"),
        ("application/json-seq", "json-seq"),
    ],
)
def test_stream_media_types_stream(media: str, fmt: str) -> None:
    plugin = load(operation_spec(response=TICK, media=media))
    op, view = plugin.operations[0], plugin.views[0]
    assert op.stream == Stream(media, fmt)  # type: ignore[arg-type]
    assert view.return_parameter.is_streaming
    assert view.return_parameter.schema == op.item_schema == op.response_schema
    if fmt == "sse":
        properties = op.item_schema.value["properties"]
        assert set(properties) == {"event", "data", "id", "retry"}
        assert properties["data"] == TICK
    else:
        assert op.item_schema.value == TICK


def test_a_json_answer_beside_a_stream_is_the_return_value() -> None:
    spec = operation_spec(response=TICK)
    ok = spec["paths"]["/things"]["get"]["responses"]["200"]
    ok["content"]["text/event-stream"] = {"schema": TICK}
    op = load(spec).operations[0]
    assert op.stream is None and op.response_content_type == "application/json"


def test_openapi_32_item_schema_of_sse_envelopes() -> None:
    envelope = {
        "oneOf": [
            {
                "type": "object",
                "required": ["event", "data"],
                "properties": {
                    "event": {"const": "tick"},
                    "data": {
                        "type": "string",
                        "contentMediaType": "application/json",
                        "contentSchema": {"$ref": "#/components/schemas/Tick"},
                    },
                },
            },
            {
                "type": "object",
                "properties": {"event": {"const": "note"}, "data": {"type": "string"}},
            },
        ]
    }
    spec = operation_spec(version="3.2.0", media="text/event-stream")
    spec["paths"]["/things"]["get"]["responses"]["200"]["content"] = {
        "text/event-stream": {"itemSchema": envelope}
    }
    spec["components"] = {"schemas": {"Tick": TICK}}
    plugin = load(spec)
    op = plugin.operations[0]
    assert op.stream == Stream("text/event-stream", "sse", "json", ("tick", "note"))
    assert op.item_schema.value["properties"]["event"] == {
        "type": "string",
        "enum": ("tick", "note"),
    }
    data = op.item_schema.value["properties"]["data"]
    assert data["anyOf"][0] == {"$ref": "#/$defs/Tick"}
    assert data["anyOf"][1] == {"type": "string"}
    assert op.item_schema.value["$defs"]["Tick"] == TICK


def test_text_data_stays_text() -> None:
    spec = operation_spec(response={"type": "string"}, media="text/event-stream")
    assert load(spec).operations[0].stream == Stream("text/event-stream", "sse", "text")


def test_without_a_schema_sse_data_is_json_when_it_parses_else_text(
    remote_server: RemoteServer,
) -> None:
    spec = operation_spec(path="/sse")
    spec["paths"]["/sse"]["get"]["responses"]["200"]["content"] = {"text/event-stream": {}}
    op = load(spec).operations[0]
    assert op.stream == Stream("text/event-stream", "sse", "any")
    body = 'data: {"a": 1}\n\ndata: plain words\n\n'
    remote_server.script("GET", "/sse", Reply(200, body, {"Content-Type": "text/event-stream"}))
    request = Request("op", "get", "/sse")
    items = asyncio.run(_collect(iterate_stream(ApiClient(remote_server.url), request, op.stream)))
    assert [i["data"] for i in items] == [{"a": 1}, "plain words"]


def test_an_item_schema_of_another_media_type_is_a_warning() -> None:
    spec = operation_spec(version="3.2.0")
    spec["paths"]["/things"]["get"]["responses"]["200"]["content"] = {
        "multipart/mixed": {"itemSchema": {"type": "object"}}
    }
    plugin = load(spec)
    assert plugin.operations[0].stream is None
    assert plugin.warnings == [
        "/paths/~1things/get/responses/200/content/multipart~1mixed: multipart/mixed items "
        "(itemSchema) are not read as a stream; left as the body"
    ]


# --- OpenAPI 3.2 documents -----------------------------------------------------------------


def test_openapi_32_documents_load_with_query_operations(tmp_path: Path) -> None:
    spec = operation_spec(version="3.2.0", method="query", response=TICK)
    spec["paths"]["/things"]["additionalOperations"] = {
        "COPY": {"responses": {"200": {"description": "ok"}}}
    }
    plugin = load(spec)
    assert plugin.openapi_version == "3.2.0"
    assert [(o.name, o.method) for o in plugin.operations] == [("op", "query")]
    assert plugin.warnings == [
        "/paths/~1things/additionalOperations: additionalOperations (methods beyond "
        "OpenAPI's) are not loaded"
    ]


@pytest.mark.parametrize(
    ("item_schema", "message"),
    [
        (
            {"type": "objectx"},
            "itemSchema/type: not a valid OpenAPI document: itemSchema: ",
        ),
        ({"$ref": "#/components/schemas/Nope"}, "points to nothing"),
    ],
)
def test_a_broken_item_schema_is_refused_with_its_place(
    item_schema: dict[str, Any], message: str
) -> None:
    spec = operation_spec(version="3.2.0")
    spec["paths"]["/things"]["get"]["responses"]["200"]["content"] = {
        "application/jsonl": {"itemSchema": item_schema}
    }
    with pytest.raises(sk.OpenApiError) as info:
        load(spec)
    assert "/paths/~1things/get/responses/200/content/application~1jsonl/itemSchema" in str(
        info.value
    )
    assert message in str(info.value)


# --- reads against the server: the generated package ---------------------------------------


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return import_generated(REMOTE_SPEC, tmp_path_factory.mktemp("streams"), "streams_shop")


async def _collect(iterator: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in iterator]


@pytest.mark.parametrize("method", ["stream_lines", "stream_ndjson", "stream_json_seq"])
def test_json_streams_yield_typed_items_async_and_sync(
    shop: Any, remote_server: RemoteServer, method: str
) -> None:
    plugin = shop.StreamsShopPlugin(remote_server.url)
    items = asyncio.run(_collect(getattr(plugin, method)(count=4)))
    assert items == [shop.models.Tick(n=i, text=f"item {i}") for i in range(4)]
    assert list(getattr(plugin, f"{method}_sync")(count=4)) == items


def test_a_stream_may_be_awaited_first_and_closed_early(
    shop: Any, remote_server: RemoteServer
) -> None:
    plugin = shop.StreamsShopPlugin(remote_server.url)

    async def run() -> tuple[list[Any], Any]:
        awaited = [item.n async for item in await plugin.stream_lines(count=2)]
        async with plugin.stream_lines(count=50) as items:
            first = await items.__anext__()
        return awaited, first

    awaited, first = asyncio.run(run())
    assert awaited == [0, 1] and first.n == 0


def test_server_sent_events_are_typed_with_their_name_and_id(
    shop: Any, remote_server: RemoteServer
) -> None:
    plugin = shop.StreamsShopPlugin(remote_server.url)
    events = list(plugin.stream_events_sync(count=2))
    assert [(e.event, e.id, type(e.data).__name__) for e in events] == [
        ("tick", "0", "Tick"),
        ("tick", "1", "Tick"),
        ("done", "1", "Done"),  # the last id so far, as a browser's lastEventId
    ]
    assert events[1].data == shop.models.Tick(n=1, text="item 1")  # data over two lines
    assert isinstance(events[0], ServerSentEvent)
    assert asyncio.run(_collect(plugin.stream_events(count=2))) == events


@pytest.mark.parametrize("method", ["stream_events", "stream_lines", "stream_json_seq"])
def test_items_arrive_before_the_stream_ends(
    shop: Any, remote_server: RemoteServer, method: str
) -> None:
    gate = remote_server.hold_streams()  # the server sends one item, then waits for this
    plugin = shop.StreamsShopPlugin(remote_server.url)

    async def first_then_release() -> list[Any]:
        got = []
        async for item in getattr(plugin, method)(count=3):
            if not got:
                assert not gate.is_set()  # the rest of the body is not sent yet
                gate.set()
            got.append(item)
        return got

    assert len(asyncio.run(first_then_release())) >= 3
    gate.clear()
    blocking = getattr(plugin, f"{method}_sync")(count=3)
    next(blocking)
    assert not gate.is_set()
    gate.set()
    assert len(list(blocking)) >= 2


def test_a_malformed_item_raises_with_its_position(shop: Any, remote_server: RemoteServer) -> None:
    remote_server.malformed_at = 2
    plugin = shop.StreamsShopPlugin(remote_server.url)
    lines = plugin.stream_lines_sync(count=4)
    assert [next(lines).n, next(lines).n] == [0, 1]
    with pytest.raises(StreamItemError) as info:
        next(lines)
    assert (info.value.index, info.value.line, info.value.raw) == (2, 3, '{"n": 2, "text": ')
    assert str(info.value).startswith("streamLines: item 2 (line 3): not JSON")


def test_an_item_that_breaks_the_schema_is_yielded_with_a_drift_warning(
    shop: Any, remote_server: RemoteServer
) -> None:
    body = '{"n": 0, "text": "a"}\n{"n": "one"}\n'
    remote_server.script(
        "GET", "/stream/jsonl", Reply(200, body, {"Content-Type": "application/jsonl"})
    )
    plugin = shop.StreamsShopPlugin(remote_server.url)
    with pytest.warns(ResponseDriftWarning) as caught:
        first, second = list(plugin.stream_lines_sync())
    assert first == shop.models.Tick(n=0, text="a")
    assert second.n == "one" and "text" not in second.model_fields_set  # as received
    drift = sorted((w.message.item, w.message.pointer, w.message.value) for w in caught)
    assert drift == [(1, "", {"n": "one"}), (1, "/n", "one")]
    assert all(w.message.body == '{"n": "one"}' for w in caught)
    assert all(w.filename == __file__ for w in caught)  # the caller's line


def test_a_stream_cut_short_raises(shop: Any, remote_server: RemoteServer) -> None:
    remote_server.cut_streams_after = 2
    plugin = shop.StreamsShopPlugin(remote_server.url)
    with pytest.raises(RemoteResponseError, match="the stream broke off after 2 items"):
        list(plugin.stream_events_sync(count=5))
    with pytest.raises(RemoteResponseError, match="the stream broke off after 2 items"):
        asyncio.run(_collect(plugin.stream_json_seq(count=5)))


def test_an_error_status_raises_before_any_item(shop: Any, remote_server: RemoteServer) -> None:
    remote_server.script("GET", "/stream/sse", Reply(503, {"code": "busy", "message": "later"}))
    plugin = shop.StreamsShopPlugin(remote_server.url, retries=0)
    with pytest.raises(ApiError) as info:
        list(plugin.stream_events_sync())
    assert info.value.status_code == 503 and "busy" in info.value.body


def test_done_ends_an_event_stream(remote_server: RemoteServer) -> None:
    body = 'data: {"a": 1}\n\ndata: [DONE]\n\ndata: {"never": true}\n\n'
    remote_server.script("GET", "/sse", Reply(200, body, {"Content-Type": "text/event-stream"}))
    client = ApiClient(remote_server.url)
    items = asyncio.run(
        _collect(
            iterate_stream(client, Request("op", "get", "/sse"), Stream("text/event-stream", "sse"))
        )
    )
    assert items == [{"event": "message", "data": {"a": 1}}]


def test_a_32_package_reads_typed_events_and_a_query_stream(
    tmp_path: Path, remote_server: RemoteServer
) -> None:
    spec = Path(REMOTE_SPEC).with_name("streams_32.yaml")
    package = import_generated(spec, tmp_path, "streams_32_pkg")
    plugin = package.Streams32PkgPlugin(remote_server.url)
    events = list(plugin.ticks_sync(count=1))
    assert [(e.event, type(e.data).__name__) for e in events] == [
        ("tick", "Tick"),
        ("done", "Done"),
    ]
    records = asyncio.run(_collect(plugin.tick_records(count=2)))
    assert [r.n for r in records] == [0, 1]
    assert remote_server.requests[-1].method == "QUERY"


def test_an_event_name_the_stream_does_not_declare_is_drift(
    tmp_path: Path, remote_server: RemoteServer
) -> None:
    body = 'event: tick\ndata: {"n": 0, "text": "a"}\n\nevent: oops\ndata: {"count": 1}\n\n'
    sse = {"Content-Type": "text/event-stream"}
    remote_server.script("GET", "/stream/sse", Reply(200, body, sse), Reply(200, body, sse))
    spec = Path(REMOTE_SPEC).with_name("streams_32.yaml")
    package = import_generated(spec, tmp_path, "streams_32_names")
    plugin = package.Streams32NamesPlugin(remote_server.url)
    with pytest.warns(ResponseDriftWarning) as caught:
        events = list(plugin.ticks_sync())
    assert [e.event for e in events] == ["tick", "oops"] and events[1].data.count == 1
    assert [(w.message.item, w.message.pointer) for w in caught] == [(1, "/event")]
    events = plugin.ticks_sync(strict=True)
    assert next(events).data.n == 0
    with pytest.raises(ResponseDriftError, match="item 1 of the stream breaks") as info:
        next(events)
    assert info.value.item == 1 and info.value.problems[0].value == "oops"


# --- kernel_openapi ------------------------------------------------------------------------


def test_kernel_openapi_streams_json_items(remote_server: RemoteServer) -> None:
    by_name = openapi_plugin(sk.load_openapi(REMOTE_SPEC), server_url=remote_server.url)

    async def run() -> tuple[list[Any], list[Any]]:
        events = await _collect(openapi_stream(by_name["streamEvents"], {"count": 1}))
        called = await by_name["streamJsonSeq"].call({"count": 2})
        return events, await _collect(called)

    events, lines = asyncio.run(run())
    assert events == [
        {"event": "tick", "data": {"n": 0, "text": "item 0"}, "id": "0"},
        {"event": "done", "data": {"count": 1}, "id": "0"},
    ]
    assert lines == [{"n": 0, "text": "item 0"}, {"n": 1, "text": "item 1"}]
    with pytest.raises(sk.KernelError, match="is not a streamed OpenAPI operation"):
        openapi_stream(by_name["getItem"], {"id": 1})


# --- sktypes serve -------------------------------------------------------------------------

mcp = pytest.importorskip("sktypes.integrations.mcp")


def _served(target: Any, url: str, calls: list[tuple[str, dict[str, Any]]], **kw: Any) -> Any:
    from tests.mcp_helpers import connected

    server = mcp.server(target, base_url=url, **kw)

    async def main() -> Any:
        async with connected(server, mode="legacy") as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            return tools, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(main)


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_returns_a_stream_as_one_result(
    shop: Any, remote_server: RemoteServer, target: str
) -> None:
    served = sk.load_openapi(REMOTE_SPEC) if target == "spec" else shop
    calls = [("streamEvents", {"count": 2}), ("streamLines", {"count": 3})]
    tools, (events, lines) = _served(served, remote_server.url, calls)
    from tests.mcp_helpers import check_structured

    check_structured(tools["streamEvents"], events)
    check_structured(tools["streamLines"], lines)
    assert lines.structured_content == {"result": [{"n": i, "text": f"item {i}"} for i in range(3)]}
    assert events.structured_content["result"][2] == {
        "event": "done",
        "data": {"count": 2},
        "id": "1",
    }


def test_serve_cuts_a_stream_at_its_bound_and_says_so(remote_server: RemoteServer) -> None:
    spec = sk.load_openapi(REMOTE_SPEC)
    calls = [("streamLines", {"count": 50}), ("streamJsonSeq", {"count": 50})]
    _, (by_items, by_bytes) = _served(
        spec, remote_server.url, calls, stream_items=5, stream_bytes=100
    )
    assert len(by_items.structured_content["result"]) == 4  # 100 bytes: 4 items of 26
    assert by_items.meta[mcp.TRUNCATED_META].startswith("the stream was cut after 4 items")
    assert "note: the stream was cut" in by_items.content[-1].text
    _, (five,) = _served(spec, remote_server.url, calls[:1], stream_items=5)
    assert len(five.structured_content["result"]) == 5
    assert five.meta[mcp.TRUNCATED_META] == "the stream was cut after 5 items (the server's bound)"
    assert not by_bytes.is_error and len(by_bytes.structured_content["result"]) == 4
    assert json.loads(five.content[0].text) == [{"n": i, "text": f"item {i}"} for i in range(5)]


def test_views_json_records_the_stream(shop: Any) -> None:
    views = json.loads(Path(shop.__file__).with_name("views.json").read_text())
    found = {f["view"]["name"]: f for f in views["functions"]}
    assert found["streamEvents"]["stream"] == {
        "media_type": "text/event-stream",
        "format": "sse",
        "data": "json",
    }
    assert found["streamEvents"]["view"]["return_parameter"]["is_streaming"] is True
    assert found["streamJsonSeq"]["stream"] == {
        "media_type": "application/json-seq",
        "format": "json-seq",
    }
    assert Stream.from_dict(found["streamEvents"]["stream"]) == Stream("text/event-stream", "sse")


def test_sktypes_serve_over_stdio_bounds_streams_and_notes_pages(
    remote_server: RemoteServer,
) -> None:
    from tests.mcp_helpers import stdio_session

    args = (str(REMOTE_SPEC), "--base-url", remote_server.url, "--max-stream-items", "2")

    async def main() -> tuple[Any, Any]:
        async with stdio_session(*args) as session:
            lines = await session.call_tool("streamLines", {"count": 5})
            page = await session.call_tool("listPageItems", {"per_page": 4})
            return lines, page

    lines, page = anyio.run(main)
    assert [i["n"] for i in lines.structured_content["result"]] == [0, 1]
    assert lines.meta[mcp.TRUNCATED_META] == "the stream was cut after 2 items (the server's bound)"
    assert page.meta[mcp.NEXT_PAGE_META] == {"per_page": 4, "page": 2}
