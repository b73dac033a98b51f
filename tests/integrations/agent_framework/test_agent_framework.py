"""sktypes inside Microsoft Agent Framework, driven by a scripted chat client.

The client is a real Agent Framework chat client (``FunctionInvocationLayer`` over
``BaseChatClient``, the composition its own OpenAI clients use) whose replies are
scripted: an ``Agent`` sends it the tools, its function invocation loop runs the calls the
client answers with, and the results go into the messages the client gets next.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest
from agent_framework import (
    Agent,
    BaseChatClient,
    ChatResponse,
    Content,
    FunctionInvocationLayer,
    FunctionTool,
    Message,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import sktypes as sk
from examples.date_weather import DateResponse
from sktypes.integrations import agent_framework as integration
from sktypes.integrations._core import Source
from sktypes.kernel import Kernel
from tests import doors
from tests.integrations import support


class ScriptedClient(FunctionInvocationLayer[Any], BaseChatClient[Any]):
    """Answers with the scripted messages, one per request; records what it was sent."""

    def __init__(self, replies: Sequence[Message]) -> None:
        super().__init__()
        self.replies = list(replies)
        self.requests: list[tuple[list[Any], list[Message]]] = []

    def _inner_get_response(
        self, *, messages: Sequence[Message], stream: bool, options: Any, **kwargs: Any
    ) -> Any:
        async def reply() -> ChatResponse:
            self.requests.append((list(options.get("tools") or []), list(messages)))
            return ChatResponse(messages=[self.replies.pop(0)])

        return reply()


def calls(*items: tuple[str, dict[str, Any] | str]) -> Message:
    contents = [
        Content.from_function_call(
            f"call_{i}", name, arguments=args if isinstance(args, str) else json.dumps(args)
        )
        for i, (name, args) in enumerate(items)
    ]
    return Message(role="assistant", contents=contents)


def answer(text: str = "done") -> Message:
    return Message(role="assistant", contents=[Content.from_text(text)])


def run(tools: list[FunctionTool], *replies: Message) -> tuple[ScriptedClient, list[Any]]:
    """One agent run; return the client and the function results, in call order."""
    client = ScriptedClient(replies)
    agent = Agent(client=client, tools=tools)
    asyncio.run(agent.run("go"))
    found = {
        c.call_id: c
        for _, messages in client.requests
        for m in messages
        for c in m.contents
        if c.type == "function_result"
    }
    return client, [found[k] for k in sorted(found, key=lambda k: int(k.split("_")[1]))]


def text(result: Any) -> str:
    value = result.result
    if isinstance(value, list):
        return "".join(c.text or "" for c in value)
    return str(value)


# --- calls through the agent loop ---------------------------------------------------


def test_valid_call_returns_the_typed_result_as_json_to_the_model() -> None:
    tools = integration.export(support.date_plugin())
    _, (result,) = run(tools, calls(("DatePluginSimpleComplex-GetDate1", {"numDays": 2})), answer())
    assert json.loads(text(result)) == {"date": "2026-01-03"}
    value = asyncio.run(tools[0].invoke(arguments={"numDays": 2}, skip_parsing=True))
    assert value == DateResponse(date="2026-01-03")


def test_bad_arguments_reach_the_model_unredacted_with_their_paths() -> None:
    tools = integration.export(support.Families())
    bad = {"value": [{"sku": "", "qty": 5000}]}
    _, (result,) = run(tools, calls(("Families-echo_list_of_models", bad)), answer())
    got = text(result)
    assert "$.value[0].sku" in got and "$.value[0].qty" in got
    assert "Argument parsing failed" not in got


@pytest.mark.parametrize("name", sorted(support.BAD_FAMILY_ARGUMENTS))
def test_each_bad_family_argument_names_its_path(name: str) -> None:
    value, path = support.BAD_FAMILY_ARGUMENTS[name]
    tools = integration.export(support.Families())
    _, (result,) = run(tools, calls((f"Families-{name}", {"value": value})), answer())
    assert path in text(result)


def test_unknown_and_missing_arguments_are_refused_with_their_paths() -> None:
    tools = integration.export(support.date_plugin())
    _, (unknown, missing) = run(
        tools,
        calls(
            ("DatePluginSimpleComplex-GetDate1", {"numDays": 1, "node": 5}),
            ("DatePluginSimpleComplex-GetDate1", {}),
        ),
        answer(),
    )
    assert "- at $.node: unknown argument (known: numDays)" in text(unknown)
    assert "- at $.numDays: required argument missing" in text(missing)


@pytest.mark.parametrize("case", sorted(doors.CASES))
def test_the_doors_cases_through_the_agent_loop(case: str) -> None:
    """Agent Framework's own call path accepts and refuses as every door does, in the same words."""
    call = doors.CASES[case]
    tools = integration.export(doors.Travel())
    _, (result,) = run(tools, calls(("Travel-book", call.arguments)), answer())
    if call.accepted:
        assert text(result) == call.value
    else:
        assert doors.problem_lines(text(result)) == call.problems


def test_every_family_goes_through_and_comes_back_typed() -> None:
    tools = {t.name: t for t in integration.export(support.Families())}

    async def check() -> None:
        for name in sorted(support.FAMILY_TYPES):
            value, typed = support.family_argument(name)
            tool = tools[f"Families-{name}"]
            got = await tool.invoke(arguments={"value": value}, skip_parsing=True)
            assert got == typed, name
            (shown,) = await tool.invoke(arguments={"value": value})
            source = Source.of(tool.additional_properties)  # the model reads the typed value's JSON
            assert source is not None and shown.text == source.tool.text_result(typed)

    asyncio.run(check())
    _, results = run(
        list(tools.values()),
        calls(
            *[
                (f"Families-{n}", {"value": support.family_argument(n)[0]})
                for n in ["echo_set", "echo_model"]
            ]
        ),
        answer(),
    )
    assert sorted(json.loads(text(results[0]))) == [1, 2]
    assert json.loads(text(results[1])) == {"sku": "A1", "qty": 2}


def test_a_kernel_with_two_plugins() -> None:
    tools = integration.export(support.example_kernel())
    assert [t.name for t in tools] == [
        "DatePluginSimpleComplex-GetDate1",
        "WeatherPluginSimpleComplex-GetWeatherForecast1",
    ]


def test_generated_openapi_plugin_calls_the_server(generated_pets: Any) -> None:
    tools = integration.export(generated_pets)
    _, (listed, added, refused) = run(
        tools,
        calls(
            ("Pets-listPets", {"kind": "dog", "limit": 2}),
            ("Pets-addPet", {"body": {"name": "Rex", "kind": "dog"}}),
            ("Pets-listPets", {"kind": "cow"}),
        ),
        answer(),
    )
    assert [p["name"] for p in json.loads(text(listed))] == ["dog0", "dog1"]
    assert json.loads(text(added))["name"] == "Rex"
    assert "$.kind" in text(refused)


def test_openapi_plugin_checks_the_spec(openapi_pets: Any) -> None:
    tools = integration.export(openapi_pets)
    bad = {"body": {"name": "", "kind": "dog", "owner": {"email": "x", "phone": "no"}}}
    _, (added, refused) = run(
        tools,
        calls(
            ("Pets-addPet", {"body": {"name": "Rex", "kind": "dog", "age": 3}}),
            ("Pets-addPet", bad),
        ),
        answer(),
    )
    assert json.loads(text(added)) == {"name": "Rex", "kind": "dog", "age": 3}
    assert "$.body.name" in text(refused) and "$.body.owner.phone" in text(refused)


# --- what the model is sent ---------------------------------------------------------


def sent(tools: list[FunctionTool]) -> dict[str, dict[str, Any]]:
    client, _ = run(tools, answer())
    return {
        t.name: t.to_json_schema_spec()["function"]["parameters"] for t in client.requests[0][0]
    }


def test_sent_schemas_are_the_views_own_with_no_dangling_refs() -> None:
    shown = sent(integration.export(support.Families()))
    for view in sk.plugin_views(support.Families()):
        parameters = shown[f"Families-{view.name}"]
        assert parameters == view.parameters_schema
        assert support.dangling_refs(parameters) == []


SENT = [
    (view, sent_schema, view.name in support.RECURSIVE)
    for view in sk.plugin_views(support.Families())
    for name, sent_schema in [
        (
            f"Families-{view.name}",
            {t.name: t.parameters() for t in integration.export(support.Families())}[
                f"Families-{view.name}"
            ],
        )
    ]
]


@pytest.mark.parametrize(("view", "schema", "recursive"), SENT, ids=[v.name for v, _, _ in SENT])
@settings(max_examples=15)
@given(data=st.data())
def test_sent_schema_accepts_and_rejects_like_the_view(
    view: sk.FunctionView, schema: dict[str, Any], recursive: bool, data: st.DataObject
) -> None:
    instance = data.draw(support.candidates(view, recursive))
    theirs, mine = support.agree(schema, view, instance)
    assert theirs == mine


# --- round trips and foreign tools --------------------------------------------------


def _schemas(tools: list[FunctionTool]) -> dict[str, Any]:
    return {t.name: t.parameters() for t in tools}


@pytest.mark.parametrize(
    "make", [support.date_plugin, support.weather_plugin, support.Families, support.example_kernel]
)
def test_export_views_export_is_identity_on_schemas(make: Any) -> None:
    first = integration.export(make())
    again = integration.export(integration.views(first))
    assert _schemas(again) == _schemas(first)


def test_a_native_agent_framework_tool_becomes_a_callable_view() -> None:
    def add(a: int, b: int = 1) -> int:
        """Add two numbers."""
        return a + b

    native = FunctionTool(name="add", description="Add two numbers.", func=add)
    (view,) = integration.views(native)
    assert view.name == "add" and view.description == "Add two numbers."
    assert [(p.name, p.is_required) for p in view.parameters] == [("a", True), ("b", False)]
    kernel = Kernel()
    kernel.add_function(view, "Math")
    assert asyncio.run(kernel.invoke("Math.add", {"a": 2})).value == 3
    with pytest.raises(sk.ArgumentsError, match=r"\$\.a"):
        asyncio.run(kernel.invoke("Math.add", {"a": "x"}))


def test_strict_is_refused() -> None:
    with pytest.raises(sk.SchemaError, match="strict"):
        integration.export(support.date_plugin(), strict=True)
