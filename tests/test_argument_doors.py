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
