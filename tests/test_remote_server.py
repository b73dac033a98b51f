"""The local test API itself (tests/remote_server.py): each behaviour the client tests rely on."""

from __future__ import annotations

import json
import threading

import httpx
import pytest

from tests.remote_server import DROP, RESET, RemoteServer, Reply, http_date


def _all_pages(first: str, client: httpx.Client) -> list[int]:
    ids: list[int] = []
    url: str | None = first
    while url is not None:
        response = client.get(url)
        ids.extend(item["id"] for item in response.json())
        url = response.links.get("next", {}).get("url")
    return ids


def test_link_header_pages_end_without_next(remote_server: RemoteServer) -> None:
    with httpx.Client() as client:
        ids = _all_pages(f"{remote_server.url}/link/items?per_page=3&q=x", client)
        last = client.get(f"{remote_server.url}/link/items?page=3&per_page=3")
    assert ids == [1, 2, 3, 4, 5, 6, 7]
    assert "next" not in last.links and last.links["prev"]["url"].endswith("page=2&per_page=3")
    assert [s.query.get("q") for s in remote_server.requests[:3]] == [["x"]] * 3


def test_cursor_token_and_next_url_pages(remote_server: RemoteServer) -> None:
    remote_server.item_count = 5
    base = remote_server.url
    with httpx.Client(base_url=base) as client:
        cursor, ids = None, []
        while True:
            params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
            body = client.get("/cursor/items", params=params).json()
            ids += [i["id"] for i in body["items"]]
            if (cursor := body["next_cursor"]) is None:
                break
        assert ids == [1, 2, 3, 4, 5]
        first = client.get("/token/items", params={"pageSize": 5}).json()
        assert "nextPageToken" not in first and len(first["items"]) == 5
        token = client.get("/token/items", params={"pageSize": 4}).json()["nextPageToken"]
        rest = client.get("/token/items", params={"pageSize": 4, "pageToken": token}).json()
        assert [i["id"] for i in rest["items"]] == [5]
        page = client.get("/next/items", params={"limit": 3}).json()
        assert page["count"] == 5 and page["previous"] is None
        second = client.get(page["next"]).json()
        assert [i["id"] for i in second["results"]] == [4, 5] and second["next"] is None


def test_offset_page_and_plain_pages(remote_server: RemoteServer) -> None:
    with httpx.Client(base_url=remote_server.url) as client:
        offset = client.get("/offset/items", params={"offset": 6, "limit": 3}).json()
        assert offset == {"items": [{"id": 7, "name": "item-7"}], "total": 7}
        assert client.get("/page/items", params={"page": 2}).json()["has_more"] is True
        assert client.get("/page/items", params={"page": 3}).json()["has_more"] is False
        assert client.get("/plain/items", params={"page": 4}).json() == []


def test_scripted_replies_come_first_then_the_route(remote_server: RemoteServer) -> None:
    retry_at = http_date(2)
    remote_server.script(
        "GET",
        "/items/1",
        Reply(503),
        Reply(429, {"code": "slow_down"}, {"Retry-After": retry_at}),
    )
    with httpx.Client(base_url=remote_server.url) as client:
        assert client.get("/items/1").status_code == 503
        limited = client.get("/items/1")
        assert limited.status_code == 429 and limited.headers["Retry-After"] == retry_at
        assert client.get("/items/1").json() == {"id": 1, "name": "item-1"}
        assert client.get("/items/99").status_code == 404
    assert [s.answer for s in remote_server.seen("GET", "/items/1")] == ["503", "429", "200"]


@pytest.mark.parametrize("action", [RESET, DROP])
def test_reset_and_drop_break_the_connection(remote_server: RemoteServer, action: str) -> None:
    remote_server.script("GET", "/items/2", action)
    with httpx.Client(base_url=remote_server.url) as client:
        with pytest.raises((httpx.ReadError, httpx.RemoteProtocolError)):
            client.get("/items/2")
        assert client.get("/items/2").status_code == 200


def test_orders_answer_the_same_order_for_the_same_idempotency_key(
    remote_server: RemoteServer,
) -> None:
    with httpx.Client(base_url=remote_server.url) as client:
        one = client.post("/orders", json={"item_id": 3}, headers={"Idempotency-Key": "k1"})
        again = client.post("/orders", json={"item_id": 3}, headers={"Idempotency-Key": "k1"})
        other = client.post("/orders", json={"item_id": 3})
    assert one.status_code == 201 and one.json() == again.json()
    assert other.json()["id"] == 2 and other.json()["idempotency_key"] is None


def test_oauth2_client_credentials_tokens_expire(remote_server: RemoteServer) -> None:
    with httpx.Client(base_url=remote_server.url) as client:
        refused = client.post("/oauth/token", data={"grant_type": "client_credentials"})
        assert refused.status_code == 401 and refused.json() == {"error": "invalid_client"}
        grant = client.post(
            "/oauth/token",
            data={"grant_type": "client_credentials", "scope": "read"},
            auth=("client-1", "secret-1"),
        ).json()
        assert grant["token_type"] == "Bearer" and grant["expires_in"] == 3600
        bearer = {"Authorization": f"Bearer {grant['access_token']}"}
        assert client.get("/secure/whoami", headers=bearer).json() == {
            "client_id": "client-1",
            "scope": "read",
        }
        remote_server.expire_tokens()
        expired = client.get("/secure/whoami", headers=bearer)
        assert expired.status_code == 401 and "invalid_token" in expired.headers["WWW-Authenticate"]
        posted = client.post(
            "/oauth/token",
            data={
                "grant_type": "client_credentials",
                "client_id": "client-1",
                "client_secret": "secret-1",
            },
        )
        assert posted.status_code == 200 and remote_server.tokens_issued == 2
        assert client.get("/secure/key", headers={"X-API-Key": "key-1"}).json() == {"ok": True}
        assert client.get("/secure/basic", auth=("user", "pass")).status_code == 200
        assert client.get("/secure/basic", auth=("user", "nope")).status_code == 401


def test_echo_returns_what_was_sent(remote_server: RemoteServer) -> None:
    with httpx.Client(base_url=remote_server.url) as client:
        echo = client.put("/echo?a=1&a=2", content=b"hi", headers={"X-Thing": "t"}).json()
    assert echo["method"] == "PUT" and echo["query"] == {"a": ["1", "2"]}
    assert echo["headers"]["x-thing"] == "t" and echo["body"] == "hi"


def test_sse_events_arrive_one_at_a_time(remote_server: RemoteServer) -> None:
    gate = remote_server.hold_streams()
    received: list[str] = []
    with (
        httpx.Client(base_url=remote_server.url, timeout=10) as client,
        client.stream("GET", "/stream/sse", params={"count": 2}) as response,
    ):
        assert response.headers["content-type"] == "text/event-stream"
        for line in response.iter_lines():
            received.append(line)
            if line == "" and len(received) < 6:
                # the first event is complete while the server still holds the rest
                assert not gate.is_set()
                gate.set()
    assert received[:5] == [
        ": tick 0",
        "event: tick",
        "id: 0",
        'data: {"n": 0, "text": "item 0"}',
        "",
    ]
    assert received[5:10] == [
        ": tick 1",
        "event: tick",
        "id: 1",
        'data: {"n": 1,',
        'data: "text": "item 1"}',
    ]
    assert received[-3:] == ["event: done", 'data: {"count": 2}', ""]


@pytest.mark.parametrize(
    ("path", "media_type", "prefix"),
    [
        ("/stream/jsonl", "application/jsonl", ""),
        ("/stream/ndjson", "application/x-ndjson", ""),
        ("/stream/json-seq", "application/json-seq", "\x1e"),
    ],
)
def test_json_streams_one_item_per_record(
    remote_server: RemoteServer, path: str, media_type: str, prefix: str
) -> None:
    remote_server.malformed_at = 2
    with httpx.Client(base_url=remote_server.url) as client:
        response = client.get(path, params={"count": 4})
    assert response.headers["content-type"] == media_type
    records = response.text.split("\n")
    assert records[-1] == "" and all(r.startswith(prefix) for r in records[:-1])
    assert [json.loads(r.removeprefix(prefix))["n"] for r in records[:2]] == [0, 1]
    with pytest.raises(ValueError):
        json.loads(records[2].removeprefix(prefix))


def test_a_cut_stream_is_reset_before_its_end(remote_server: RemoteServer) -> None:
    remote_server.cut_streams_after = 1
    with (
        httpx.Client(base_url=remote_server.url) as client,
        pytest.raises((httpx.ReadError, httpx.RemoteProtocolError)),
    ):
        client.get("/stream/jsonl", params={"count": 3})


def test_stop_releases_a_held_stream() -> None:
    server = RemoteServer().start()
    server.hold_streams()
    done = threading.Event()

    def read() -> None:
        try:
            with httpx.Client(timeout=10) as client:
                client.get(f"{server.url}/stream/jsonl")
        except httpx.HTTPError:
            pass
        done.set()

    thread = threading.Thread(target=read)
    thread.start()
    while not server.requests:
        threading.Event().wait(0.01)
    server.stop()
    assert done.wait(10)
    thread.join()
