"""What the MCP server lists and returns, rule by rule (the official client, in process).

The client connects to the server object itself (``mcp.Client(server)``): the same SDK
client and protocol, either era (``mode="legacy"``: the initialize handshake, protocol
2025-11-25; ``mode="auto"``: 2026-07-28).
"""

from __future__ import annotations

import base64
import json
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

import anyio
import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

pytest.importorskip("mcp")

from mcp.shared.exceptions import MCPError

from sktypes import kernel_function
from sktypes.errors import SktypesError
from sktypes.integrations import mcp
from sktypes.kernel import Kernel
from sktypes.openapi import load_openapi
from tests.mcp_helpers import EXAMPLES, SPECS, check_structured, connected, text_of, upstream
from tests.typefamilies import Item


def _run(server: Any, body: Any, mode: str = "legacy") -> Any:
    async def main() -> Any:
        async with connected(server, mode=mode) as client:
            return await body(client)

    return anyio.run(main)


class Shop:
    """A plugin with the shapes results come in."""

    @kernel_function
    def count(self, n: int) -> int:
        """A number."""
        return n

    @kernel_function
    def items(self, names: list[str]) -> list[Item]:
        """A list of objects."""
        return [Item(sku=n, qty=1) for n in names]

    @kernel_function
    def maybe(self, present: bool) -> Item | None:
        """An object or null."""
        return Item(sku="a", qty=2) if present else None

    @kernel_function
    def nothing(self, note: str = "") -> None:
        """No result."""

    @kernel_function
    def lies(self) -> Item:
        """Declares an Item, returns something else."""
        return {"sku": 5}  # type: ignore[return-value]

    @kernel_function
    def fails(self) -> int:
        """Raises."""
        raise ValueError("no stock")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_non_object_results_are_wrapped_for_older_clients_and_nullable_ones(mode: str) -> None:
    server = mcp.server(Shop())

    async def body(client: Any) -> Any:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        out = {}
        for name, args in [
            ("count", {"n": 3}),
            ("items", {"names": ["x"]}),
            ("maybe", {"present": False}),
        ]:
            result = await client.call_tool(name, args)
            check_structured(tools[name], result)
            out[name] = (tools[name], result)
        return client.protocol_version, out

    version, out = _run(server, body, mode)
    legacy = mode == "legacy"
    assert (version == "2026-07-28") is not legacy
    count_tool, count = out["count"]
    assert count.structured_content == ({"result": 3} if legacy else 3)
    assert (count_tool.meta or {}).get(mcp.WRAPPED_META) is (True if legacy else None)
    assert out["items"][1].structured_content == (
        {"result": [{"sku": "x", "qty": 1}]} if legacy else [{"sku": "x", "qty": 1}]
    )
    # null and absent are the same on the wire: a result that may be null stays wrapped
    maybe_tool, maybe = out["maybe"]
    assert maybe.structured_content == {"result": None}
    assert (maybe_tool.meta or {}).get(mcp.WRAPPED_META) is True
    assert json.loads(text_of(count)) == 3


def test_object_results_are_not_wrapped_and_refs_resolve() -> None:
    class Orders:
        @kernel_function
        def first(self, items: list[Item]) -> Item:
            """The first item."""
            return items[0]

    server = mcp.server(Orders())

    async def body(client: Any) -> Any:
        tool = (await client.list_tools()).tools[0]
        result = await client.call_tool(tool.name, {"items": [{"sku": "a", "qty": 2}]})
        return tool, result

    tool, result = _run(server, body)
    check_structured(tool, result)
    assert result.structured_content == {"sku": "a", "qty": 2}
    # a definition used once is written in place; the schema accepts the same values
    assert "$defs" not in tool.input_schema and tool.input_schema["type"] == "object"
    assert tool.input_schema["properties"]["items"]["items"]["required"] == ["sku", "qty"]
    assert tool.output_schema["type"] == "object"
    assert tool.meta is None


class Tree(BaseModel):
    """A recursive type."""

    label: str
    children: list[Tree] = []


def test_recursive_types_stay_references_and_resolve() -> None:
    class Forest:
        @kernel_function
        def grow(self, tree: Tree, extra: Tree | None = None) -> Tree:
            """Add a child."""
            return Tree(label=tree.label, children=[*tree.children, Tree(label="new")])

    server = mcp.server(Forest())

    async def body(client: Any) -> Any:
        tool = (await client.list_tools()).tools[0]
        arg = {"label": "root", "children": [{"label": "a", "children": []}]}
        return tool, await client.call_tool(tool.name, {"tree": arg})

    for mode in ("legacy", "auto"):
        tool, result = _run(server, body, mode)
        check_structured(tool, result)
        assert set(tool.input_schema["$defs"]) == {"Tree"}
        assert [c["label"] for c in result.structured_content["children"]] == ["a", "new"]
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        # the result's root is the model itself (its properties where clients look for
        # them), not a bare reference; the definition stays for the recursion
        output = tool.output_schema
        assert output["type"] == "object" and "$ref" not in output, mode
        assert set(output["properties"]) == {"label", "children"}
        assert set(output["$defs"]) == {"Tree"}
        jsonschema.Draft202012Validator.check_schema(output)


def test_a_function_without_result_has_no_output_schema() -> None:
    server = mcp.server(Shop())

    async def body(client: Any) -> Any:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        return tools["nothing"], await client.call_tool("nothing", {})

    tool, result = _run(server, body)
    assert tool.output_schema is None
    assert not result.is_error and result.content == []


def test_a_result_that_breaks_its_schema_is_returned_with_a_drift_warning() -> None:
    server = mcp.server(Shop())

    async def body(client: Any) -> Any:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        return tools["lies"], await client.call_tool("lies", {})  # the SDK client accepts it

    tool, result = _run(server, body)
    # the declared shape alone is listed; the drifted value comes as an error result (the
    # protocol's channel for a value that is not a conforming structured result)
    assert tool.output_schema["type"] == "object" and "anyOf" not in tool.output_schema
    assert set(tool.output_schema["properties"]) == {"sku", "qty"}
    assert result.is_error and result.structured_content is None
    assert json.loads(result.content[0].text) == {"sku": 5}  # whole, as returned
    problems = result.meta[mcp.DRIFT_META]
    assert {p["path"] for p in problems} == {"$.qty", "$.sku"}
    assert text_of(result).splitlines()[1].startswith("warning: the result does not match")


def test_drift_error_mode_keeps_the_declared_schema_and_fails_the_call() -> None:
    server = mcp.server(Shop(), drift="error")

    async def body(client: Any) -> Any:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        return tools["lies"], await client.call_tool("lies", {})

    tool, result = _run(server, body)
    assert "anyOf" not in tool.output_schema and tool.output_schema["type"] == "object"
    assert result.is_error and (result.meta or {}).get(mcp.DRIFT_META) is None
    assert '{"sku":5}' in text_of(result) and "$.sku" in text_of(result)
    assert "error: the result does not match" in text_of(result)


def test_exceptions_become_error_results_naming_the_tool() -> None:
    server = mcp.server(Shop())

    async def body(client: Any) -> Any:
        return await client.call_tool("fails", {})

    result = _run(server, body)
    assert result.is_error
    assert text_of(result) == "fails failed: ValueError: no stock"


def test_every_bad_argument_is_named_by_its_path() -> None:
    def order(when: str, items: list[Item], rush: bool = False) -> int:
        """Place an order."""
        return len(items)

    kernel = Kernel()
    kernel.add_function(order, "Shop")
    server = mcp.server(kernel)

    async def body(client: Any) -> Any:
        args = {"items": [{"sku": "", "qty": 0}, {"qty": 1}], "rush": "maybe", "coupon": "X"}
        return await client.call_tool("order", args)

    result = _run(server, body)
    assert result.is_error
    text = text_of(result)
    for path in ("$.when", "$.coupon", "$.rush", "$.items[0].sku", "$.items[1].sku"):
        assert f"- at {path}:" in text, text


def test_unknown_tools_are_a_protocol_error_with_a_hint() -> None:
    server = mcp.server(Shop())

    async def body(client: Any) -> Any:
        return await client.call_tool("cont", {"n": 1})

    with pytest.raises(Exception) as info:  # the SDK raises it inside its task groups
        _run(server, body)
    found = [e for e in _leaves(info.value) if isinstance(e, MCPError)]
    assert found and "unknown tool 'cont'" in str(found[0]) and "count" in str(found[0])


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for sub in exc.exceptions for leaf in _leaves(sub)]
    return [exc]


def test_http_methods_become_annotations() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Verbs", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": {
            "/a": {
                m: {"operationId": f"{m}A", "responses": {"204": {"description": "ok"}}}
                for m in ("get", "put", "post", "delete", "patch")
            }
        },
    }
    from sktypes.openapi import load_openapi

    server = mcp.server(load_openapi(spec))

    async def body(client: Any) -> Any:
        return {t.name: t.annotations for t in (await client.list_tools()).tools}

    hints = _run(server, body)
    assert hints["getA"].read_only_hint is True
    assert hints["deleteA"].destructive_hint is True
    assert hints["deleteA"].idempotent_hint is True
    assert hints["putA"].idempotent_hint is True
    assert hints["putA"].read_only_hint is None
    assert hints["postA"] is None and hints["patchA"] is None


def test_include_and_exclude_pick_operations() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Zoo", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9"}],
        "paths": {
            "/animals": {
                "get": {
                    "operationId": "listAnimals",
                    "tags": ["animals"],
                    "responses": {"204": {"description": "ok"}},
                },
                "post": {
                    "operationId": "addAnimal",
                    "tags": ["animals"],
                    "responses": {"204": {"description": "ok"}},
                },
            },
            "/keepers/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": {}}],
                "get": {
                    "operationId": "getKeeper",
                    "tags": ["staff"],
                    "responses": {"204": {"description": "ok"}},
                },
            },
        },
    }
    from sktypes.openapi import load_openapi

    def names(**kw: Any) -> list[str]:
        return mcp.server(load_openapi(spec), **kw).toolset.names

    assert names(include=["animals"]) == ["listAnimals", "addAnimal"]
    assert names(include=["getKeeper"]) == ["getKeeper"]
    assert names(include=["/keepers/*"]) == ["getKeeper"]
    assert names(include=["GET /*"]) == ["listAnimals", "getKeeper"]
    assert names(exclude=["animals"]) == ["getKeeper"]
    assert names(include=["Zoo.*"], exclude=["*Animal"]) == ["listAnimals", "getKeeper"]
    assert names(include=["tag:staff"]) == ["getKeeper"]
    with pytest.raises(SktypesError, match="--include 'nope' matches no operation"):
        names(include=["nope"])


def test_a_tool_list_is_served_by_its_implementations(tmp_path: Path) -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "Calc-add",
                "description": "Add two numbers.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "a": {"type": "integer", "maximum": 10},
                        "b": {"type": "integer"},
                    },
                    "required": ["a", "b"],
                    "additionalProperties": False,
                },
            },
        }
    ]
    listed = tmp_path / "tools.json"
    listed.write_text(json.dumps(tools))
    impl = tmp_path / "calc_impl.py"
    impl.write_text(
        textwrap.dedent(
            """
            def add(a: int, b: int) -> int:
                return a + b
            """
        )
    )
    server = mcp.server(str(listed), implementations=[str(impl)])

    async def body(client: Any) -> Any:
        listed_tools = (await client.list_tools()).tools
        ok = await client.call_tool("add", {"a": 2, "b": 3})
        bad = await client.call_tool("add", {"a": 11, "b": 3})  # the list's own bound
        return listed_tools, ok, bad

    listed_tools, ok, bad = _run(server, body)
    assert [t.name for t in listed_tools] == ["add"]
    assert listed_tools[0].input_schema["properties"]["a"]["maximum"] == 10
    assert json.loads(text_of(ok)) == 5
    assert bad.is_error and "$.a" in text_of(bad)
    with pytest.raises(SktypesError, match="needs the module implementing it"):
        mcp.server(str(listed))
    other = tmp_path / "other_impl.py"
    other.write_text("def sub(a: int, b: int) -> int:\n    return a - b\n")
    with pytest.raises(SktypesError, match=r"no implementation of 'Calc\.add'"):
        mcp.server(str(listed), implementations=[str(other)])


def test_a_spec_without_an_absolute_server_needs_a_base_url() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Rel", "version": "1"},
        "servers": [{"url": "/v1"}],
        "paths": {"/a": {"get": {"operationId": "a", "responses": {"204": {"description": "ok"}}}}},
    }
    from sktypes.openapi import load_openapi

    with pytest.raises(SktypesError, match="pass --base-url"):
        mcp.server(load_openapi(spec))
    assert mcp.server(load_openapi(spec), base_url="http://127.0.0.1:9/v1").toolset.names


def test_server_is_the_sdk_low_level_server_and_names_itself() -> None:
    from mcp.server.lowlevel import Server

    weather = mcp.server(str(SPECS / "weather_plugin.openapi.yaml"))
    assert isinstance(weather, Server)
    assert weather.name == "WeatherPluginSimpleComplex"
    assert mcp.server(str(EXAMPLES / "date_weather.py")).name == "sktypes"
    assert mcp.server(str(EXAMPLES / "date_weather.py"), name="dates").name == "dates"


def test_remote_json_and_text_results() -> None:
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Mixed", "version": "1"},
        "paths": {
            "/text": {
                "get": {
                    "operationId": "text",
                    "responses": {
                        "200": {
                            "description": "t",
                            "content": {"text/plain": {"schema": {"type": "string"}}},
                        }
                    },
                }
            },
            "/list": {
                "get": {
                    "operationId": "list",
                    "responses": {
                        "200": {
                            "description": "l",
                            "content": {
                                "application/json": {
                                    "schema": {"type": "array", "items": {"type": "integer"}}
                                }
                            },
                        }
                    },
                }
            },
        },
    }
    from sktypes.openapi import load_openapi

    with upstream() as api:
        api.route("GET", "/text", (200, "plain words", "text/plain"))
        api.route("GET", "/list", (200, [1, 2, 3]))
        server = mcp.server(load_openapi(spec), base_url=api.url)

        async def body(client: Any) -> Any:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            text = await client.call_tool("text", {})
            listed = await client.call_tool("list", {})
            check_structured(tools["text"], text)
            check_structured(tools["list"], listed)
            return text, listed

        text, listed = _run(server, body)
    assert text.structured_content == {"result": "plain words"}
    assert text_of(text) == "plain words"
    assert listed.structured_content == {"result": [1, 2, 3]}


def test_a_kernels_invocation_filters_run_around_each_call() -> None:
    seen: list[str] = []
    kernel = Kernel()
    kernel.add_plugin(Shop())

    @kernel.add_filter
    async def record(context: Any, next: Any) -> None:
        seen.append(context.function.fully_qualified_name)
        await next(context)

    server = mcp.server(kernel)

    async def body(client: Any) -> Any:
        ok = await client.call_tool("count", {"n": 4})
        bad = await client.call_tool("count", {"n": "four"})
        return ok, bad

    ok, bad = _run(server, body)
    assert ok.structured_content == {"result": 4}
    assert bad.is_error and "- at $.n:" in text_of(bad)
    assert seen == ["Shop.count", "Shop.count"]


@pytest.mark.parametrize(
    ("schema", "objects_only", "nullable"),
    [
        ({"type": "object"}, True, False),
        ({"$ref": "#/$defs/P", "$defs": {"P": {"type": "object"}}}, True, False),
        ({"anyOf": [{"type": "object"}, {"type": "null"}]}, False, True),
        ({"type": ["object", "null"]}, False, True),
        ({"type": "array", "items": {"type": "object"}}, False, False),
        ({"type": "integer"}, False, False),
        ({"enum": ["a", None]}, False, True),
        ({"properties": {"a": {}}}, False, True),  # no type: other values pass too
        ({}, False, True),
        ({"allOf": [{"type": "object"}, {"required": ["a"]}]}, True, False),
        (
            {
                "$ref": "#/$defs/T",
                "$defs": {"T": {"anyOf": [{"$ref": "#/$defs/T"}, {"type": "object"}]}},
            },
            False,
            True,
        ),
    ],
)
def test_wrapping_decisions_read_the_schema_model(
    schema: dict[str, Any], objects_only: bool, nullable: bool
) -> None:
    from sktypes.integrations.mcp._schemas import may_be_null, only_objects
    from sktypes.jsondoc import JsonDocument

    doc = JsonDocument.from_value(schema)
    assert only_objects(doc) is objects_only
    assert may_be_null(doc) is nullable


_LISTED = {
    "type": "object",
    "properties": {
        "a": {"$ref": "#/$defs/Once"},
        "b": {"$ref": "#/$defs/Twice"},
        "c": {"$ref": "#/$defs/Twice"},
        "d": {"$ref": "#/$defs/Node"},
        "e": {"$ref": "#/$defs/Described", "description": "outer"},
    },
    "$defs": {
        "Once": {"type": "object", "properties": {"x": {"$ref": "#/$defs/Leaf"}}},
        "Leaf": {"type": "integer", "minimum": 0},
        "Twice": {"type": "string", "maxLength": 3},
        "Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}},
        "Described": {"type": "boolean", "description": "inner"},
    },
}


def test_listed_schemas_write_single_use_definitions_in_place() -> None:
    from sktypes.integrations.mcp._schemas import tool_schema

    out = tool_schema(_LISTED)
    assert _LISTED["$defs"]["Once"]["properties"]["x"] == {"$ref": "#/$defs/Leaf"}  # untouched
    assert set(out["$defs"]) == {"Twice", "Node", "Described"}
    assert out["properties"]["a"] == {
        "type": "object",
        "properties": {"x": {"type": "integer", "minimum": 0}},
    }
    assert out["properties"]["b"] == {"$ref": "#/$defs/Twice"}
    assert out["properties"]["e"] == {"$ref": "#/$defs/Described", "description": "outer"}
    assert tool_schema({"type": "object"}) == {"type": "object"}


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["a", "b", "c", "d", "e", "x", "next"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)


@settings(max_examples=80)
@given(value=_JSON)
def test_written_in_place_the_schemas_accept_exactly_what_they_did(value: Any) -> None:
    from sktypes.schema import inline_refs

    before = jsonschema.Draft202012Validator(_LISTED).is_valid(value)
    for single_use in (True, False):
        after = jsonschema.Draft202012Validator(inline_refs(_LISTED, single_use=single_use))
        assert after.is_valid(value) is before


def test_every_acyclic_definition_can_be_written_in_place() -> None:
    from sktypes.schema import inline_refs

    out = inline_refs(_LISTED)
    assert set(out["$defs"]) == {"Node", "Described"}  # recursive; a conflicting sibling
    assert out["properties"]["b"] == out["properties"]["c"] == {"type": "string", "maxLength": 3}


def _as_generated_before_records(package: Path) -> None:
    """``package`` as an earlier sktypes wrote it: ``views.json`` records no operations."""
    document = json.loads((package / "views.json").read_text())
    del document["spec"]
    for entry in document["functions"]:
        del entry["operation"]
    (package / "views.json").write_text(json.dumps(document))


def test_a_generated_package_is_served_from_its_views_file_without_its_spec(
    tmp_path: Path,
) -> None:
    from sktypes_codegen import generate_plugin

    source = tmp_path / "weather.yaml"
    source.write_bytes((SPECS / "weather_plugin.openapi.yaml").read_bytes())
    generate_plugin(source, tmp_path, name="carried_weather")
    source.write_text("not: [a spec")  # neither read nor validated
    server = mcp.server(str(tmp_path / "carried_weather"), base_url="http://127.0.0.1:9")

    async def body(client: Any) -> Any:
        return (await client.list_tools()).tools

    (tool,) = _run(server, body)
    assert tool.name == "GetWeatherForecast1"
    assert tool.annotations is not None and tool.annotations.read_only_hint is True  # GET
    assert tool.input_schema["required"] == ["date"]
    # --include matches the recorded method and path
    kept = mcp.server(str(tmp_path / "carried_weather"), base_url="http://x", include=["GET /*"])
    assert [t.name for t in _run(kept, body)] == ["GetWeatherForecast1"]
    with pytest.raises(SktypesError, match=r"--include 'POST /\*' matches no operation"):
        _run(mcp.server(str(tmp_path / "carried_weather"), include=["POST /*"]), body)


def test_a_malformed_operation_record_is_one_error_naming_the_file_and_function(
    tmp_path: Path,
) -> None:
    from sktypes_codegen import generate_plugin

    generate_plugin(SPECS / "weather_plugin.openapi.yaml", tmp_path, name="broken_weather")
    views = tmp_path / "broken_weather" / "views.json"
    document = json.loads(views.read_text())
    del document["functions"][0]["operation"]["method"]
    views.write_text(json.dumps(document))
    with pytest.raises(SktypesError, match=r"views\.json: GetWeatherForecast1: a malformed"):
        mcp.server(str(tmp_path / "broken_weather"))


def test_a_generated_package_without_its_recorded_spec_is_served_as_it_declares(
    tmp_path: Path,
) -> None:
    from sktypes_codegen import generate_plugin

    generate_plugin(SPECS / "weather_plugin.openapi.yaml", tmp_path, name="bare_weather")
    (tmp_path / "bare_weather" / "sktypes.json").unlink()
    _as_generated_before_records(tmp_path / "bare_weather")
    server = mcp.server(str(tmp_path / "bare_weather"), base_url="http://127.0.0.1:9")

    async def body(client: Any) -> Any:
        return (await client.list_tools()).tools

    (tool,) = _run(server, body)
    assert tool.name == "GetWeatherForecast1"
    assert tool.annotations is None  # the package alone does not say its HTTP method
    assert tool.input_schema["required"] == ["date"]


def test_a_streaming_function_returns_its_items_as_a_list() -> None:
    class Counter:
        @kernel_function
        async def count(self, n: int) -> AsyncIterator[int]:
            """Count up to n."""
            for i in range(n):
                yield i

    server = mcp.server(Counter())

    async def body(client: Any) -> Any:
        tool = (await client.list_tools()).tools[0]
        return tool, await client.call_tool("count", {"n": 3})

    tool, result = _run(server, body)
    check_structured(tool, result)
    assert result.structured_content == {"result": [0, 1, 2]}


def test_binary_responses_come_as_content_blocks_never_as_text() -> None:
    png = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0x00, 0xD8])
    binary = {"type": "string", "format": "binary"}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Files", "version": "1"},
        "paths": {
            "/logo": {
                "get": {
                    "operationId": "logo",
                    "responses": {
                        "200": {"description": "png", "content": {"image/png": {"schema": binary}}}
                    },
                }
            },
            "/report": {
                "get": {
                    "operationId": "report",
                    "responses": {
                        "200": {
                            "description": "pdf",
                            "content": {"application/pdf": {"schema": binary}},
                        }
                    },
                }
            },
        },
    }
    with upstream() as api:
        api.route("GET", "/logo", (200, png, "image/png"))
        api.route("GET", "/report", (200, b"%PDF-1.7\xff\xfe", "application/pdf"))
        server = mcp.server(load_openapi(spec), base_url=api.url)

        async def body(client: Any) -> Any:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            logo = await client.call_tool("logo", {})
            report = await client.call_tool("report", {})
            check_structured(tools["logo"], logo)
            check_structured(tools["report"], report)
            return logo, report

        logo, report = _run(server, body)
    assert logo.content[0].type == "image" and logo.content[0].mime_type == "image/png"
    assert base64.b64decode(logo.content[0].data) == png
    assert base64.b64decode(logo.structured_content["result"]) == png
    blob = report.content[0].resource
    assert blob.mime_type == "application/pdf"
    assert base64.b64decode(blob.blob) == b"%PDF-1.7\xff\xfe"
    assert len(logo.content) == 1  # the bytes once as a block, never as garbled text
    assert (logo.meta or {}).get(mcp.DRIFT_META) is None


def _binary_spec(version: str, media: str, schema: dict[str, Any]) -> dict[str, Any]:
    json_ok = {"application/json": {"schema": {"type": "object", "required": ["id"]}}}
    return {
        "openapi": version,
        "info": {"title": "Media", "version": "1"},
        "paths": {
            "/media": {
                "get": {
                    "operationId": "media",
                    "responses": {
                        "200": {"description": "bytes", "content": {media: {"schema": schema}}}
                    },
                }
            },
            "/record": {
                "get": {
                    "operationId": "record",
                    "responses": {"200": {"description": "json", "content": json_ok}},
                }
            },
        },
    }


@pytest.mark.parametrize(
    ("version", "media", "schema", "block"),
    [
        ("3.0.3", "image/png", {"type": "string", "format": "binary"}, "image"),
        ("3.1.0", "image/webp", {"type": "string", "contentMediaType": "image/webp"}, "image"),
        ("3.0.3", "audio/mpeg", {"type": "string", "format": "binary"}, "audio"),
        ("3.0.3", "application/zip", {"type": "string", "format": "binary"}, "resource"),
        ("3.0.3", "image/*", {"type": "string", "format": "binary"}, "image"),
    ],
)
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_result_declared_as_bytes_lists_its_base64_schema(
    version: str, media: str, schema: dict[str, Any], block: str, mode: str
) -> None:
    sent = "image/gif" if media == "image/*" else media  # what the API says it sends
    data = bytes(range(256)) * 3
    with upstream() as api:
        api.route("GET", "/media", (200, data, sent))
        server = mcp.server(load_openapi(_binary_spec(version, media, schema)), base_url=api.url)

        async def body(client: Any) -> Any:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            result = await client.call_tool("media", {})
            check_structured(tools["media"], result)
            return tools["media"], result

        tool, result = _run(server, body, mode)
    legacy = mode == "legacy"
    # wrapped for older clients, as it is for newer ones: the declared shape at the root
    listed = tool.output_schema
    if legacy:
        assert tool.output_schema["required"] == ["result"]
        listed = listed["properties"]["result"]
    declared = "application/octet-stream" if media == "image/*" else media
    assert listed == {"type": "string", "contentEncoding": "base64", "contentMediaType": declared}
    (shown,) = result.content
    assert shown.type == block
    encoded = shown.resource.blob if block == "resource" else shown.data
    mime = shown.resource.mime_type if block == "resource" else shown.mime_type
    assert mime == sent
    assert base64.b64decode(encoded) == data
    structured = result.structured_content["result"] if legacy else result.structured_content
    assert base64.b64decode(structured) == data


@pytest.mark.parametrize("drift", ["warn", "error"])
def test_bytes_where_json_is_declared_and_json_where_bytes_are_are_drift(drift: str) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\xff"
    spec = _binary_spec("3.0.3", "image/png", {"type": "string", "format": "binary"})
    with upstream() as api:
        api.route("GET", "/media", (200, {"error": "quota"}))  # JSON, not the image
        api.route("GET", "/record", (200, png, "image/png"))  # an image, not the JSON
        server = mcp.server(load_openapi(spec), base_url=api.url, drift=drift)  # type: ignore[arg-type]

        async def body(client: Any) -> Any:
            await client.list_tools()  # the client now knows the output schemas
            media = await client.call_tool("media", {})
            record = await client.call_tool("record", {})
            return media, record

        media, record = _run(server, body)
    assert media.is_error and record.is_error  # never a successful result that breaks the schema
    assert media.structured_content is None and record.structured_content is None
    if drift == "error":
        assert media.is_error and record.is_error
        assert '{"error":"quota"}' in text_of(media)
        assert "expected bytes (image/png), got JSON" in text_of(media)
        assert record.content[0].type == "image"
        assert base64.b64decode(record.content[0].data) == png
        assert "expected JSON, got bytes (image/png)" in text_of(record)
        return
    assert json.loads(media.content[0].text) == {"error": "quota"}
    assert media.meta[mcp.DRIFT_META][0]["message"] == "expected bytes (image/png), got JSON"
    assert "drift" in text_of(media)
    assert record.content[0].type == "image"
    assert base64.b64decode(record.content[0].data) == png
    messages = [p["message"] for p in record.meta[mcp.DRIFT_META]]
    assert messages[0] == "expected JSON, got bytes (image/png)"


def test_a_python_function_returning_bytes_gives_a_blob() -> None:
    class Files:
        @kernel_function
        def raw(self, size: int) -> bytes:
            """Some bytes."""
            return bytes(range(size))

        @kernel_function
        def loose(self) -> Any:
            """Bytes with no declared type."""
            return bytearray(b"\xff\xfe")

    server = mcp.server(Files())

    async def body(client: Any) -> Any:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        raw = await client.call_tool("raw", {"size": 200})
        loose = await client.call_tool("loose", {})
        check_structured(tools["raw"], raw)
        check_structured(tools["loose"], loose)
        return tools["raw"], raw, loose

    tool, raw, loose = _run(server, body)
    assert tool.output_schema["properties"]["result"] == {
        "type": "string",
        "contentEncoding": "base64",
        "contentMediaType": "application/octet-stream",
    }
    (block,) = raw.content
    assert block.resource.mime_type == "application/octet-stream"
    assert base64.b64decode(block.resource.blob) == bytes(range(200))
    assert base64.b64decode(loose.content[0].resource.blob) == b"\xff\xfe"


@pytest.mark.parametrize("recorded", [True, False])
def test_a_generated_package_returns_bytes_as_blocks(tmp_path: Path, recorded: bool) -> None:
    import yaml

    from sktypes_codegen import generate_plugin

    spec = _binary_spec("3.0.3", "application/pdf", {"type": "string", "format": "binary"})
    source = tmp_path / "media.yaml"
    source.write_text(yaml.safe_dump(spec))
    package = "media_recorded" if recorded else "media_bare"  # one import per name
    generate_plugin(source, tmp_path, name=package)
    if not recorded:  # served as the package declares it: a method returning bytes
        (tmp_path / package / "sktypes.json").unlink()
        _as_generated_before_records(tmp_path / package)
    pdf = b"%PDF-1.7\n\xe2\xe3\xcf\xd3\x00"
    with upstream() as api:
        api.route("GET", "/media", (200, pdf, "application/pdf"))
        server = mcp.server(str(tmp_path / package), base_url=api.url)

        async def body(client: Any) -> Any:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            result = await client.call_tool("media", {})
            check_structured(tools["media"], result)
            return tools["media"], result

        tool, result = _run(server, body)
    listed = tool.output_schema["properties"]["result"]
    assert listed["contentEncoding"] == "base64"
    # the spec says which media type; the package alone says only bytes
    declared = "application/pdf" if recorded else "application/octet-stream"
    assert listed["contentMediaType"] == declared
    (block,) = result.content
    assert block.resource.mime_type == "application/pdf"  # what the API sent
    assert base64.b64decode(block.resource.blob) == pdf
    assert (result.meta or {}).get(mcp.DRIFT_META) is None


def test_bytes_arguments_are_sent_as_text_and_reported_with_their_paths() -> None:
    binary = {"type": "string", "format": "binary"}
    done = {"204": {"description": "stored"}}
    spec = {
        "openapi": "3.0.3",
        "info": {"title": "Uploads", "version": "1"},
        "paths": {
            "/raw": {
                "post": {
                    "operationId": "raw",
                    "requestBody": {
                        "required": True,
                        "content": {"application/octet-stream": {"schema": binary}},
                    },
                    "responses": done,
                }
            },
            "/form": {
                "post": {
                    "operationId": "form",
                    "requestBody": {
                        "required": True,
                        "content": {
                            "multipart/form-data": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "note": {"type": "string"},
                                        "files": {"type": "array", "items": binary},
                                    },
                                }
                            }
                        },
                    },
                    "responses": done,
                }
            },
            "/plain": {"get": {"operationId": "plain", "responses": done}},
        },
    }
    with upstream() as api:
        api.route("POST", "/raw", (204, None))
        server = mcp.server(load_openapi(spec), base_url=api.url)
        assert [w.split(": bytes")[0] for w in server.warnings] == [
            "raw: $.body",
            "form: $.body.files[*]",
        ]

        async def body(client: Any) -> Any:
            return await client.call_tool("raw", {"body": "héllo"})

        result = _run(server, body)
    assert not result.is_error
    assert api.seen[-1].body == "héllo".encode()


def test_two_packages_of_one_name_in_one_process_are_refused(tmp_path: Path) -> None:
    from sktypes_codegen import generate_plugin

    for folder in ("a", "b"):
        generate_plugin(SPECS / "weather_plugin.openapi.yaml", tmp_path / folder, name="twin_pkg")
    mcp.server(str(tmp_path / "a" / "twin_pkg"), base_url="http://127.0.0.1:9")
    with pytest.raises(SktypesError, match="another module named 'twin_pkg' is already imported"):
        mcp.server(str(tmp_path / "b" / "twin_pkg"), base_url="http://127.0.0.1:9")


class Library:
    """A plugin whose tools say more than a compact listing needs."""

    @kernel_function
    def add(
        self,
        title: Annotated[str, Field(max_length=20, description="The title. As printed.")],
    ) -> Item:
        """Add a book. It is stored at once."""
        return Item(sku=title, qty=1)


@pytest.mark.parametrize("detail", ["full", "compact", "names"])
def test_listing_at_each_detail_level_still_checks_calls_in_full(detail: str) -> None:
    server = mcp.server(Library(), detail=detail)

    async def body(client: Any) -> Any:
        [tool] = (await client.list_tools()).tools
        bad = await client.call_tool(tool.name, {"title": "x" * 21})
        good = await client.call_tool(tool.name, {"title": "Dune"})
        return tool, bad, good

    tool, bad, good = _run(server, body)
    title: Any = tool.input_schema.get("properties", {}).get("title", {})
    if detail == "full":
        assert tool.description == "Add a book. It is stored at once."
        assert title["description"] == "The title. As printed."
    elif detail == "compact":
        assert tool.description == "Add a book."
        assert (title["maxLength"], title["description"]) == (20, "The title.")
    else:
        assert tool.description == "Add a book."
        assert tool.input_schema == {"type": "object"} and tool.output_schema is None
    assert bad.is_error and "maxLength: 20" in text_of(bad)
    assert not good.is_error


def test_an_unknown_detail_level_is_refused() -> None:
    with pytest.raises(SktypesError, match="unknown detail level"):
        mcp.server(Library(), detail="tiny")
