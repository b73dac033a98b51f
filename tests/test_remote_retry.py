"""Retries (issue 27 §3): idempotent requests again on 408/429/5xx and connection failures.

``Retry-After`` (seconds or an HTTP date, capped by ``max_delay``) else exponential
backoff with jitter; a POST only with a declared idempotency-key header, the same key on
every attempt; ``retries=0`` disables. The waits are recorded, never slept or timed.
"""

from __future__ import annotations

from typing import Any

import pytest

from sktypes.remote import ApiError, RemoteRequestError, Retry, idempotency_header
from sktypes.remote import _client as client_module
from sktypes.remote._retry import retry_after
from tests.remote_rules import (
    MODES,
    SPEC,
    call,
    generated,
    invoke,
    kernel_function,
    serve_call,
)
from tests.remote_server import DROP, RESET, RemoteServer, Reply, http_date

BUSY = Reply(503, {"code": "busy", "message": "later"})


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits between attempts, recorded instead of slept."""
    seen: list[float] = []

    async def wait_async(seconds: float) -> None:
        seen.append(seconds)

    monkeypatch.setattr(client_module, "_sleep", seen.append)
    monkeypatch.setattr(client_module, "_async_sleep", wait_async)
    return seen


@pytest.mark.parametrize("mode", MODES)
def test_a_get_is_retried_on_503_and_429_until_it_succeeds(
    rules: Any, remote_server: RemoteServer, mode: str, waits: list[float]
) -> None:
    remote_server.script("GET", "/items/2", BUSY, Reply(429, {}, {"Retry-After": "3"}))
    item = call(generated(rules, remote_server, retries=Retry(max_delay=8)), mode, "get_item", 2)
    assert item.id == 2
    assert [s.answer for s in remote_server.seen("GET", "/items/2")] == ["503", "429", "200"]
    assert 0.25 <= waits[0] <= 0.5  # backoff 0.5 s with jitter
    assert waits[1] == 3.0  # Retry-After


@pytest.mark.parametrize("mode", MODES)
def test_retry_after_is_capped_by_max_delay_and_read_as_an_http_date(
    rules: Any, remote_server: RemoteServer, mode: str, waits: list[float]
) -> None:
    remote_server.script(
        "GET",
        "/items/2",
        Reply(429, {}, {"Retry-After": "120"}),
        Reply(503, {}, {"Retry-After": http_date(30)}),
    )
    call(generated(rules, remote_server, retries=Retry(max_delay=2.5)), mode, "get_item", 2)
    assert waits == [2.5, 2.5]


def test_retry_after_in_seconds_and_as_a_date() -> None:
    now = 1_000_000.0
    assert retry_after({"retry-after": "7"}, now) == 7.0
    assert retry_after({"retry-after": "Thu, 01 Jan 1970 00:00:00 GMT"}, now) == 0.0
    assert retry_after({"retry-after": "Mon, 12 Jan 1970 13:46:50 GMT"}, now) == 10.0
    assert retry_after({"retry-after": "soon"}, now) is None
    assert retry_after({}, now) is None


def test_backoff_doubles_from_half_a_second_to_eight_with_jitter() -> None:
    policy = Retry(max_retries=6)
    for attempt, ceiling in enumerate([0.5, 1, 2, 4, 8, 8], start=1):
        waits = {policy.delay(attempt) for _ in range(50)}
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(waits) > 1  # jitter


@pytest.mark.parametrize("mode", MODES)
def test_retries_give_up_after_max_retries_with_the_last_answer(
    rules: Any, remote_server: RemoteServer, mode: str, waits: list[float]
) -> None:
    remote_server.script("GET", "/items/3", BUSY, BUSY, BUSY, BUSY)
    with pytest.raises(ApiError) as info:
        call(generated(rules, remote_server, retries=Retry()), mode, "get_item", 3)
    assert info.value.status_code == 503
    assert info.value.parsed is not None and info.value.parsed.code == "busy"
    assert len(remote_server.seen("GET", "/items/3")) == 3  # the default: 2 retries
    assert len(waits) == 2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("failure", [RESET, DROP])
def test_a_connection_reset_or_drop_is_retried(
    rules: Any, remote_server: RemoteServer, mode: str, failure: str
) -> None:
    remote_server.script("GET", "/items/4", failure)
    assert call(generated(rules, remote_server), mode, "get_item", 4).id == 4
    assert [s.answer for s in remote_server.seen("GET", "/items/4")] == [failure, "200"]


@pytest.mark.parametrize("mode", MODES)
def test_retries_zero_disables_retrying(rules: Any, remote_server: RemoteServer, mode: str) -> None:
    remote_server.script("GET", "/items/5", BUSY)
    with pytest.raises(ApiError):
        call(generated(rules, remote_server, retries=0), mode, "get_item", 5)
    assert len(remote_server.seen("GET", "/items/5")) == 1
    remote_server.script("GET", "/items/5", RESET)
    with pytest.raises(Exception) as info:  # httpx's own error: nothing to retry it with
        call(generated(rules, remote_server, retries=0), mode, "get_item", 5)
    assert not isinstance(info.value, ApiError)


@pytest.mark.parametrize("mode", MODES)
def test_a_post_without_an_idempotency_key_is_never_retried(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("POST", "/echo", BUSY)
    with pytest.raises(ApiError):
        call(generated(rules, remote_server), mode, "upload", b"GIF89a....")
    assert len(remote_server.seen("POST", "/echo")) == 1


@pytest.mark.parametrize("mode", MODES)
def test_a_post_with_an_idempotency_key_header_is_retried_with_the_same_key(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("POST", "/orders", BUSY, RESET)
    plugin = generated(rules, remote_server)
    order = call(plugin, mode, "create_order", {"item_id": 1, "quantity": 2})
    keys = [s.headers.get("idempotency-key") for s in remote_server.seen("POST", "/orders")]
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1  # generated once, sent thrice
    assert order.idempotency_key == keys[0]
    remote_server.script("POST", "/orders", BUSY)
    again = call(plugin, mode, "create_order", {"item_id": 1}, idempotency_key="mine-1")
    assert [s.headers["idempotency-key"] for s in remote_server.seen("POST", "/orders")[3:]] == [
        "mine-1",
        "mine-1",
    ]
    assert again.idempotency_key == "mine-1"


@pytest.mark.parametrize("mode", MODES)
def test_put_is_idempotent_and_statuses_are_configurable(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("PUT", "/echo", Reply(500, {}), Reply(503, {}))
    plugin = generated(rules, remote_server, retries=Retry(statuses={500}, backoff=0))
    with pytest.raises(ApiError) as info:
        call(plugin, mode, "replace", {"a": 1})
    assert info.value.status_code == 503  # 500 retried, 503 not in the statuses
    assert len(remote_server.seen("PUT", "/echo")) == 2


def test_kernel_openapi_retries_like_the_generated_client(remote_server: RemoteServer) -> None:
    remote_server.script("GET", "/items/6", BUSY, RESET)
    assert invoke(kernel_function(remote_server, "getItem"), {"id": 6})["id"] == 6
    remote_server.script("POST", "/echo", BUSY)
    with pytest.raises(ApiError):
        invoke(kernel_function(remote_server, "upload"), {"body": "GIF89a...."})
    assert len(remote_server.seen("POST", "/echo")) == 1


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_retries_what_the_runtime_retries(
    remote_server: RemoteServer, package_dir: Any, target: str
) -> None:
    now = Reply(503, {}, {"Retry-After": "0"})
    remote_server.script("GET", "/items/6", now, RESET)
    result = serve_call(
        SPEC if target == "spec" else package_dir, remote_server, "getItem", {"id": 6}
    )
    assert not result.is_error
    assert result.structured_content == {"id": 6, "name": "item-6"}
    assert len(remote_server.seen("GET", "/items/6")) == 3


def test_idempotency_key_headers_are_recognised_by_name() -> None:
    assert idempotency_header(["X-Trace", "Idempotency-Key"]) == "Idempotency-Key"
    assert idempotency_header(["x-idempotency-key"]) == "x-idempotency-key"
    assert idempotency_header(["Idempotency_Key"]) == "Idempotency_Key"
    assert idempotency_header(["X-Request-Id", "Key"]) is None


def test_retries_must_be_an_int_or_a_retry(rules: Any, remote_server: RemoteServer) -> None:
    with pytest.raises(TypeError):
        generated(rules, remote_server, retries="3")
    with pytest.raises(ValueError):
        Retry(max_retries=-1)


@pytest.mark.parametrize("mode", MODES)
def test_a_request_that_cannot_be_built_is_not_sent_at_all(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    with pytest.raises(RemoteRequestError):
        call(generated(rules, remote_server), mode, "upload", b"no known signature")
    assert remote_server.seen("POST", "/echo") == []
