"""Credentials from ``securitySchemes``: each sent only where an operation's ``security`` asks.

Rules first (``sktypes.auth``), then the whole path: the official MCP client calls each
operation of a spec with every kind of scheme, and the local API checks what reached it.
"""

from __future__ import annotations

import base64
import json
import logging
from typing import Any
from urllib.parse import parse_qsl

import anyio
import httpx
import pytest

from sktypes.auth import CredentialsError, SecurityCredentials, env_name, parse_schemes
from sktypes.openapi import load_openapi
from sktypes.remote import Credential

SECRETS = {
    "header_key": "hk-111",
    "query_key": "qk-222",
    "cookie_key": "ck-333",
    "bearer": "bt-444",
    "basic.username": "ann",
    "basic.password": "pw-555",
    "oauth.client_id": "cid-666",
    "oauth.client_secret": "cs-777",
}
TOKEN = "tok-888"

SCHEMES: dict[str, Any] = {
    "header_key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "query_key": {"type": "apiKey", "in": "query", "name": "api_key"},
    "cookie_key": {"type": "apiKey", "in": "cookie", "name": "session"},
    "bearer": {"type": "http", "scheme": "bearer"},
    "basic": {"type": "http", "scheme": "basic"},
    "oauth": {
        "type": "oauth2",
        "flows": {"clientCredentials": {"tokenUrl": "/token", "scopes": {"read": "", "write": ""}}},
    },
    "mtls": {"type": "mutualTLS"},
    "digest": {"type": "http", "scheme": "digest"},
}


def _op(name: str, security: Any = None) -> dict[str, Any]:
    op: dict[str, Any] = {
        "operationId": name,
        "responses": {
            "200": {
                "description": "ok",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    }
    if security is not None:
        op["security"] = security
    return op


SPEC: dict[str, Any] = {
    "openapi": "3.1.0",  # mutualTLS is 3.1's
    "info": {"title": "Vault", "version": "1"},
    "servers": [{"url": "http://127.0.0.1:9"}],
    "security": [{"header_key": []}],  # the default for operations that say nothing
    "components": {"securitySchemes": SCHEMES},
    "paths": {
        "/default": {"get": _op("byDefault")},
        "/public": {"get": _op("public", [])},
        "/query": {"get": _op("query", [{"query_key": []}])},
        "/cookie": {"get": _op("cookie", [{"cookie_key": []}])},
        "/bearer": {"get": _op("bearer", [{"bearer": []}])},
        "/basic": {"get": _op("basic", [{"basic": []}])},
        "/oauth": {"get": _op("oauth", [{"oauth": ["read"]}])},
        "/both": {"get": _op("both", [{"bearer": [], "query_key": []}])},
        "/either": {"get": _op("either", [{"mtls": []}, {"basic": []}])},
        "/anonymous-ok": {"get": _op("anonymousOk", [{"bearer": []}, {}])},
    },
}


# --- rules ------------------------------------------------------------------------------


def test_every_supported_kind_is_parsed_and_the_rest_reported_with_a_pointer() -> None:
    schemes, problems = parse_schemes(SCHEMES)
    assert {n: s.kind for n, s in schemes.items()} == {
        "header_key": "apiKey",
        "query_key": "apiKey",
        "cookie_key": "apiKey",
        "bearer": "bearer",
        "basic": "basic",
        "oauth": "oauth2",
    }
    assert schemes["oauth"].token_url == "/token"
    assert problems == [
        "/components/securitySchemes/mtls: security scheme 'mutualTLS' is not supported",
        "/components/securitySchemes/digest: security scheme 'http' 'digest' is not supported",
    ]


def test_swagger2_schemes() -> None:
    schemes, problems = parse_schemes(
        {
            "key": {"type": "apiKey", "in": "header", "name": "X-K"},
            "login": {"type": "basic"},
            "app": {"type": "oauth2", "flow": "application", "tokenUrl": "https://a/t"},
            "implicit": {"type": "oauth2", "flow": "implicit", "authorizationUrl": "https://a"},
        },
        swagger2=True,
    )
    assert schemes["login"].kind == "basic"
    assert schemes["app"].token_url == "https://a/t"
    assert schemes["implicit"].kind == "oauth2" and schemes["implicit"].token_url is None
    assert problems == []


def test_environment_variable_names() -> None:
    assert env_name("api_key") == "SKTYPES_AUTH_API_KEY"
    assert env_name("basic.username") == "SKTYPES_AUTH_BASIC_USERNAME"
    assert env_name("petstore-auth.client_id", "Petstore") == (
        "SKTYPES_AUTH_PETSTORE_PETSTORE_AUTH_CLIENT_ID"
    )


def test_plugin_specific_variables_win_and_values_win_over_both() -> None:
    env = {"SKTYPES_AUTH_BEARER": "generic", "SKTYPES_AUTH_VAULT_BEARER": "specific"}
    creds = SecurityCredentials(SCHEMES, plugin_name="Vault", env=env)
    got = anyio.run(_credentials, creds, [{"bearer": []}])
    assert got == [Credential("header", "Authorization", "Bearer specific")]
    creds = SecurityCredentials(SCHEMES, plugin_name="Vault", env=env, values={"bearer": "v"})
    assert anyio.run(_credentials, creds, [{"bearer": []}])[0].value == "Bearer v"


async def _credentials(creds: SecurityCredentials, security: Any) -> list[Credential]:
    async with httpx.AsyncClient() as client:
        return await creds.credentials(security, client)


def test_the_first_configured_alternative_wins() -> None:
    creds = SecurityCredentials(SCHEMES, values={"query_key": "q"})
    chosen = creds.choose([{"bearer": []}, {"query_key": []}])
    assert list(chosen) == ["query_key"]
    assert creds.choose([]) == {}
    assert creds.choose([{"bearer": []}, {}]) == {}


def test_missing_credentials_name_the_variables_to_set_and_no_value() -> None:
    creds = SecurityCredentials(SCHEMES, values={"basic.password": "pw-555"})
    with pytest.raises(CredentialsError) as info:
        creds.choose([{"bearer": [], "query_key": []}, {"basic": []}, {"mtls": []}], "op")
    message = str(info.value)
    assert message == (
        "op: needs credentials; set SKTYPES_AUTH_BEARER + SKTYPES_AUTH_QUERY_KEY or "
        "SKTYPES_AUTH_BASIC_USERNAME + SKTYPES_AUTH_BASIC_PASSWORD or mtls (unsupported scheme)"
    )
    assert "pw-555" not in message


def test_values_never_show_in_a_repr() -> None:
    creds = SecurityCredentials(SCHEMES, values={"bearer": "bt-444"})
    credential = anyio.run(_credentials, creds, [{"bearer": []}])[0]
    assert "bt-444" not in repr(credential) and "bt-444" not in repr(creds)


# --- through the MCP server -------------------------------------------------------------


def _api() -> Any:
    from tests.mcp_helpers import Upstream

    api = Upstream()
    tokens: list[dict[str, Any]] = []

    def token(seen: Any) -> Any:
        tokens.append(
            {"auth": seen.header("Authorization"), "form": dict(parse_qsl(seen.body.decode()))}
        )
        return (200, {"access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600})

    api.route("POST", "/token", token)
    api.fallback = lambda seen: (200, {"path": seen.path})
    return api, tokens


def _sent_secrets(seen: Any) -> set[str]:
    """Which credentials reached the API in one request."""
    found = set()
    if seen.header("X-API-Key") == SECRETS["header_key"]:
        found.add("header_key")
    if ("api_key", SECRETS["query_key"]) in seen.query:
        found.add("query_key")
    if f"session={SECRETS['cookie_key']}" in (seen.header("Cookie") or ""):
        found.add("cookie_key")
    auth = seen.header("Authorization") or ""
    if auth == f"Bearer {SECRETS['bearer']}":
        found.add("bearer")
    basic = base64.b64encode(b"ann:pw-555").decode()
    if auth == f"Basic {basic}":
        found.add("basic")
    if auth == f"Bearer {TOKEN}":
        found.add("oauth")
    everything = json.dumps([seen.headers, seen.query, seen.raw_path])
    leaked = {k for k, v in SECRETS.items() if v in everything and k.split(".")[0] not in found}
    assert not leaked, f"{seen.path} got secrets it does not need: {leaked}"
    return found


EXPECTED = {
    "/default": {"header_key"},
    "/public": set(),
    "/query": {"query_key"},
    "/cookie": {"cookie_key"},
    "/bearer": {"bearer"},
    "/basic": {"basic"},
    "/oauth": {"oauth"},
    "/both": {"bearer", "query_key"},
    "/either": {"basic"},
    "/anonymous-ok": {"bearer"},
}


def test_each_scheme_reaches_only_the_operations_that_require_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from sktypes.integrations import mcp
    from tests.mcp_helpers import connected, upstream

    api, tokens = _api()
    env = {env_name(k): v for k, v in SECRETS.items()}
    caplog.set_level(logging.DEBUG)
    with upstream(api):
        server = mcp.server(load_openapi(SPEC), base_url=api.url, env=env, trace=True)

        async def main() -> None:
            async with connected(server, mode="legacy") as client:
                for tool in (await client.list_tools()).tools:
                    result = await client.call_tool(tool.name, {})
                    assert not result.is_error, result.content
                await client.call_tool("oauth", {})

        anyio.run(main)
    calls = [s for s in api.seen if s.path != "/token"]
    assert {s.path: _sent_secrets(s) for s in calls} == EXPECTED
    # one token for both oauth calls: client credentials sent as HTTP Basic, the scope asked
    cid = base64.b64encode(b"cid-666:cs-777").decode()
    assert tokens == [
        {"auth": f"Basic {cid}", "form": {"grant_type": "client_credentials", "scope": "read"}}
    ]
    assert any("bearer" in r.getMessage() for r in caplog.records)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert not [v for v in [*SECRETS.values(), TOKEN] if v in logged]
    assert any("mutualTLS" in w for w in server.warnings)


def test_missing_credentials_are_an_error_result_and_nothing_is_sent() -> None:
    from sktypes.integrations import mcp
    from tests.mcp_helpers import connected, text_of, upstream

    api, _ = _api()
    with upstream(api):
        server = mcp.server(load_openapi(SPEC), base_url=api.url, env={})

        async def main() -> Any:
            async with connected(server, mode="legacy") as client:
                return await client.call_tool("bearer", {})

        result = anyio.run(main)
    assert result.is_error
    assert "SKTYPES_AUTH_BEARER" in text_of(result)
    assert api.seen == []


def test_a_failing_token_endpoint_is_named_without_secrets() -> None:
    from sktypes.integrations import mcp
    from tests.mcp_helpers import connected, text_of, upstream

    api, _ = _api()
    api.route("POST", "/token", (401, {"error": "invalid_client"}))
    with upstream(api):
        env = {env_name(k): v for k, v in SECRETS.items()}
        server = mcp.server(load_openapi(SPEC), base_url=api.url, env=env)

        async def main() -> Any:
            async with connected(server, mode="legacy") as client:
                return await client.call_tool("oauth", {})

        result = anyio.run(main)
    assert result.is_error
    text = text_of(result)
    assert "returned 401" in text and "/token" in text
    assert not [v for v in SECRETS.values() if v in text]


def test_credentials_from_the_environment_over_stdio() -> None:
    from tests.mcp_helpers import stdio_session, upstream

    api, _ = _api()
    env = {
        "SKTYPES_AUTH_QUERY_KEY": SECRETS["query_key"],
        "SKTYPES_AUTH_VAULT_BEARER": SECRETS["bearer"],
    }
    with upstream(api), _spec_file() as spec:

        async def main() -> None:
            async with stdio_session(spec, "--base-url", api.url, env=env) as session:
                for name in ("query", "bearer", "both", "public"):
                    result = await session.call_tool(name, {})
                    assert not result.is_error, result.content
                denied = await session.call_tool("byDefault", {})
                assert denied.is_error and "SKTYPES_AUTH_HEADER_KEY" in denied.content[0].text

        anyio.run(main)
    assert [(s.path, _sent_secrets(s)) for s in api.seen] == [
        ("/query", {"query_key"}),
        ("/bearer", {"bearer"}),
        ("/both", {"bearer", "query_key"}),
        ("/public", set()),
    ]


class _spec_file:
    def __enter__(self) -> str:
        import tempfile

        self._dir = tempfile.TemporaryDirectory()
        path = f"{self._dir.name}/vault.json"
        with open(path, "w") as fh:
            json.dump(SPEC, fh)
        return path

    def __exit__(self, *exc: Any) -> None:
        self._dir.cleanup()


def test_a_generated_package_sends_its_specs_credentials_per_operation(tmp_path: Any) -> None:
    from sktypes.integrations import mcp
    from sktypes_codegen import generate_plugin
    from tests.mcp_helpers import connected, upstream

    spec = tmp_path / "vault.json"
    spec.write_text(json.dumps(SPEC))
    generate_plugin(spec, tmp_path / "out", name="vault_client")
    api, tokens = _api()
    env = {env_name(k): v for k, v in SECRETS.items()}
    with upstream(api):
        server = mcp.server(str(tmp_path / "out" / "vault_client"), base_url=api.url, env=env)

        async def main() -> Any:
            async with connected(server, mode="legacy") as client:
                listed = (await client.list_tools()).tools
                for tool in listed:
                    result = await client.call_tool(tool.name, {})
                    assert not result.is_error, (tool.name, result.content)
                return listed

        listed = anyio.run(main)
    assert all(t.annotations is not None and t.annotations.read_only_hint for t in listed)
    calls = [s for s in api.seen if s.path != "/token"]
    assert {s.path: _sent_secrets(s) for s in calls} == EXPECTED
    assert len(tokens) == 1
