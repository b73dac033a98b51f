"""Auth from securitySchemes (issue 27 §4, issue 23 finding 4).

API keys, basic, bearer and OAuth2 client credentials (a token fetched from the spec's
``tokenUrl``, kept until it expires, fetched again once on 401); an operation's own
``security`` (``[]`` included) decides what is sent; ``serve --header`` for specs without
a scheme; a credential is checked like any header value and never shows in an error, a
tool result, a log line or a ``repr``.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from click.testing import CliRunner

from sktypes.auth import ClientCredentials, SecurityCredentials
from sktypes.cli import cli
from sktypes.cli._serve import header_values
from sktypes.errors import SktypesError
from sktypes.remote import ApiError, CredentialsError, RemoteRequestError, redact
from sktypes.remote import _oauth as oauth
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
from tests.remote_util import REMOTE_SPEC, import_generated

CLIENT = ClientCredentials("client-1", "secret-1")


@pytest.mark.parametrize("mode", MODES)
def test_each_operation_sends_what_its_security_asks_for(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    plugin = generated(
        rules, remote_server, api_key="key-1", basic_username="user", basic_password="pass"
    )
    assert call(plugin, mode, "with_key") == {"ok": True}
    assert call(plugin, mode, "with_basic") == {"ok": True}
    call(plugin, mode, "get_item", 1)  # security: []
    (key,) = remote_server.seen("GET", "/secure/key")
    (basic,) = remote_server.seen("GET", "/secure/basic")
    (item,) = remote_server.seen("GET", "/items/1")
    assert key.headers["x-api-key"] == "key-1" and "authorization" not in key.headers
    assert basic.headers["authorization"].startswith("Basic ") and "x-api-key" not in basic.headers
    assert "x-api-key" not in item.headers and "authorization" not in item.headers


@pytest.mark.parametrize("mode", MODES)
def test_oauth2_client_credentials_fetch_a_token_and_keep_it(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    plugin = generated(rules, remote_server, oauth_token=CLIENT)
    assert call(plugin, mode, "whoami").client_id == "client-1"
    assert call(plugin, mode, "whoami").scope == "read"  # the operation's scopes
    assert remote_server.tokens_issued == 1
    (grant,) = remote_server.seen("POST", "/oauth/token")  # the spec's relative tokenUrl
    assert b"scope=read" in grant.body and b"secret-1" not in grant.body  # HTTP Basic


@pytest.mark.parametrize("mode", MODES)
def test_an_expired_token_is_fetched_again(
    rules: Any, remote_server: RemoteServer, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    remote_server.token_ttl = 60
    now = [1000.0]
    monkeypatch.setattr(oauth, "_clock", lambda: now[0])
    plugin = generated(rules, remote_server, oauth_token=CLIENT)
    call(plugin, mode, "whoami")
    now[0] += 50  # within its lifetime, less the margin (a tenth of it)
    call(plugin, mode, "whoami")
    assert remote_server.tokens_issued == 1
    now[0] += 5  # 55 s: inside the margin, so it is fetched again before it can expire
    call(plugin, mode, "whoami")
    assert remote_server.tokens_issued == 2


@pytest.mark.parametrize("mode", MODES)
def test_a_401_forgets_the_token_and_tries_once_more(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    plugin = generated(rules, remote_server, oauth_token=CLIENT)
    call(plugin, mode, "whoami")
    remote_server.expire_tokens()  # the client still believes its token live
    assert call(plugin, mode, "whoami").client_id == "client-1"
    assert remote_server.tokens_issued == 2
    assert [s.answer for s in remote_server.seen("GET", "/secure/whoami")] == ["200", "401", "200"]
    refused = Reply(401, {"code": "unauthorized", "message": "no"})
    remote_server.script("GET", "/secure/whoami", refused, refused, refused)
    with pytest.raises(ApiError) as info:
        call(plugin, mode, "whoami")
    assert info.value.status_code == 401
    assert len(remote_server.seen("GET", "/secure/whoami")) == 5  # once more, not forever


@pytest.mark.parametrize("mode", MODES)
def test_a_token_endpoint_that_refuses_basic_gets_the_secret_in_the_form(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    remote_server.script("POST", "/oauth/token", Reply(401, {"error": "invalid_client"}))
    plugin = generated(rules, remote_server, oauth_token=CLIENT)
    assert call(plugin, mode, "whoami").client_id == "client-1"
    basic, form = remote_server.seen("POST", "/oauth/token")
    assert "authorization" in basic.headers
    assert b"client_secret=secret-1" in form.body and "authorization" not in form.headers


@pytest.mark.parametrize("mode", MODES)
def test_a_token_already_had_is_sent_as_bearer(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    plugin = generated(rules, remote_server, oauth_token="not-a-live-token")
    with pytest.raises(ApiError) as info:
        call(plugin, mode, "whoami")
    assert info.value.status_code == 401
    assert remote_server.seen("GET", "/secure/whoami")[0].headers["authorization"] == (
        "Bearer not-a-live-token"
    )
    assert remote_server.tokens_issued == 0


@pytest.mark.parametrize("mode", MODES)
def test_a_failed_token_request_names_the_endpoint_never_the_secret(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    wrong = ClientCredentials("client-1", "wrong-secret")
    with pytest.raises(CredentialsError) as info:
        call(generated(rules, remote_server, oauth_token=wrong), mode, "whoami")
    assert "/oauth/token returned 401" in str(info.value)
    assert "wrong-secret" not in str(info.value) and "wrong-secret" not in repr(wrong)


@pytest.mark.parametrize("mode", MODES)
def test_a_credential_with_a_line_break_is_refused_without_showing_it(
    rules: Any, remote_server: RemoteServer, mode: str
) -> None:
    with pytest.raises(RemoteRequestError) as info:
        call(generated(rules, remote_server, api_key="crlf-key-1\r"), mode, "with_key")
    assert "'apiKey'" in str(info.value) and "control character" in str(info.value)
    assert "crlf-key-1" not in str(info.value)
    assert remote_server.seen("GET", "/secure/key") == []


def test_a_server_echoing_a_credential_does_not_put_it_in_the_message(
    rules: Any, remote_server: RemoteServer
) -> None:
    echoed = Reply(401, {"code": "bad", "message": "key echo-key-77 is not valid"})
    remote_server.script("GET", "/secure/key", echoed)
    plugin = generated(rules, remote_server, api_key="echo-key-77")
    with pytest.raises(ApiError) as info:
        plugin.with_key_sync()
    assert "echo-key-77" not in str(info.value) and "[redacted]" in str(info.value)
    assert "echo-key-77" in info.value.body  # the data itself is the server's, kept whole
    assert "echo-key-77" not in repr(plugin)
    assert redact("a echo-key-77 b") == "a [redacted] b"


def test_reprs_never_show_a_secret() -> None:
    creds = SecurityCredentials(
        {"s": {"type": "http", "scheme": "bearer"}}, values={"s": "tok-123"}, env={}
    )
    assert "tok-123" not in repr(creds)
    assert "secret-1" not in repr(CLIENT) and "client-1" in repr(CLIENT)


def test_kernel_openapi_sends_what_each_operation_asks_for(remote_server: RemoteServer) -> None:
    values = {"oauth": CLIENT, "apiKey": "key-1"}
    assert invoke(kernel_function(remote_server, "whoami", values=values), {})["scope"] == "read"
    assert invoke(kernel_function(remote_server, "withKey", values=values), {}) == {"ok": True}
    invoke(kernel_function(remote_server, "getItem", values=values), {"id": 1})
    (item,) = remote_server.seen("GET", "/items/1")
    assert "x-api-key" not in item.headers and "authorization" not in item.headers
    with pytest.raises(CredentialsError, match="SKTYPES_AUTH_BASIC_USERNAME"):
        invoke(kernel_function(remote_server, "withBasic"), {})


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_fetches_tokens_from_the_environment(
    remote_server: RemoteServer, package_dir: Any, target: str
) -> None:
    env = {
        "SKTYPES_AUTH_OAUTH_CLIENT_ID": "client-1",
        "SKTYPES_AUTH_OAUTH_CLIENT_SECRET": "secret-1",
    }
    result = serve_call(SPEC if target == "spec" else package_dir, remote_server, "whoami", env=env)
    assert not result.is_error, text(result)
    assert result.structured_content == {"client_id": "client-1", "scope": "read"}


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_refuses_a_crlf_credential_without_showing_it(
    remote_server: RemoteServer,
    package_dir: Any,
    target: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    env = {"SKTYPES_AUTH_APIKEY": "serve-key-9\r"}
    with caplog.at_level(logging.DEBUG):
        result = serve_call(
            SPEC if target == "spec" else package_dir, remote_server, "withKey", env=env
        )
    assert result.is_error
    assert "control character" in text(result)
    assert "serve-key-9" not in text(result)
    assert "serve-key-9" not in caplog.text
    assert remote_server.seen("GET", "/secure/key") == []


@pytest.mark.parametrize("target", ["spec", "package"])
def test_serve_header_adds_a_header_to_every_api_request(
    remote_server: RemoteServer, package_dir: Any, target: str
) -> None:
    headers = {"X-API-Key": "key-1", "X-Team": "core"}
    result = serve_call(
        SPEC if target == "spec" else package_dir, remote_server, "echo", {}, headers=headers
    )
    assert not result.is_error, text(result)
    (seen,) = remote_server.seen("GET", "/echo")
    assert seen.headers["x-team"] == "core" and seen.headers["x-api-key"] == "key-1"
    assert "key-1" not in text(result) and "[redacted]" in text(result)  # echoed back
    assert "core" in text(result)  # not a credential: shown


def test_header_values_read_variables_from_the_environment() -> None:
    env = {"GITHUB_TOKEN": "ghp_abc"}
    assert header_values(("Authorization: Bearer ${GITHUB_TOKEN}", "X-A:b"), env) == {
        "Authorization": "Bearer ghp_abc",
        "X-A": "b",
    }
    with pytest.raises(SktypesError, match=r"'Authorization': \$\{NOPE\} is not set"):
        header_values(("Authorization: token ${NOPE}",), env)
    with pytest.raises(SktypesError, match="expected 'Name: value'"):
        header_values(("no colon",), env)


def test_serve_header_errors_exit_2_naming_the_header(remote_server: RemoteServer) -> None:
    pytest.importorskip("mcp")  # serve says it needs the MCP SDK first (make test-lowest)
    runner = CliRunner()
    missing = runner.invoke(cli, ["serve", str(SPEC), "--header", "X-Key: ${SKTYPES_TEST_UNSET}"])
    assert missing.exit_code == 2
    assert "${SKTYPES_TEST_UNSET} is not set" in missing.output
    bad = runner.invoke(
        cli,
        ["serve", str(SPEC), "--header", "X-Key: ${SKTYPES_TEST_VALUE}"],
        env={"SKTYPES_TEST_VALUE": "bad-value-1\r\nX-Evil: 1"},
    )
    assert bad.exit_code == 2
    assert "'X-Key'" in bad.output and "bad-value-1" not in bad.output


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The package of tests/specs/remote_api.yaml (the golden remote_shop's spec)."""
    return import_generated(REMOTE_SPEC, tmp_path_factory.mktemp("auth"), "auth_shop")


@pytest.mark.parametrize("mode", MODES)
def test_http_basic_of_the_shop_spec_sends_basic_alone(
    shop: Any, remote_server: RemoteServer, mode: str
) -> None:
    """remote_api.yaml's checkBasic (security: basic) sends only its own credential."""
    plugin = shop.AuthShopPlugin(
        remote_server.url,
        api_key="key-1",
        basic_username="user",
        basic_password="pass",
        oauth_token=CLIENT,
    )
    assert call(plugin, mode, "check_basic").ok is True
    (seen,) = remote_server.seen("GET", "/secure/basic")
    assert seen.headers["authorization"] == "Basic dXNlcjpwYXNz"  # user:pass
    assert "x-api-key" not in seen.headers and remote_server.tokens_issued == 0
    wrong = shop.AuthShopPlugin(remote_server.url, basic_username="user", basic_password="nope-9")
    with pytest.raises(ApiError) as raised:
        call(wrong, mode, "check_basic")
    assert raised.value.status_code == 401 and type(raised.value.parsed).__name__ == "Error"
    assert "nope-9" not in str(raised.value) and "nope-9" not in repr(wrong)
