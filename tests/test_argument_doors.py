"""Every door into a function gives the same outcome and the same words for the same call.

The doors of the main venv: ``Kernel.invoke`` (and ``invoke_sync``, and a model's call in the
content model, ``FunctionCallContent.invoke``), ``validate_arguments``,
``hydrate(view, ...)``, an integration's tool (the call every framework export makes), the
MCP server (through the official client), a template call and a plan run. Each framework's
own call path runs the same cases in its venv (``tests/integrations/<framework>``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp import Client

import sktypes as sk
from sktypes.content import FunctionCallContent
from sktypes.hydration import argument_contract
from sktypes.integrations import mcp
from sktypes.integrations._core import error_text, tools
from sktypes.kernel import Kernel
from sktypes.plan import Plan, run_plan
from sktypes.templates import PromptTemplateConfig, create_prompt_template
from tests.doors import CASES, Case, Travel, problem_lines

Outcome = tuple[str, Any]
"""``("value", the function's value)``, ``("accepted", None)`` or ``("refused", lines)``."""


def kernel() -> Kernel:
    made = Kernel()
    made.add_plugin(Travel())
    return made


def view() -> sk.FunctionView:
    return kernel().get_function("Travel.book").view


def _cause(exc: Exception) -> sk.ArgumentsError:
    """The contract's refusal a door wrapped into its own error."""
    cause = exc.__cause__
    if not isinstance(cause, sk.ArgumentsError):
        raise AssertionError(f"not the contract's refusal: {exc!r}")
    return cause


def _refused(exc: sk.ArgumentsError) -> Outcome:
    return ("refused", problem_lines(exc.for_llm()))


def through_kernel(arguments: dict[str, Any]) -> Outcome:
    try:
        return ("value", asyncio.run(kernel().invoke("Travel.book", arguments)).value)
    except sk.ArgumentsError as exc:
        return _refused(exc)


def through_kernel_sync(arguments: dict[str, Any]) -> Outcome:
    try:
        return ("value", kernel().invoke_sync("Travel.book", arguments).value)
    except sk.ArgumentsError as exc:
        return _refused(exc)


def through_function_call(arguments: dict[str, Any]) -> Outcome:
    """A model's call in the content model (``FunctionCallContent.invoke``), JSON text."""
    call = FunctionCallContent("c1", "Travel", "book", json.dumps(arguments))
    result = asyncio.run(call.invoke(kernel()))
    if result.is_error:
        return ("refused", problem_lines(result.result))
    return ("value", result.result)


def through_validate(arguments: dict[str, Any]) -> Outcome:
    try:
        sk.validate_arguments(view(), arguments)
    except sk.ArgumentsError as exc:
        return _refused(exc)
    return ("accepted", None)


def through_hydrate(arguments: dict[str, Any]) -> Outcome:
    try:
        native = sk.hydrate(view(), arguments)
    except sk.ArgumentsError as exc:  # a HydrationError: what hydrate has always raised
        return _refused(exc)
    return ("value", Travel().book(**native))


def through_integration(arguments: dict[str, Any]) -> Outcome:
    (tool,) = tools(Travel(), inline=False, strict=None)
    try:
        return ("value", asyncio.run(tool.invoke(arguments)))
    except sk.ArgumentsError as exc:
        return ("refused", problem_lines(error_text(exc, tool)))


def through_mcp(arguments: dict[str, Any]) -> Outcome:
    async def main() -> Any:
        async with Client(mcp.server(Travel()), mode="legacy") as client:  # type: ignore[arg-type]
            await client.list_tools()
            return await client.call_tool("book", arguments)

    result = anyio.run(main)
    text = result.content[0].text
    if result.is_error:
        return ("refused", problem_lines(text))
    return ("value", result.structured_content["result"])


def through_template(arguments: dict[str, Any]) -> Outcome:
    """A template calls the function with named arguments (the template's variables)."""
    names = " ".join(f"{name}=${name}" for name in arguments)
    config = PromptTemplateConfig(template=f"{{{{Travel.book {names}}}}}")
    template = create_prompt_template(config)
    try:
        return ("value", asyncio.run(template.render(kernel(), arguments)))
    except sk.TemplateError as exc:
        return _refused(_cause(exc))


def through_plan(arguments: dict[str, Any]) -> Outcome:
    plan = Plan.model_validate(
        {"steps": [{"id": "s", "function": "Travel.book", "arguments": arguments}]}
    )
    try:
        return ("value", asyncio.run(run_plan(plan, kernel())))
    except sk.PlanError as exc:
        return _refused(_cause(exc))


DOORS: dict[str, Callable[[dict[str, Any]], Outcome]] = {
    "Kernel.invoke": through_kernel,
    "Kernel.invoke_sync": through_kernel_sync,
    "FunctionCallContent.invoke": through_function_call,
    "validate_arguments": through_validate,
    "hydrate": through_hydrate,
    "integration": through_integration,
    "mcp": through_mcp,
    "template": through_template,
    "plan": through_plan,
}


def expected(door: str, case: Case) -> Outcome:
    if not case.accepted:
        return ("refused", case.problems)
    return ("accepted", None) if door == "validate_arguments" else ("value", case.value)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("door", sorted(DOORS))
def test_every_door_gives_the_same_outcome_and_words(door: str, case: str) -> None:
    call = CASES[case]
    assert DOORS[door](dict(call.arguments)) == expected(door, call)


def test_the_contract_is_compiled_once_and_kept_with_the_view() -> None:
    built = view()
    contract = argument_contract(built)
    assert argument_contract(built) is contract
    assert contract.arguments({"days": "2", "start": "2024-05-01"}) == {
        "days": 2,
        "start": dt.date(2024, 5, 1),
    }
    assert contract.schema_decides == frozenset()  # introspected: the native types say it all


# --- absent stays absent ----------------------------------------------------------------


def _optional_any_view(**schema: Any) -> sk.FunctionView:
    """An optional parameter typed ``Any`` whose view declares no default (a spec's, a
    generated method's: ``default_value`` is ``None`` only because nothing is known)."""
    return sk.FunctionView(
        name="tag",
        plugin_name="Shop",
        parameters=(
            sk.ParameterView("sku", native_type=str, schema={"type": "string"}),
            sk.ParameterView("extra", is_required=False, native_type=Any, schema=schema),
            sk.ParameterView("note", is_required=False, schema={"type": "string"}),
        ),
    )


def test_an_absent_optional_argument_without_a_declared_default_stays_absent() -> None:
    view = _optional_any_view()
    assert sk.hydrate(view, {"sku": "a"}) == {"sku": "a"}
    assert sk.hydrate(view, '{"sku": "a", "extra": null}') == {"sku": "a", "extra": None}
    assert argument_contract(view).arguments({"sku": "a"}) == {"sku": "a"}


def test_a_declared_default_is_filled_in() -> None:
    view = _optional_any_view(default=None)
    assert sk.hydrate(view, {"sku": "a"}) == {"sku": "a", "extra": None}

    def tag(sku: str, extra: Any = None, note: str = "") -> None:
        """Tag an item."""

    assert sk.hydrate(sk.function_view(tag), {"sku": "a"}) == {
        "sku": "a",
        "extra": None,
        "note": "",
    }


def test_a_generated_clients_absent_optional_argument_is_not_sent_as_null(tmp_path: Any) -> None:
    """Through the kernel, a generated method's optional ``Any`` and nullable parameters the
    call leaves out are not sent (their views declare no default: nothing is filled in)."""
    import httpx

    from tests.remote_util import import_generated, operation_spec

    spec = operation_spec(
        parameters=[
            {"name": "anything", "in": "query", "schema": {}},
            {"name": "maybe", "in": "query", "schema": {"type": ["string", "null"]}},
            {"name": "X-Anything", "in": "header", "schema": {}},
            {"name": "X-Maybe", "in": "header", "schema": {"type": ["string", "null"]}},
            {"name": "given", "in": "query", "schema": {"type": "string"}},
        ],
        response={"type": "object"},
    )
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec))
    package = import_generated(path, tmp_path / "out", "absent_pkg")
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={})

    client = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    plugin = package.AbsentPkgPlugin(client=client, base_url="https://api.test")
    kernel = Kernel()
    kernel.add_plugin(plugin, "T")
    asyncio.run(kernel.invoke("T.op", {"given": "x"}))
    assert dict(seen[-1].url.params) == {"given": "x"}
    assert not {"x-anything", "x-maybe"} & set(seen[-1].headers)
