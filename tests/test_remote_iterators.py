"""Pages and streams on the one send path and under the one drift rule.

A streamed operation's request goes through ``ApiClient._stream`` like any call's: it is
retried before its first item (a 503, a reset) and gets a fresh OAuth2 token on 401. A page
or a stream item that breaks its schema is returned as received with a
``ResponseDriftWarning`` (the page's JSON pointer; the stream item's index and the pointer
inside it), and ``strict=True`` (per client, per call) raises ``ResponseDriftError``. Each
rule through the generated package (async and sync), ``kernel_openapi`` and ``sktypes
serve``, against ``tests/remote_server.py``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

import sktypes as sk
from sktypes.auth import ClientCredentials, SecurityCredentials
from sktypes.kernel import KernelFunction
from sktypes.kernel_openapi import openapi_functions, openapi_pages
from sktypes.remote import ResponseDriftError, ResponseDriftWarning, Retry
from tests.remote_rules import MODES, serve_call, text
from tests.remote_server import RESET, RemoteServer, Reply
from tests.remote_util import REMOTE_SPEC, import_generated

FAST = Retry(backoff=0.0, max_delay=0.0)
CLIENT = ClientCredentials("client-1", "secret-1")
DRIFTED_PAGE = {
    "items": [{"id": 1, "name": "item-1"}, {"id": "two", "name": "item-2"}],
    "next_cursor": None,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return import_generated(REMOTE_SPEC, tmp_path_factory.mktemp("iterators"), "iter_shop")


def _plugin(shop: Any, server: RemoteServer, **kwargs: Any) -> Any:
    kwargs.setdefault("retries", FAST)
    return shop.IterShopPlugin(server.url, **kwargs)


def _items(plugin: Any, mode: str, method: str, **kwargs: Any) -> list[Any]:
    """Every item of ``plugin.method(...)`` (``async for``) or of its ``_sync`` twin."""
    if mode == "sync":
        found: Iterator[Any] = getattr(plugin, f"{method}_sync")(**kwargs)
        return list(found)

    async def main() -> list[Any]:
        return [item async for item in getattr(plugin, method)(**kwargs)]

    return asyncio.run(main())


def _kernel(server: RemoteServer, name: str, **kwargs: Any) -> KernelFunction:
    kwargs.setdefault("retries", FAST)
    functions, _ = openapi_functions(sk.load_openapi(REMOTE_SPEC), server_url=server.url, **kwargs)
    return next(f for f in functions if f.name == name)


def _collect(items: AsyncIterator[Any]) -> list[Any]:
    async def main() -> list[Any]:
        return [item async for item in items]

    return asyncio.run(main())


def _kernel_items(fn: KernelFunction, arguments: dict[str, Any]) -> list[Any]:
    async def main() -> list[Any]:
        return [item async for item in await fn.call(arguments)]

    return asyncio.run(main())


# --- streams on the send path: retries and a fresh token ----------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_stream_is_retried_before_its_first_item(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/stream/jsonl", Reply(503), RESET)
    items = _items(_plugin(shop, remote_server), mode, "stream_lines", count=2)
    assert [i.n for i in items] == [0, 1]
    answers = [s.answer for s in remote_server.seen("GET", "/stream/jsonl")]
    assert answers == ["503", "reset", "200"]


@pytest.mark.parametrize("mode", MODES)
def test_retries_zero_leaves_a_stream_error_to_the_caller(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/stream/jsonl", Reply(503, {"code": "busy", "message": "x"}))
    with pytest.raises(sk.remote.ApiError) as info:
        _items(_plugin(shop, remote_server, retries=0), mode, "stream_lines")
    assert info.value.status_code == 503 and info.value.parsed is None


def test_kernel_openapi_and_serve_retry_a_stream(remote_server: RemoteServer) -> None:
    remote_server.script("GET", "/stream/jsonl", Reply(503))
    items = _kernel_items(_kernel(remote_server, "streamLines"), {"count": 2})
    assert items == [{"n": 0, "text": "item 0"}, {"n": 1, "text": "item 1"}]
    remote_server.script("GET", "/stream/jsonl", Reply(503))
    served = serve_call(REMOTE_SPEC, remote_server, "streamLines", {"count": 2})
    assert not served.is_error
    assert served.structured_content == {"result": items}
    answers = [s.answer for s in remote_server.seen("GET", "/stream/jsonl")]
    assert answers == ["503", "200", "503", "200"]


@pytest.mark.parametrize("mode", MODES)
def test_a_stream_gets_a_fresh_token_on_401(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    plugin = _plugin(shop, remote_server, oauth_token=CLIENT)
    assert len(_items(plugin, mode, "stream_secure", count=2)) == 2
    remote_server.expire_tokens()  # the client still believes its token live
    assert [i.n for i in _items(plugin, mode, "stream_secure", count=2)] == [0, 1]
    assert remote_server.tokens_issued == 2
    answers = [s.answer for s in remote_server.seen("GET", "/secure/stream")]
    assert answers == ["200", "401", "200"]
    assert all("authorization" not in s.headers for s in remote_server.seen("GET", "/stream/jsonl"))


def test_kernel_openapi_and_serve_refresh_a_streams_token(remote_server: RemoteServer) -> None:
    plugin = sk.load_openapi(REMOTE_SPEC)
    credentials = SecurityCredentials(
        plugin.security_schemes, values={"oauth": CLIENT}, env={}, base_url=remote_server.url
    )
    fn = _kernel(remote_server, "streamSecure", credentials=credentials)
    assert len(_kernel_items(fn, {"count": 1})) == 1
    remote_server.expire_tokens()
    assert _kernel_items(fn, {"count": 1}) == [{"n": 0, "text": "item 0"}]
    assert remote_server.tokens_issued == 2
    env = {
        "SKTYPES_AUTH_OAUTH_CLIENT_ID": "client-1",
        "SKTYPES_AUTH_OAUTH_CLIENT_SECRET": "secret-1",
    }
    served = serve_call(REMOTE_SPEC, remote_server, "streamSecure", {"count": 1}, env=env)
    assert served.structured_content == {"result": [{"n": 0, "text": "item 0"}]}
    assert "secret-1" not in text(served)


# --- pages under the drift rule ---------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_page_item_that_breaks_its_schema_is_yielded_as_received(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
    with pytest.warns(ResponseDriftWarning) as caught:
        first, second = _items(_plugin(shop, remote_server), mode, "list_cursor_items_iter")
    assert first == shop.models.Item(id=1, name="item-1")
    assert (second.id, second.name) == ("two", "item-2")  # nothing coerced, nothing dropped
    (warning,) = [w.message for w in caught]
    assert (warning.operation, warning.pointer, warning.value) == (
        "listCursorItems",
        "/items/1/id",
        "two",
    )
    assert '"two"' in warning.body and warning.item is None


@pytest.mark.parametrize("mode", MODES)
def test_strict_raises_for_a_drifted_page_per_call_and_per_client(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    for plugin, kwargs in [
        (_plugin(shop, remote_server), {"strict": True}),
        (_plugin(shop, remote_server, strict=True), {}),
    ]:
        remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
        with pytest.raises(ResponseDriftError) as info:
            _items(plugin, mode, "list_cursor_items_iter", **kwargs)
        assert [p.pointer for p in info.value.problems] == ["/items/1/id"]
        assert info.value.status_code == 200 and '"two"' in info.value.body
    remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
    lenient = _plugin(shop, remote_server, strict=True)
    with pytest.warns(ResponseDriftWarning):  # strict=False on the call wins
        assert len(_items(lenient, mode, "list_cursor_items_iter", strict=False)) == 2


def test_a_page_that_fits_warns_nothing(shop: Any, remote_server: RemoteServer) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        items = _items(_plugin(shop, remote_server), "sync", "list_cursor_items_iter", limit=3)
    assert len(items) == remote_server.item_count


def test_kernel_openapi_pages_follow_the_same_rule(remote_server: RemoteServer) -> None:
    remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
    fn = _kernel(remote_server, "listCursorItems")
    with pytest.warns(ResponseDriftWarning) as caught:
        items = _collect(openapi_pages(fn, {}))
    assert items == DRIFTED_PAGE["items"]
    assert [(w.message.pointer, w.message.value) for w in caught] == [("/items/1/id", "two")]
    remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
    strict = _kernel(remote_server, "listCursorItems", strict=True)
    with pytest.raises(ResponseDriftError):
        _collect(openapi_pages(strict, {}))


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_returns_a_drifted_page_and_says_so(
    shop: Any, remote_server: RemoteServer, target: str
) -> None:
    from pathlib import Path

    served = REMOTE_SPEC if target == "spec" else Path(shop.__file__).parent
    remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
    result = serve_call(served, remote_server, "listCursorItems", {})
    assert result.structured_content["result"] == DRIFTED_PAGE  # one page per call
    assert result.structured_content["drift"] == ["$.items[1].id: 'two' is not of type 'integer'"]
    remote_server.script("GET", "/cursor/items", Reply(200, DRIFTED_PAGE))
    failing = serve_call(served, remote_server, "listCursorItems", {}, drift="error")
    assert failing.is_error and "$.items[1].id" in text(failing)


# --- streams under the drift rule -------------------------------------------------------------

DRIFTED_LINES = '{"n": 0, "text": "a"}\n{"n": "one", "text": "b"}\n'
JSONL = {"Content-Type": "application/jsonl"}


@pytest.mark.parametrize("mode", MODES)
def test_a_stream_item_that_breaks_its_schema_is_yielded_as_received(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/stream/jsonl", Reply(200, DRIFTED_LINES, JSONL))
    with pytest.warns(ResponseDriftWarning) as caught:
        first, second = _items(_plugin(shop, remote_server), mode, "stream_lines")
    assert first == shop.models.Tick(n=0, text="a")
    assert (second.n, second.text) == ("one", "b")
    (warning,) = [w.message for w in caught]
    assert (warning.item, warning.pointer, warning.value) == (1, "/n", "one")
    assert warning.body == '{"n": "one", "text": "b"}'
    assert "streamLines: response drift of item 1 at /n" in str(warning)


@pytest.mark.parametrize("mode", MODES)
def test_strict_raises_at_the_drifted_stream_item(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    for plugin, kwargs in [
        (_plugin(shop, remote_server), {"strict": True}),
        (_plugin(shop, remote_server, strict=True), {}),
    ]:
        remote_server.script("GET", "/stream/jsonl", Reply(200, DRIFTED_LINES, JSONL))
        with pytest.raises(ResponseDriftError, match="item 1 of the stream") as info:
            _items(plugin, mode, "stream_lines", **kwargs)
        assert info.value.item == 1 and info.value.body == '{"n": "one", "text": "b"}'


def test_kernel_openapi_and_serve_stream_items_follow_the_same_rule(
    shop: Any, remote_server: RemoteServer
) -> None:
    from pathlib import Path

    remote_server.script("GET", "/stream/jsonl", Reply(200, DRIFTED_LINES, JSONL))
    with pytest.warns(ResponseDriftWarning) as caught:
        items = _kernel_items(_kernel(remote_server, "streamLines"), {})
    assert items[1] == {"n": "one", "text": "b"}
    assert [(w.message.item, w.message.pointer) for w in caught] == [(1, "/n")]
    remote_server.script("GET", "/stream/jsonl", Reply(200, DRIFTED_LINES, JSONL))
    with pytest.raises(ResponseDriftError):
        _kernel_items(_kernel(remote_server, "streamLines", strict=True), {})
    for served in (REMOTE_SPEC, Path(shop.__file__).parent):
        remote_server.script("GET", "/stream/jsonl", Reply(200, DRIFTED_LINES, JSONL))
        result = serve_call(served, remote_server, "streamLines", {})
        assert result.structured_content["result"][1] == {"n": "one", "text": "b"}
        assert result.structured_content["drift"] == ["$[1].n: 'one' is not of type 'integer'"]
