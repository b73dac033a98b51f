"""Typed errors (issue 27 §1): a declared non-2xx response raises ApiError with ``.parsed``.

Exact codes, ``4XX``/``5XX`` ranges and ``default`` are matched in that order; ``.parsed``
is the body as the declared response types it (``None`` when undeclared or not what was
declared, ``.body`` still holding it); docstrings list the errors; over MCP the model reads
the status and the body.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from sktypes.errors import KernelError
from sktypes.remote import ApiError, Request, declared_status
from tests.remote_rules import (
    MODES,
    SPEC,
    call,
    generated,
    invoke,
    kernel_function,
    serve_call,
    text,
)
from tests.remote_server import RemoteServer, Reply


def _raised(plugin: Any, mode: str, method: str, *args: Any, **kwargs: Any) -> ApiError:
    with pytest.raises(ApiError) as info:
        call(plugin, mode, method, *args, **kwargs)
    return info.value


@pytest.mark.parametrize("mode", MODES)
def test_a_declared_status_raises_api_error_with_the_declared_model(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    error = _raised(generated(rules, remote_server), mode, "get_item", 99)
    assert error.status_code == 404
    assert error.headers["content-type"] == "application/json"
    assert '"not_found"' in error.body
    assert isinstance(error.parsed, rules.models.Error)
    assert error.parsed.code == "not_found"
    assert error.declared == "404"
    assert isinstance(error, KernelError)
    assert "GET /items/{id} returned 404" in str(error)


@pytest.mark.parametrize("mode", MODES)
def test_a_status_range_and_default_type_the_body(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/items/1", Reply(502, {"code": "down", "message": "later"}))
    plugin = generated(rules, remote_server, retries=0)
    ranged = _raised(plugin, mode, "get_item", 1)
    assert (ranged.status_code, ranged.declared) == (502, "5XX")
    assert ranged.parsed == rules.models.Error(code="down", message="later")
    teapot = Reply(418, "short and stout", {"Content-Type": "text/plain"})
    remote_server.script("GET", "/items/1", teapot)
    default = _raised(plugin, mode, "get_item", 1)
    assert (default.status_code, default.declared, default.parsed) == (418, "default", teapot.body)


@pytest.mark.parametrize("mode", MODES)
def test_a_body_that_is_not_what_was_declared_is_not_parsed_but_kept(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("GET", "/items/1", Reply(404, {"unexpected": True}))
    error = _raised(generated(rules, remote_server), mode, "get_item", 1)
    assert error.parsed is None
    assert error.declared == "404"
    assert error.body == '{"unexpected": true}'
    remote_server.script("GET", "/text", Reply(409, {"code": "c", "message": "m"}))
    undeclared = _raised(generated(rules, remote_server), mode, "get_text")
    assert (undeclared.status_code, undeclared.parsed, undeclared.declared) == (409, None, None)


def test_an_exact_code_wins_over_its_range_which_wins_over_default() -> None:
    errors = {"default": 0, "4XX": 0, "404": 0, "5xx": 0}
    assert declared_status(errors, 404) == "404"
    assert declared_status(errors, 400) == "4XX"
    assert declared_status(errors, 503) == "5xx"
    assert declared_status(errors, 302) == "default"
    assert declared_status({"404": 0}, 500) is None


def test_the_generated_docstring_lists_the_errors(rules: Any) -> None:
    doc = rules.RemoteRulesClientPlugin.get_item.__doc__
    assert "Raises:" in doc
    assert "404: ``Error`` (no such item)." in doc
    assert "5XX: ``Error`` (the server is in trouble)." in doc
    assert "any other status: ``str`` (anything else)." in doc
    assert "ApiError: a status outside 2xx (no error response is declared)." in (
        rules.RemoteRulesClientPlugin.get_text_sync.__doc__
    )


def test_kernel_openapi_raises_api_error_with_the_declared_json(
    remote_server: RemoteServer,
) -> None:
    fn = kernel_function(remote_server, "getItem")
    with pytest.raises(ApiError) as info:
        invoke(fn, {"id": 99})
    assert info.value.status_code == 404
    assert info.value.parsed == {"code": "not_found", "message": "no item 99"}
    remote_server.script("GET", "/items/1", Reply(404, ["not", "an", "Error"]))
    with pytest.raises(ApiError) as info:
        invoke(fn, {"id": 1})
    assert info.value.parsed is None


@pytest.mark.parametrize("target", ["spec", "package"])
def test_over_mcp_the_model_reads_the_status_and_the_typed_body(
    remote_server: RemoteServer, package_dir: Any, target: str
) -> None:
    result = serve_call(
        SPEC if target == "spec" else package_dir, remote_server, "getItem", {"id": 99}
    )
    assert result.is_error
    shown = text(result)
    assert "HTTP 404 (its declared 404 response)" in shown
    assert '"code": "not_found"' in shown


def test_an_error_without_a_client_of_its_own_still_carries_everything() -> None:
    def api(request: httpx.Request) -> httpx.Response:
        return httpx.Response(  # the body's bytes as given (httpx's json= spacing varies)
            500,
            content=b'{"code":"x","message":"y"}',
            headers={"X-Request-Id": "r1", "Content-Type": "application/json"},
        )

    from sktypes.remote import ApiClient

    client = ApiClient(
        "https://api.test", sync_client=httpx.Client(transport=httpx.MockTransport(api)), retries=0
    )
    with pytest.raises(ApiError) as info:
        client._send_sync(Request("op", "get", "/x", errors={"5XX": dict}))
    assert info.value.headers["x-request-id"] == "r1"
    assert info.value.parsed == {"code": "x", "message": "y"}
    assert info.value.content == b'{"code":"x","message":"y"}'
