"""sktypes inside pydantic-ai, driven by pydantic-ai's own ``FunctionModel`` and ``TestModel``.

The ``FunctionModel`` answers with scripted tool calls; pydantic-ai's agent loop sends it
the tool definitions, runs the calls, and sends back tool returns or retry prompts.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai import Agent, FunctionToolset, Tool
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.tools import ToolDefinition

import sktypes as sk
from examples.date_weather import DateResponse
from sktypes.integrations import pydantic_ai as integration
from sktypes.kernel import Kernel
from tests import doors
from tests.integrations import support


class Script:
    """A ``FunctionModel`` function answering with scripted responses; records its inputs."""

    def __init__(self, *responses: ModelResponse) -> None:
        self.responses = [*responses, ModelResponse(parts=[TextPart("done")])]
        self.tools: list[list[ToolDefinition]] = []
        self.messages: list[list[ModelMessage]] = []

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.tools.append(list(info.function_tools))
        self.messages.append(list(messages))
        return self.responses.pop(0)


def calls(*items: tuple[str, dict[str, Any] | str]) -> ModelResponse:
    return ModelResponse(
        parts=[
            ToolCallPart(name, args if isinstance(args, str) else json.dumps(args), f"call_{i}")
            for i, (name, args) in enumerate(items)
        ]
    )


def run(toolset: FunctionToolset[Any], *responses: ModelResponse, retries: int = 1) -> Script:
    script = Script(*responses)
    agent = Agent(FunctionModel(script), toolsets=[toolset], retries=retries)
    agent.run_sync("go")
    return script


def parts(script: Script) -> list[ToolReturnPart | RetryPromptPart]:
    """The tool returns and retries of the run, in order (from the last request's history)."""
    return [
        p
        for m in script.messages[-1]
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, (ToolReturnPart, RetryPromptPart))
    ]


def retried(part: ToolReturnPart | RetryPromptPart) -> str | None:
    """The text the model got back for a ``ModelRetry``, or ``None`` for a real return."""
    if isinstance(part, RetryPromptPart):
        return part.model_response()
    return part.model_response_str() if part.outcome == "retried" else None


# --- calls through the agent loop ---------------------------------------------------


def test_valid_call_returns_the_typed_result() -> None:
    toolset = integration.export(support.date_plugin())
    (part,) = parts(run(toolset, calls(("DatePluginSimpleComplex-GetDate1", {"numDays": 2}))))
    assert isinstance(part, ToolReturnPart)
    assert part.content == DateResponse(date="2026-01-03")
    assert json.loads(part.model_response_str()) == {"date": "2026-01-03"}


def test_bad_arguments_become_a_retry_naming_their_paths() -> None:
    toolset = integration.export(support.Families())
    bad = {"value": [{"sku": "", "qty": 5000}]}
    good = {"value": [{"sku": "x", "qty": 5}]}
    script = run(
        toolset,
        calls(("Families-echo_list_of_models", bad)),
        calls(("Families-echo_list_of_models", good)),
    )
    retry, done = parts(script)
    text = retried(retry)
    assert text is not None and "$.value[0].sku" in text and "$.value[0].qty" in text
    assert retried(done) is None and done.content == [
        support.FAMILY_TYPES["echo_model"](sku="x", qty=5)
    ]


@pytest.mark.parametrize("name", sorted(support.BAD_FAMILY_ARGUMENTS))
def test_each_bad_family_argument_names_its_path(name: str) -> None:
    value, path = support.BAD_FAMILY_ARGUMENTS[name]
    toolset = integration.export(support.Families())
    good, _ = support.family_argument(name)
    script = run(
        toolset,
        calls((f"Families-{name}", {"value": value})),
        ModelResponse(parts=[ToolCallPart(f"Families-{name}", {"value": good}, "call_9")]),
    )
    text = retried(parts(script)[0])
    assert text is not None and path in text


def test_unknown_arguments_are_refused() -> None:
    toolset = integration.export(support.date_plugin())
    script = run(
        toolset,
        calls(("DatePluginSimpleComplex-GetDate1", {"numDays": 1, "node": 5})),
        ModelResponse(parts=[TextPart("gave up")]),
    )
    (retry,) = parts(script)
    text = retried(retry)
    assert text is not None and "- at $.node: unknown argument (known: numDays)" in text


@pytest.mark.parametrize("case", sorted(doors.CASES))
def test_the_doors_cases_through_the_agent_loop(case: str) -> None:
    """pydantic-ai's own call path accepts and refuses as every door does, in the same words."""
    call = doors.CASES[case]
    script = run(
        integration.export(doors.Travel()),
        calls(("Travel-book", call.arguments)),
        ModelResponse(parts=[TextPart("done")]),
    )
    (part,) = parts(script)
    got = retried(part)
    if call.accepted:
        assert got is None and part.content == call.value
    else:
        assert got is not None
        if got.startswith("{"):  # a retry the run ran out of: pydantic-ai's JSON around it
            got = json.loads(got)["error"]
        assert doors.problem_lines(got) == call.problems


def test_every_family_goes_through_and_comes_back_typed() -> None:
    toolset = integration.export(support.Families())
    names = sorted(support.FAMILY_TYPES)
    script = run(
        toolset,
        calls(*[(f"Families-{n}", {"value": support.family_argument(n)[0]}) for n in names]),
    )
    for name, part in zip(names, parts(script), strict=True):
        assert isinstance(part, ToolReturnPart), (name, part)
        assert part.content == support.family_argument(name)[1], name


def test_test_model_calls_the_tool_with_arguments_drawn_from_the_schema() -> None:
    agent = Agent(TestModel(), toolsets=[integration.export(support.date_plugin())])
    result = agent.run_sync("go")
    (part,) = [
        p
        for m in result.all_messages()
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart)
    ]
    assert part.content == DateResponse(date="2026-01-01")  # TestModel sends numDays=0


def test_generated_openapi_plugin_calls_the_server(generated_pets: Any) -> None:
    script = run(
        integration.export(generated_pets),
        calls(
            ("Pets-listPets", {"kind": "dog", "limit": 2}),
            ("Pets-addPet", {"body": {"name": "Rex", "kind": "dog"}}),
        ),
    )
    listed, added = parts(script)
    assert isinstance(listed, ToolReturnPart) and [p.name for p in listed.content] == [
        "dog0",
        "dog1",
    ]
    assert isinstance(added, ToolReturnPart) and added.content.name == "Rex"


def test_openapi_plugin_checks_the_spec(openapi_pets: Any) -> None:
    bad = {"body": {"name": "", "kind": "dog", "owner": {"email": "x", "phone": "no"}}}
    script = run(
        integration.export(openapi_pets),
        calls(("Pets-addPet", bad)),
        calls(("Pets-addPet", {"body": {"name": "Rex", "kind": "dog", "age": 3}})),
    )
    refused, added = parts(script)
    text = retried(refused)
    assert text is not None and "$.body.name" in text and "$.body.owner.phone" in text
    assert isinstance(added, ToolReturnPart)
    assert added.content == {"name": "Rex", "kind": "dog", "age": 3}


# --- what the model is sent ---------------------------------------------------------


def sent(toolset: FunctionToolset[Any]) -> dict[str, ToolDefinition]:
    script = run(toolset)
    return {t.name: t for t in script.tools[0]}


def test_sent_schemas_are_the_views_own_with_no_dangling_refs() -> None:
    shown = sent(integration.export(support.Families()))
    for view in sk.plugin_views(support.Families()):
        definition = shown[f"Families-{view.name}"]
        assert definition.parameters_json_schema == view.parameters_schema
        assert support.dangling_refs(definition.parameters_json_schema) == []
        assert definition.description == view.description


def test_strict_marks_and_shapes_the_tools() -> None:
    shown = sent(integration.export(support.date_plugin(), strict=True))
    (definition,) = shown.values()
    assert definition.strict is True
    loose = sent(integration.export(support.date_plugin()))
    assert next(iter(loose.values())).strict is None
    with pytest.raises(sk.SchemaError, match="cannot be made strict"):
        integration.export(support.Families(), strict=True)


SENT = [
    (view, sent(integration.export(support.Families()))[f"Families-{view.name}"])
    for view in sk.plugin_views(support.Families())
]


@pytest.mark.parametrize(("view", "definition"), SENT, ids=[v.name for v, _ in SENT])
@settings(max_examples=15)
@given(data=st.data())
def test_sent_schema_accepts_and_rejects_like_the_view(
    view: sk.FunctionView, definition: ToolDefinition, data: st.DataObject
) -> None:
    instance = data.draw(support.candidates(view, view.name in support.RECURSIVE))
    theirs, mine = support.agree(definition.parameters_json_schema, view, instance)
    assert theirs == mine


# --- round trips and foreign tools --------------------------------------------------


@pytest.mark.parametrize(
    "make", [support.date_plugin, support.weather_plugin, support.Families, support.example_kernel]
)
def test_export_views_export_is_identity_on_schemas(make: Any) -> None:
    first = integration.export(make())
    again = integration.export(integration.views(first))
    assert {n: t.tool_def.parameters_json_schema for n, t in again.tools.items()} == {
        n: t.tool_def.parameters_json_schema for n, t in first.tools.items()
    }


def test_a_native_pydantic_ai_tool_becomes_a_callable_view() -> None:
    def add(a: int, b: int = 1) -> int:
        """Add two numbers."""
        return a + b

    (view,) = integration.views(FunctionToolset([Tool(add, name="plus")]))
    assert view.name == "plus" and view.description == "Add two numbers."
    assert [(p.name, p.is_required) for p in view.parameters] == [("a", True), ("b", False)]
    kernel = Kernel()
    kernel.add_function(view, "Math")
    assert asyncio.run(kernel.invoke("Math.plus", {"a": 2})).value == 3
    with pytest.raises(sk.ArgumentsError, match=r"\$\.a"):
        asyncio.run(kernel.invoke("Math.plus", {"a": "x"}))
