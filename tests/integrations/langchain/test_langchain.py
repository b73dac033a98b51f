"""sktypes inside LangChain, driven by LangChain's fake chat model through ``create_agent``.

``GenericFakeChatModel`` answers with scripted ``AIMessage``s; the only addition is
``bind_tools``, which records the tools as a provider integration formats them
(``convert_to_openai_tool``, what the OpenAI integration sends). LangChain's own agent
loop runs the tool calls, synchronously (``invoke``) or not (``ainvoke``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import StructuredTool, tool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

import sktypes as sk
from examples.date_weather import DateResponse
from sktypes.integrations import SchemaCutWarning
from sktypes.integrations import langchain as integration
from sktypes.kernel import Kernel
from tests import doors
from tests.integrations import support

pytestmark = pytest.mark.filterwarnings("ignore::sktypes.integrations.SchemaCutWarning")


class ToolCallingFake(GenericFakeChatModel):
    """LangChain's fake chat model, able to bind tools (it records what it would send)."""

    bound: list[dict[str, Any]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        self.bound[:] = [convert_to_openai_tool(t, strict=kwargs.get("strict")) for t in tools]
        return self


def calls(*items: tuple[str, dict[str, Any]]) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[
            {"name": name, "args": args, "id": f"call_{i}", "type": "tool_call"}
            for i, (name, args) in enumerate(items)
        ],
    )


def run(
    tools: list[StructuredTool], *replies: AIMessage, use_async: bool = False
) -> tuple[ToolCallingFake, list[ToolMessage]]:
    model = ToolCallingFake(messages=iter([*replies, AIMessage(content="done")]))
    agent = create_agent(model, tools)
    state = {"messages": [HumanMessage("go")]}
    out = asyncio.run(agent.ainvoke(state)) if use_async else agent.invoke(state)
    found = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    return model, sorted(found, key=lambda m: m.tool_call_id)


# --- calls through the agent loop ---------------------------------------------------


@pytest.mark.parametrize("use_async", [False, True])
def test_valid_call_gives_the_model_json_and_python_the_typed_value(use_async: bool) -> None:
    tools = integration.export(support.date_plugin())
    _, (message,) = run(
        tools, calls(("DatePluginSimpleComplex-GetDate1", {"numDays": 2})), use_async=use_async
    )
    assert json.loads(message.content) == {"date": "2026-01-03"}  # type: ignore[arg-type]
    assert message.artifact == DateResponse(date="2026-01-03")
    assert message.status == "success"


@pytest.mark.parametrize("use_async", [False, True])
def test_bad_arguments_reach_the_model_with_their_paths(use_async: bool) -> None:
    tools = integration.export(support.Families())
    bad = {"value": [{"sku": "", "qty": 5000}]}
    _, (message,) = run(tools, calls(("Families-echo_list_of_models", bad)), use_async=use_async)
    assert message.status == "error"
    assert "$.value[0].sku" in message.text and "$.value[0].qty" in message.text


@pytest.mark.parametrize("name", sorted(support.BAD_FAMILY_ARGUMENTS))
def test_each_bad_family_argument_names_its_path(name: str) -> None:
    value, path = support.BAD_FAMILY_ARGUMENTS[name]
    tools = integration.export(support.Families())
    _, (message,) = run(tools, calls((f"Families-{name}", {"value": value})))
    assert path in message.text


def test_unknown_and_missing_arguments_are_refused() -> None:
    tools = integration.export(support.date_plugin())
    _, (unknown, missing) = run(
        tools,
        calls(
            ("DatePluginSimpleComplex-GetDate1", {"numDays": 1, "node": 5}),
            ("DatePluginSimpleComplex-GetDate1", {}),
        ),
    )
    assert "- at $.node: unknown argument (known: numDays)" in unknown.text
    assert "- at $.numDays: required argument missing" in missing.text


@pytest.mark.parametrize("use_async", [False, True])
@pytest.mark.parametrize("case", sorted(doors.CASES))
def test_the_doors_cases_through_the_agent_loop(case: str, use_async: bool) -> None:
    """LangChain's own call path accepts and refuses as every door does, in the same words."""
    call = doors.CASES[case]
    _, (message,) = run(
        integration.export(doors.Travel()),
        calls(("Travel-book", call.arguments)),
        use_async=use_async,
    )
    if call.accepted:
        assert message.status == "success" and message.artifact == call.value
    else:
        assert message.status == "error"
        assert doors.problem_lines(message.text) == call.problems


def test_every_family_goes_through_and_comes_back_typed() -> None:
    tools = integration.export(support.Families())
    names = sorted(support.FAMILY_TYPES)
    reply = calls(*[(f"Families-{n}", {"value": support.family_argument(n)[0]}) for n in names])
    _, messages = run(tools, reply)
    by_id = {m.tool_call_id: m for m in messages}
    for i, name in enumerate(names):
        message = by_id[f"call_{i}"]
        assert message.status == "success", (name, message.text)
        assert message.artifact == support.family_argument(name)[1], name


def test_direct_calls() -> None:
    (date,) = integration.export(support.date_plugin())
    assert json.loads(date.invoke({"numDays": 1})) == {"date": "2026-01-02"}
    assert "$.numDays" in date.invoke({"numDays": "x"})
    assert json.loads(asyncio.run(date.ainvoke({"numDays": 0}))) == {"date": "2026-01-01"}


def test_generated_openapi_plugin_calls_the_server(generated_pets: Any) -> None:
    tools = integration.export(generated_pets)
    _, (listed, added, refused) = run(
        tools,
        calls(
            ("Pets-listPets", {"kind": "dog", "limit": 2}),
            ("Pets-addPet", {"body": {"name": "Rex", "kind": "dog"}}),
            ("Pets-listPets", {"kind": "cow"}),
        ),
        use_async=True,
    )
    assert [p.name for p in listed.artifact] == ["dog0", "dog1"]
    assert json.loads(added.text)["name"] == "Rex"
    assert "$.kind" in refused.text


def test_openapi_plugin_checks_the_spec(openapi_pets: Any) -> None:
    tools = integration.export(openapi_pets)
    bad = {"body": {"name": "", "kind": "dog", "owner": {"email": "x", "phone": "no"}}}
    _, (added, refused) = run(
        tools,
        calls(
            ("Pets-addPet", {"body": {"name": "Rex", "kind": "dog", "age": 3}}),
            ("Pets-addPet", bad),
        ),
    )
    assert added.artifact == {"name": "Rex", "kind": "dog", "age": 3}
    assert "$.body.name" in refused.text and "$.body.owner.phone" in refused.text


# --- what the model is sent ---------------------------------------------------------


def sent(tools: list[StructuredTool], strict: bool | None = None) -> dict[str, dict[str, Any]]:
    model = ToolCallingFake(messages=iter([]))
    model.bind_tools(tools, strict=strict)
    return {t["function"]["name"]: t["function"]["parameters"] for t in model.bound}


def test_sent_schemas_have_no_refs_and_keep_descriptions() -> None:
    shown = sent(integration.export(support.Families()))
    assert len(shown) == len(support.FAMILY_TYPES)
    for parameters in shown.values():
        assert support.dangling_refs(parameters) == []
        assert "$ref" not in json.dumps(parameters)
    date = sent(integration.export(support.date_plugin()))["DatePluginSimpleComplex-GetDate1"]
    assert date["properties"]["numDays"]["description"].startswith("The number of days")


def test_recursion_is_cut_where_langchain_would_leave_it_open() -> None:
    with pytest.warns(SchemaCutWarning, match="echo_recursive_model"):
        tools = integration.export(support.Families())
    text = json.dumps(sent(tools)["Families-echo_recursive_model"])
    assert "nested deeper than 3 levels" in text
    assert '"items": {}' not in text


def test_strict_export_makes_optional_arguments_nullable_and_reads_null_as_absent() -> None:
    shop = integration.export(Shop(), strict=True)
    parameters = sent(shop, strict=True)["Shop-search"]
    assert parameters["required"] == ["text", "limit"]
    assert parameters["properties"]["limit"]["type"] == ["integer", "null"]
    _, (message,) = run(shop, calls(("Shop-search", {"text": "a", "limit": None})))
    assert message.artifact == ["a"] * 3


def test_strict_export_refuses_what_cannot_be_strict() -> None:
    with pytest.raises(sk.SchemaError, match=r"echo_dict: .*cannot be made strict"):
        integration.export(support.Families(), strict=True)


class Shop:
    """A shop."""

    @sk.kernel_function
    def search(self, text: str, limit: int = 3) -> list[str]:
        """Search."""
        return [text] * limit


SENT = [
    (view, sent(integration.export(support.Families()))[f"Families-{view.name}"])
    for view in sk.plugin_views(support.Families())
]


@pytest.mark.parametrize(("view", "schema"), SENT, ids=[v.name for v, _ in SENT])
@settings(max_examples=15)
@given(data=st.data())
def test_sent_schema_accepts_and_rejects_like_the_view(
    view: sk.FunctionView, schema: dict[str, Any], data: st.DataObject
) -> None:
    recursive = view.name in support.RECURSIVE
    instance = data.draw(support.candidates(view, recursive))
    theirs, mine = support.agree(schema, view, instance)
    if recursive:
        assert theirs or not mine  # cut: the sent schema may only be looser, past the cut
    else:
        assert theirs == mine


# --- round trips and foreign tools --------------------------------------------------


@pytest.mark.parametrize(
    "make", [support.date_plugin, support.weather_plugin, support.Families, support.example_kernel]
)
def test_export_views_export_is_identity_on_schemas(make: Any) -> None:
    first = integration.export(make())
    again = integration.export(integration.views(first))
    assert [t.args_schema for t in again] == [t.args_schema for t in first]


def test_a_native_langchain_tool_becomes_a_callable_view() -> None:
    @tool
    def add(a: int, b: int = 1) -> int:
        """Add two numbers."""
        return a + b

    (view,) = integration.views(add)
    assert view.name == "add" and view.description == "Add two numbers."
    assert [(p.name, p.is_required) for p in view.parameters] == [("a", True), ("b", False)]
    kernel = Kernel()
    kernel.add_function(view, "Math")
    assert asyncio.run(kernel.invoke("Math.add", {"a": 2})).value == 3
    with pytest.raises(sk.ArgumentsError, match=r"\$\.a"):
        asyncio.run(kernel.invoke("Math.add", {"a": "x"}))
