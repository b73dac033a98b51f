"""sktypes inside Semantic Kernel, driven by a scripted chat completion service.

The service is a real ``ChatCompletionClientBase`` whose replies are scripted: Semantic
Kernel's own auto function invocation loop sends it the tools (in the OpenAI format the
OpenAI connector sends), runs the tool calls it answers with, and puts the results into
the chat history it sends next.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Annotated, Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field
from semantic_kernel import Kernel as SKKernel
from semantic_kernel.connectors.ai.chat_completion_client_base import ChatCompletionClientBase
from semantic_kernel.connectors.ai.function_calling_utils import (
    update_settings_from_function_call_configuration,
)
from semantic_kernel.connectors.ai.function_choice_behavior import FunctionChoiceBehavior
from semantic_kernel.connectors.ai.open_ai import OpenAIChatPromptExecutionSettings
from semantic_kernel.contents import (
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionCallContent,
    FunctionResultContent,
)
from semantic_kernel.exceptions import FunctionExecutionException
from semantic_kernel.functions import (
    KernelArguments,
    KernelFunctionFromMethod,
    KernelParameterMetadata,
    KernelPlugin,
)
from semantic_kernel.functions import kernel_function as sk_kernel_function

import sktypes as sk
from examples.date_weather import DateResponse, WeatherForecast
from sktypes.integrations import SchemaCutWarning
from sktypes.integrations import semantic_kernel as integration
from sktypes.kernel import Kernel
from tests import doors
from tests.integrations import support

pytestmark = pytest.mark.filterwarnings("ignore::sktypes.integrations.SchemaCutWarning")

# --- a scripted chat completion service ---------------------------------------------


class ScriptedService(ChatCompletionClientBase):
    """Answers with the scripted messages, one per request; records what it was sent."""

    SUPPORTS_FUNCTION_CALLING: ClassVar[bool] = True
    script: list[ChatMessageContent] = Field(default_factory=list)
    requests: list[tuple[list[dict[str, Any]], list[ChatMessageContent]]] = Field(
        default_factory=list
    )

    def get_prompt_execution_settings_class(self) -> type[OpenAIChatPromptExecutionSettings]:
        return OpenAIChatPromptExecutionSettings

    def _update_function_choice_settings_callback(self) -> Any:
        return update_settings_from_function_call_configuration

    def _reset_function_choice_settings(self, settings: Any) -> None:
        settings.tool_choice = None
        settings.tools = None

    async def _inner_get_chat_message_contents(
        self, chat_history: ChatHistory, settings: Any
    ) -> list[ChatMessageContent]:
        self.requests.append((list(settings.tools or []), list(chat_history.messages)))
        return [self.script.pop(0)]


def call(name: str, arguments: dict[str, Any] | str, id: str = "call_1") -> ChatMessageContent:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return ChatMessageContent(
        role=AuthorRole.ASSISTANT, items=[FunctionCallContent(id=id, name=name, arguments=text)]
    )


def answer(text: str = "done") -> ChatMessageContent:
    return ChatMessageContent(role=AuthorRole.ASSISTANT, content=text)


def converse(
    plugin: KernelPlugin, *replies: ChatMessageContent
) -> tuple[ScriptedService, ChatHistory]:
    """Run one user turn with auto function calling; return the service and the history."""
    kernel = SKKernel()
    kernel.add_plugin(plugin)
    service = ScriptedService(ai_model_id="scripted", script=list(replies), requests=[])
    kernel.add_service(service)
    history = ChatHistory()
    history.add_user_message("go")
    settings = OpenAIChatPromptExecutionSettings(
        function_choice_behavior=FunctionChoiceBehavior.Auto()
    )

    async def run() -> None:
        await service.get_chat_message_contents(history, settings, kernel=kernel)

    asyncio.run(run())
    return service, history


def results(history: ChatHistory) -> list[FunctionResultContent]:
    return [i for m in history.messages for i in m.items if isinstance(i, FunctionResultContent)]


# --- calls through the model loop ---------------------------------------------------


def test_valid_call_returns_the_typed_result() -> None:
    plugin = integration.export(support.date_plugin())
    _, history = converse(
        plugin, call("DatePluginSimpleComplex-GetDate1", {"numDays": 2}), answer()
    )
    (result,) = results(history)
    assert result.result == DateResponse(date="2026-01-03")


def test_bad_arguments_reach_the_model_with_their_paths() -> None:
    plugin = integration.export(support.Families())
    bad = {"value": [{"sku": "", "qty": 5000}]}
    service, history = converse(plugin, call("Families-echo_list_of_models", bad), answer())
    (result,) = results(history)
    text = str(result.result)
    assert "$.value[0].sku" in text and "$.value[0].qty" in text
    # the model read it: the next request carries the result
    assert any(
        isinstance(i, FunctionResultContent) and "$.value[0].qty" in str(i.result)
        for m in service.requests[1][1]
        for i in m.items
    )


@pytest.mark.parametrize("name", sorted(support.BAD_FAMILY_ARGUMENTS))
def test_each_bad_family_argument_names_its_path(name: str) -> None:
    value, path = support.BAD_FAMILY_ARGUMENTS[name]
    plugin = integration.export(support.Families())
    _, history = converse(plugin, call(f"Families-{name}", {"value": value}), answer())
    (result,) = results(history)
    assert path in str(result.result)


def test_unknown_arguments_are_refused() -> None:
    plugin = integration.export(support.date_plugin())
    _, history = converse(
        plugin, call("DatePluginSimpleComplex-GetDate1", {"numDays": 1, "node": 5}), answer()
    )
    (result,) = results(history)
    assert "node" in str(result.result)
    assert not isinstance(result.result, DateResponse)


def test_malformed_json_arguments_are_reported() -> None:
    plugin = integration.export(support.date_plugin())
    _, history = converse(plugin, call("DatePluginSimpleComplex-GetDate1", "{numDays: 2"), answer())
    (result,) = results(history)
    assert isinstance(result.result, str)


def test_two_plugins_of_a_kernel_answer_a_chained_conversation() -> None:
    plugin = integration.export(support.example_kernel(), plugin_name="Tools")
    assert sorted(plugin.functions) == [
        "DatePluginSimpleComplex_GetDate1",
        "WeatherPluginSimpleComplex_GetWeatherForecast1",
    ]
    _, history = converse(
        plugin,
        call("Tools-DatePluginSimpleComplex_GetDate1", {"numDays": 1}, "a"),
        call("Tools-WeatherPluginSimpleComplex_GetWeatherForecast1", {"date": "2026-01-02"}, "b"),
        answer(),
    )
    first, second = results(history)
    assert first.result == DateResponse(date="2026-01-02")
    assert isinstance(second.result, WeatherForecast)


def test_json_results_filter_shows_the_model_json() -> None:
    kernel = SKKernel()
    kernel.add_plugin(integration.export(support.date_plugin()))
    kernel.add_filter("auto_function_invocation", integration.json_results)
    service = ScriptedService(
        ai_model_id="s",
        script=[call("DatePluginSimpleComplex-GetDate1", {"numDays": 0}), answer()],
        requests=[],
    )
    kernel.add_service(service)
    history = ChatHistory()
    history.add_user_message("go")
    settings = OpenAIChatPromptExecutionSettings(
        function_choice_behavior=FunctionChoiceBehavior.Auto()
    )
    asyncio.run(service.get_chat_message_contents(history, settings, kernel=kernel))
    (result,) = results(history)
    assert json.loads(str(result.result)) == {"date": "2026-01-01"}


def test_direct_invoke_returns_the_typed_value_and_raises_on_bad_arguments() -> None:
    kernel = SKKernel()
    plugin = kernel.add_plugin(integration.export(support.Families()))

    async def run() -> None:
        got = await kernel.invoke(
            plugin["echo_model"], KernelArguments(value={"sku": "A", "qty": 2})
        )
        assert got is not None
        assert got.value == support.FAMILY_TYPES["echo_model"](sku="A", qty=2)
        with pytest.raises(Exception) as raised:  # Semantic Kernel's KernelInvokeException
            await kernel.invoke(plugin["echo_model"], KernelArguments(value={"sku": "A", "qty": 0}))
        cause = raised.value.__cause__
        assert isinstance(cause, FunctionExecutionException)
        assert "$.value.qty" in str(cause)
        assert isinstance(cause.__cause__, sk.ArgumentsError)

    asyncio.run(run())


@pytest.mark.parametrize("case", sorted(doors.CASES))
def test_the_doors_cases_through_kernel_invoke(case: str) -> None:
    """Semantic Kernel's ``kernel.invoke`` accepts and refuses as every door does, in the same
    words (unknown arguments included: an export sees every argument of the call)."""
    call = doors.CASES[case]
    kernel = SKKernel()
    plugin = kernel.add_plugin(integration.export(doors.Travel()))

    async def run() -> Any:
        try:
            got = await kernel.invoke(plugin["book"], KernelArguments(**call.arguments))
        except Exception as exc:  # Semantic Kernel's KernelInvokeException
            return exc.__cause__
        assert got is not None
        return got.value

    outcome = asyncio.run(run())
    if call.accepted:
        assert outcome == call.value
    else:
        assert isinstance(outcome, FunctionExecutionException)
        assert doors.problem_lines(str(outcome)) == call.problems


@pytest.mark.parametrize("case", ["good", "lax", "bad"])
def test_the_doors_cases_through_the_function_calling_loop(case: str) -> None:
    """The loop refuses unknown and missing arguments itself, in its words; the rest as sktypes."""
    sent = doors.CASES[case]
    _, history = converse(
        integration.export(doors.Travel()), call("Travel-book", sent.arguments), answer()
    )
    (result,) = results(history)
    if sent.accepted:
        assert result.result == sent.value
    else:
        assert doors.problem_lines(str(result.result)) == sent.problems


class Cart:
    """A cart."""

    @sk.kernel_function
    def checkout(self, items: list[str], note: str = "") -> int:
        """Check the items out."""
        return len(items)


def test_direct_invoke_refuses_unknown_arguments_like_every_framework() -> None:
    """Semantic Kernel hands a function only what it declares; an export sees them all."""
    kernel = SKKernel()
    plugin = kernel.add_plugin(integration.export(Cart()))

    async def run() -> Any:
        ok = await kernel.invoke(plugin["checkout"], KernelArguments(items=["a"]))
        assert ok is not None and ok.value == 1
        with pytest.raises(Exception) as raised:
            await kernel.invoke(plugin["checkout"], KernelArguments(items=[], coupon="FREE"))
        return raised.value.__cause__

    cause = asyncio.run(run())
    assert isinstance(cause, FunctionExecutionException)
    assert isinstance(cause.__cause__, sk.ArgumentsError)
    assert str(cause) == (
        "The arguments for Cart-checkout could not be used. Fix these problems and call it "
        "again:\n- at $.coupon: unknown argument (known: items, note)"
    )


def test_the_callers_variables_in_the_function_calling_loop_are_not_the_models() -> None:
    kernel = SKKernel()
    kernel.add_plugin(integration.export(Cart()))
    script = [call("Cart-checkout", {"items": ["a", "b"]}), answer()]
    service = ScriptedService(ai_model_id="s", script=script, requests=[])
    kernel.add_service(service)
    history = ChatHistory()
    history.add_user_message("go")
    settings = OpenAIChatPromptExecutionSettings(
        function_choice_behavior=FunctionChoiceBehavior.Auto()
    )
    caller = KernelArguments(user="ada")  # a variable of the chat call, not of the tool
    asyncio.run(
        service.get_chat_message_contents(history, settings, kernel=kernel, arguments=caller)
    )
    (result,) = results(history)
    assert result.result == 2


# --- what the model is sent ---------------------------------------------------------


def sent_tools(plugin: KernelPlugin) -> dict[str, dict[str, Any]]:
    service, _ = converse(plugin, answer())
    return {t["function"]["name"]: t["function"]["parameters"] for t in service.requests[0][0]}


def test_sent_schemas_have_no_refs_and_keep_descriptions() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SchemaCutWarning)
        plugin = integration.export(support.Families())
    tools = sent_tools(plugin)
    assert len(tools) == len(support.FAMILY_TYPES)
    for parameters in tools.values():
        assert "$ref" not in json.dumps(parameters)
        assert support.dangling_refs(parameters) == []
    date = sent_tools(integration.export(support.date_plugin()))["DatePluginSimpleComplex-GetDate1"]
    assert date["properties"]["numDays"]["description"].startswith("The number of days")


def test_recursion_is_cut_and_reported() -> None:
    with pytest.warns(SchemaCutWarning, match="echo_recursive_model"):
        plugin = integration.export(support.Families())
    sent = sent_tools(plugin)["Families-echo_recursive_model"]
    assert "nested deeper than 3 levels" in json.dumps(sent)


def _views_and_sent() -> list[tuple[sk.FunctionView, dict[str, Any], bool]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SchemaCutWarning)
        plugin = integration.export(support.Families())
    tools = sent_tools(plugin)
    out = []
    for view in sk.plugin_views(support.Families()):
        sent = dict(tools[f"Families-{view.name}"])
        # Semantic Kernel builds the arguments object itself, without additionalProperties:
        # it refuses unknown arguments when the call arrives (tested above) instead
        sent["additionalProperties"] = False
        out.append((view, sent, view.name in support.RECURSIVE))
    return out


SENT = _views_and_sent()


@pytest.mark.parametrize(("view", "sent", "recursive"), SENT, ids=[v.name for v, _, _ in SENT])
@settings(max_examples=15)
@given(data=st.data())
def test_sent_schema_accepts_and_rejects_like_the_view(
    view: sk.FunctionView, sent: dict[str, Any], recursive: bool, data: st.DataObject
) -> None:
    instance = data.draw(support.candidates(view, recursive))
    theirs, mine = support.agree(sent, view, instance)
    if recursive:
        assert theirs or not mine  # cut: the sent schema may only be looser, past the cut
    else:
        assert theirs == mine


# --- round trips and targets --------------------------------------------------------


def _schemas(plugin: KernelPlugin) -> dict[str, Any]:
    return {
        name: [(p.name, p.is_required, p.schema_data) for p in f.metadata.parameters]
        for name, f in plugin.functions.items()
    }


@pytest.mark.parametrize(
    "make", [support.date_plugin, support.weather_plugin, support.Families, support.example_kernel]
)
def test_export_views_export_is_identity_on_schemas(make: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SchemaCutWarning)
        first = integration.export(make())
        again = integration.export(integration.views(first))
    assert _schemas(again) == _schemas(first)
    assert [v.to_dict() for v in integration.views(again)] == [
        v.to_dict() for v in integration.views(first)
    ]


def test_every_family_goes_through_and_comes_back_typed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SchemaCutWarning)
        plugin = integration.export(support.Families())
    calls = []
    expected = {}
    for i, name in enumerate(sorted(support.FAMILY_TYPES)):
        value, typed = support.family_argument(name)
        calls.append(
            FunctionCallContent(
                id=f"c{i}", name=f"Families-{name}", arguments=json.dumps({"value": value})
            )
        )
        expected[f"c{i}"] = typed
    parallel = ChatMessageContent(role=AuthorRole.ASSISTANT, items=calls)
    _, history = converse(plugin, parallel, answer())
    got = {r.id: r.result for r in results(history)}
    assert got == expected


def test_generated_openapi_plugin_calls_the_server(generated_pets: Any) -> None:
    plugin = integration.export(generated_pets)
    _, history = converse(
        plugin,
        call("Pets-listPets", {"kind": "dog", "limit": 2}, "a"),
        call("Pets-addPet", {"body": {"name": "Rex", "kind": "dog"}}, "b"),
        call("Pets-listPets", {"kind": "cow"}, "c"),
        answer(),
    )
    listed, added, refused = results(history)
    assert [p.name for p in listed.result] == ["dog0", "dog1"]
    assert added.result.name == "Rex"
    assert "$.kind" in str(refused.result)


def test_openapi_plugin_calls_the_server_and_checks_the_spec(openapi_pets: Any) -> None:
    plugin = integration.export(openapi_pets)
    bad_body = {"body": {"name": "", "kind": "dog", "owner": {"email": "x", "phone": "no"}}}
    _, history = converse(
        plugin,
        call("Pets-addPet", {"body": {"name": "Rex", "kind": "dog", "age": 3}}, "a"),
        call("Pets-addPet", bad_body, "b"),
        call("Pets-listPets", {"kind": "cat", "limit": 500}, "c"),
        answer(),
    )
    added, refused, too_many = results(history)
    assert added.result == {"name": "Rex", "kind": "dog", "age": 3}
    assert "$.body.name" in str(refused.result) and "$.body.owner.phone" in str(refused.result)
    assert "$.limit" in str(too_many.result)


# --- Semantic Kernel's own decorator ------------------------------------------------


class SKLights:
    """A plugin written for Semantic Kernel."""

    @sk_kernel_function(name="set_light", description="Switch a light.")
    def set_light(
        self,
        id: Annotated[int, "The light's number"],
        on: Annotated[bool, "On or off"] = True,
        kernel: SKKernel | None = None,
    ) -> dict[str, Any]:
        return {"id": id, "on": on}

    @sk_kernel_function
    async def count(self) -> int:
        """How many lights there are."""
        return 3


def test_semantic_kernel_plugins_become_views_unchanged() -> None:
    set_light, count = sorted(sk.plugin_views(SKLights()), key=lambda v: v.name, reverse=True)
    assert set_light.name == "set_light" and set_light.description == "Switch a light."
    assert [p.name for p in set_light.parameters] == ["id", "on"]  # kernel is Semantic Kernel's
    assert set_light.parameter("id").description == "The light's number"
    assert count.description == "How many lights there are."
    assert integration.views(SKLights()) == sk.plugin_views(SKLights())


def test_semantic_kernel_plugins_run_on_the_sktypes_kernel() -> None:
    kernel = Kernel()
    kernel.add_plugin(SKLights(), "Lights")
    result = asyncio.run(kernel.invoke("Lights.set_light", {"id": 2}))
    assert result.value == {"id": 2, "on": True}
    with pytest.raises(sk.ArgumentsError, match=r"\$\.id"):
        asyncio.run(kernel.invoke("Lights.set_light", {"id": "two"}))


def test_views_of_a_native_semantic_kernel_plugin() -> None:
    kernel = SKKernel()
    kernel.add_plugin(SKLights(), "Lights")
    views = integration.views(kernel)
    assert sorted(v.fully_qualified_name for v in views) == ["Lights.count", "Lights.set_light"]
    mine = Kernel()
    mine.add_plugin(views, "Lights")
    assert asyncio.run(mine.invoke("Lights.set_light", {"id": 1, "on": False})).value == {
        "id": 1,
        "on": False,
    }


def test_sktypes_decorated_plugins_no_longer_clash_with_semantic_kernel(
    generated_pets: Any,
) -> None:
    kernel = SKKernel()
    kernel.add_plugin(generated_pets, "Raw")  # used to raise AttributeError
    kernel.add_plugin(integration.export(generated_pets))
    assert "Pets" in kernel.plugins  # the spec's plugin name, as load_openapi gives it


def test_strict_is_refused() -> None:
    with pytest.raises(sk.SchemaError, match="strict"):
        integration.export(support.date_plugin(), strict=True)


def test_a_function_with_its_own_metadata_is_read_from_it() -> None:
    async def lookup(**kwargs: Any) -> str:
        return str(kwargs["code"]).upper()

    function = KernelFunctionFromMethod(
        method=sk_kernel_function(lookup, name="lookup", description="Look a code up."),
        plugin_name="Codes",
        parameters=[
            KernelParameterMetadata(
                name="code",
                description="The code",
                is_required=True,
                schema_data={"type": "string", "minLength": 2},
            )
        ],
        return_parameter=KernelParameterMetadata(
            name="return", description="Upper case", type_="str", schema_data={"type": "string"}
        ),
    )
    (view,) = integration.views(KernelPlugin(name="Codes", functions=[function]))
    assert view.fully_qualified_name == "Codes.lookup"
    assert view.parameter("code").schema is not None
    assert view.parameter("code").schema.value == {
        "type": "string",
        "minLength": 2,
        "description": "The code",
    }
    assert view.return_parameter.description == "Upper case"
    kernel = Kernel()
    kernel.add_function(view, "Codes")
    assert asyncio.run(kernel.invoke("Codes.lookup", {"code": "ab"})).value == "AB"
    with pytest.raises(sk.ArgumentsError, match=r"\$\.code"):
        asyncio.run(kernel.invoke("Codes.lookup", {"code": "a"}))
