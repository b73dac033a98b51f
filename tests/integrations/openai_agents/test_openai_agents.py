"""sktypes inside the OpenAI Agents SDK, driven by a scripted ``Model``.

The model implements the SDK's own ``Model`` interface and answers with scripted Responses
output items; ``Runner`` sends it the tools, runs the function calls it answers with, and
sends back their outputs.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from agents import (
    Agent,
    FunctionTool,
    Model,
    ModelResponse,
    Runner,
    Usage,
    function_tool,
    set_tracing_disabled,
)
from agents.items import ToolCallOutputItem
from agents.tool_context import ToolContext
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

import sktypes as sk
from examples.date_weather import DateResponse
from sktypes.integrations import openai_agents as integration
from sktypes.integrations._schema import restore_absent
from sktypes.kernel import Kernel
from tests import doors
from tests.integrations import support

set_tracing_disabled(True)


class ScriptedModel(Model):
    """Answers with the scripted outputs, one response per request; records the tools."""

    def __init__(self, *responses: list[Any]) -> None:
        self.responses = [*responses, [message("done")]]
        self.tools: list[list[Any]] = []
        self.inputs: list[Any] = []

    async def get_response(
        self,
        system_instructions: Any,
        input: Any,
        model_settings: Any,
        tools: Any,
        *args: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        self.tools.append(list(tools))
        self.inputs.append(input)
        return ModelResponse(output=self.responses.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def message(text: str) -> ResponseOutputMessage:
    return ResponseOutputMessage(
        id="msg",
        content=[ResponseOutputText(text=text, type="output_text", annotations=[])],
        role="assistant",
        status="completed",
        type="message",
    )


def calls(*items: tuple[str, dict[str, Any] | str]) -> list[Any]:
    return [
        ResponseFunctionToolCall(
            arguments=args if isinstance(args, str) else json.dumps(args),
            call_id=f"call_{i}",
            name=name,
            type="function_call",
            id=f"fc_{i}",
            status="completed",
        )
        for i, (name, args) in enumerate(items)
    ]


def run(
    tools: list[FunctionTool], *responses: list[Any]
) -> tuple[ScriptedModel, list[ToolCallOutputItem]]:
    model = ScriptedModel(*responses)
    result = Runner.run_sync(Agent(name="agent", model=model, tools=tools), "go")
    outputs = [i for i in result.new_items if isinstance(i, ToolCallOutputItem)]
    return model, outputs


# --- calls through the runner -------------------------------------------------------


def test_valid_call_returns_json_to_the_model_and_the_typed_value_to_python() -> None:
    tools = integration.export(support.date_plugin())
    _, (item,) = run(tools, calls(("DatePluginSimpleComplex-GetDate1", {"numDays": 2})))
    assert json.loads(item.raw_item["output"]) == {"date": "2026-01-03"}
    assert isinstance(item.output, integration.ToolResult)
    assert item.output.value == DateResponse(date="2026-01-03")


def test_bad_arguments_are_returned_to_the_model_with_their_paths() -> None:
    tools = integration.export(support.Families())
    bad = {"value": [{"sku": "", "qty": 5000}]}
    model, (item,) = run(tools, calls(("Families-echo_list_of_models", bad)))
    assert "$.value[0].sku" in item.output and "$.value[0].qty" in item.output
    assert any(
        isinstance(entry, dict) and "$.value[0].qty" in str(entry.get("output", ""))
        for entry in model.inputs[1]
    )


@pytest.mark.parametrize("name", sorted(support.BAD_FAMILY_ARGUMENTS))
def test_each_bad_family_argument_names_its_path(name: str) -> None:
    value, path = support.BAD_FAMILY_ARGUMENTS[name]
    tools = integration.export(support.Families())
    _, (item,) = run(tools, calls((f"Families-{name}", {"value": value})))
    assert path in item.output


def test_unknown_and_malformed_arguments_are_refused() -> None:
    tools = integration.export(support.date_plugin(), strict=False)
    _, (unknown, garbage) = run(
        tools,
        calls(
            ("DatePluginSimpleComplex-GetDate1", {"numDays": 1, "node": 5}),
            ("DatePluginSimpleComplex-GetDate1", "[1, 2"),
        ),
    )
    assert "- at $.node: unknown argument (known: numDays)" in unknown.output
    assert garbage.output.startswith("The arguments for") and "JSON" in garbage.output


@pytest.mark.parametrize("case", sorted(doors.CASES))
def test_the_doors_cases_through_the_runner(case: str) -> None:
    """The Agents SDK's own call path accepts and refuses as every door does, in the same words."""
    call = doors.CASES[case]
    _, (item,) = run(integration.export(doors.Travel()), calls(("Travel-book", call.arguments)))
    if call.accepted:
        assert isinstance(item.output, integration.ToolResult)
        assert item.output.value == call.value
    else:
        assert doors.problem_lines(item.output) == call.problems


def test_strict_nulls_stand_for_absent_arguments() -> None:
    tools = integration.export(Shop())
    (search,) = tools
    assert search.strict_json_schema
    assert search.params_json_schema["required"] == ["text", "limit"]
    _, (item,) = run(tools, calls(("Shop-search", {"text": "a", "limit": None})))
    assert item.output.value == ["a", "a", "a"]


class Shop:
    """A shop."""

    @sk.kernel_function
    def search(self, text: str, limit: int = 3) -> list[str]:
        """Search."""
        return [text] * limit


def test_every_family_goes_through_and_comes_back_typed() -> None:
    tools = integration.export(support.Families())
    names = sorted(support.FAMILY_TYPES)
    strict_args = {}
    for name in names:
        value, _ = support.family_argument(name)
        strict_args[name] = {"value": value}
    _, items = run(tools, calls(*[(f"Families-{n}", strict_args[n]) for n in names]))
    by_call = {i.raw_item["call_id"]: i for i in items}
    for i, name in enumerate(names):
        output = by_call[f"call_{i}"].output
        assert isinstance(output, integration.ToolResult), (name, output)
        assert output.value == support.family_argument(name)[1], name


def test_generated_openapi_plugin_calls_the_server(generated_pets: Any) -> None:
    _, (listed, added, refused) = run(
        integration.export(generated_pets),
        calls(
            ("Pets-listPets", {"kind": "dog", "limit": 2}),
            (
                "Pets-addPet",
                {"body": {"name": "Rex", "kind": "dog", "age": None, "owner": None}},
            ),
            ("Pets-listPets", {"kind": "cow", "limit": None}),
        ),
    )
    assert [p.name for p in listed.output.value] == ["dog0", "dog1"]
    assert added.output.value.name == "Rex"
    assert "$.kind" in refused.output


def test_openapi_plugin_checks_the_spec(openapi_pets: Any) -> None:
    bad = {"body": {"name": "", "kind": "dog", "owner": {"email": "x", "phone": "no"}}}
    _, (added, refused) = run(
        integration.export(openapi_pets, strict=False),
        calls(
            ("Pets-addPet", {"body": {"name": "Rex", "kind": "dog", "age": 3}}),
            ("Pets-addPet", bad),
        ),
    )
    assert added.output.value == {"name": "Rex", "kind": "dog", "age": 3}
    assert "$.body.name" in refused.output and "$.body.owner.phone" in refused.output


# --- what the model is sent ---------------------------------------------------------


def test_sent_schemas_have_no_dangling_refs_and_are_strict_where_they_can_be() -> None:
    tools = integration.export(support.Families())
    model, _ = run(tools)
    sent = {t.name: t for t in model.tools[0]}
    assert len(sent) == len(support.FAMILY_TYPES)
    loose = sorted(n for n, t in sent.items() if not t.strict_json_schema)
    assert loose == ["Families-echo_dict", "Families-echo_mapping"]  # arbitrary keys
    for t in sent.values():
        assert support.dangling_refs(t.params_json_schema) == []
    with pytest.raises(sk.SchemaError, match="cannot be made strict"):
        integration.export(support.Families(), strict=True)


NONSTRICT = [
    (
        view,
        {t.name: t for t in integration.export(support.Families(), strict=False)}[
            f"Families-{view.name}"
        ].params_json_schema,
    )
    for view in sk.plugin_views(support.Families())
]


@pytest.mark.parametrize(("view", "schema"), NONSTRICT, ids=[v.name for v, _ in NONSTRICT])
@settings(max_examples=15)
@given(data=st.data())
def test_non_strict_schema_accepts_and_rejects_like_the_view(
    view: sk.FunctionView, schema: dict[str, Any], data: st.DataObject
) -> None:
    instance = data.draw(support.candidates(view, view.name in support.RECURSIVE))
    theirs, mine = support.agree(schema, view, instance)
    assert theirs == mine


TUPLES = frozenset({"echo_fixed_tuple", "echo_namedtuple"})
"""Strict mode has no ``prefixItems``: a tuple's items become one union (positions lost)."""

STRICT = [
    (view, tool)
    for view in sk.plugin_views(support.Families())
    for tool in [
        {t.name: t for t in integration.export(support.Families())}[f"Families-{view.name}"]
    ]
    if tool.strict_json_schema and view.name not in support.RECURSIVE | TUPLES
]


@pytest.mark.parametrize(("view", "tool"), STRICT, ids=[v.name for v, _ in STRICT])
@settings(max_examples=15)
@given(data=st.data())
def test_what_strict_mode_lets_the_model_send_reads_back_into_the_view(
    view: sk.FunctionView, tool: FunctionTool, data: st.DataObject
) -> None:
    # the strict schema's instances, with the nulls that stand for absent arguments removed,
    # are the view's — but for constraints strict mode cannot carry (the dialect writes them
    # into the description; the call refuses them, naming their paths)
    sent = data.draw(
        from_schema(support.draft7(tool.params_json_schema), custom_formats=support.CUSTOM_FORMATS)
    )
    restored = restore_absent(view, sent)
    errors = list(support._validator(view.parameters_schema).iter_errors(restored))
    assert {e.validator for e in errors} <= NOT_STRICT, [e.message for e in errors]


NOT_STRICT = {"minLength", "maxLength", "uniqueItems", "minProperties", "maxProperties", "format"}
"""Keywords the openai-strict dialect moves into descriptions."""


# --- round trips and foreign tools --------------------------------------------------


@pytest.mark.parametrize(
    "make", [support.date_plugin, support.weather_plugin, support.Families, support.example_kernel]
)
def test_export_views_export_is_identity_on_schemas(make: Any) -> None:
    first = integration.export(make())
    again = integration.export(integration.views(first))
    assert [t.params_json_schema for t in again] == [t.params_json_schema for t in first]
    assert [t.strict_json_schema for t in again] == [t.strict_json_schema for t in first]


def test_a_native_agents_sdk_tool_becomes_a_callable_view() -> None:
    @function_tool
    def add(a: int, b: int = 1) -> int:
        """Add two numbers."""
        return a + b

    (view,) = integration.views(add)
    assert view.name == "add" and view.description == "Add two numbers."
    assert {p.name for p in view.parameters} == {"a", "b"}
    kernel = Kernel()
    kernel.add_function(view, "Math")
    assert asyncio.run(kernel.invoke("Math.add", {"a": 2, "b": 1})).value == 3
    with pytest.raises(sk.ArgumentsError, match=r"\$\.a"):
        asyncio.run(kernel.invoke("Math.add", {"a": "x", "b": 1}))


def test_results_are_plain_strings_for_the_sdk() -> None:
    (tool,) = integration.export(support.date_plugin())
    context = ToolContext(context=None, tool_name=tool.name, tool_call_id="c", tool_arguments="{}")
    out = asyncio.run(tool.on_invoke_tool(context, '{"numDays": 0}'))
    assert out == '{"date":"2026-01-01"}' and isinstance(out, str)
