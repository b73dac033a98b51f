"""Run a plan on a kernel: dependency order, independent steps at once.

Steps whose inputs are ready run together (``asyncio.gather``); a reference passes the
JSON form of the source's output (or the part its path selects), which the kernel
hydrates into the parameter's type. A failure raises :class:`PlanRunError` naming the
step and carrying every result finished so far.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Mapping
from typing import Any, Protocol

from pydantic_core import to_jsonable_python

from sktypes.errors import PlanError, SktypesError
from sktypes.plan._check import dependency_cycles
from sktypes.plan._jsonpath import PathError, extract
from sktypes.plan._model import Plan, PlanStep, Reference

__all__ = ["KernelLike", "PlanRunError", "run_plan"]


class KernelLike(Protocol):
    """What :func:`run_plan` needs of a kernel: invoke a function by ``Plugin.Function``.

    ``sktypes.kernel.Kernel`` is one; the result's ``.value`` (if it has one) is the output.
    """

    def invoke(self, function: str, arguments: dict[str, Any], /) -> Awaitable[Any]:
        """Call ``function`` with JSON ``arguments`` and return its result."""
        ...


class PlanRunError(PlanError):
    """A step of a plan failed; ``results`` holds the outputs of the steps that finished.

    Args:
        message: what went wrong.
        step: the id of the failing step (``None`` for the plan's output or its shape).
        results: step id to output (native values, as the functions returned them).
    """

    def __init__(
        self, message: str, *, step: str | None = None, results: Mapping[str, Any] | None = None
    ) -> None:
        self.step = step
        self.results: dict[str, Any] = dict(results or {})
        super().__init__(message, where=f"step {step!r}" if step is not None else None)


async def run_plan(plan: Plan, kernel: KernelLike) -> Any:
    """Run ``plan`` on ``kernel`` and return the value its ``output`` selects.

    Without an ``output`` the plan's answer is the output of its last step. Check the plan
    first with :func:`check_plan`: this only refuses plans it cannot order.

    Raises:
        PlanRunError: a reference to no step, a dependency cycle, a step that failed, or a
            path that is not in an output; ``.step`` names the step, ``.results`` keeps the
            outputs finished before.
    """
    levels = _levels(plan)
    results: dict[str, Any] = {}
    for level in levels:
        outcomes = await asyncio.gather(
            *(_run_step(step, results, kernel) for step in level), return_exceptions=True
        )
        failures: list[tuple[PlanStep, BaseException]] = []
        for step, outcome in zip(level, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                failures.append((step, outcome))
            else:
                results[step.id] = outcome
        if failures:
            step, exc = failures[0]
            if isinstance(exc, (KeyboardInterrupt, SystemExit, asyncio.CancelledError)):
                raise exc
            raise PlanRunError(_failure(step, exc), step=step.id, results=results) from exc
    output = plan.output or Reference.model_validate({"$from": plan.steps[-1].id})
    try:
        return _value(output, results)
    except PathError as exc:
        raise PlanRunError(f"the plan's output: {exc}", results=results) from None


def _failure(step: PlanStep, exc: BaseException) -> str:
    """One line: sktypes errors list their details after the summary."""
    head, *details = str(exc).splitlines() or [""]
    text = head + (": " + "; ".join(d.strip() for d in details) if details else "")
    if isinstance(exc, SktypesError):
        return f"{step.function} failed: {text}"
    return f"{step.function} failed: {type(exc).__name__}: {text}"


def _levels(plan: Plan) -> list[list[PlanStep]]:
    """Steps grouped so that each group only needs the outputs of earlier groups."""
    ids = {s.id for s in plan.steps}
    for s in plan.steps:
        for name, ref in s.references():
            if ref.from_ not in ids or ref.from_ == s.id:
                raise PlanRunError(
                    f"argument {name!r} refers to no earlier step ({ref.from_!r})", step=s.id
                )
    cycles = dependency_cycles(plan)
    if cycles:
        chain = " -> ".join([*cycles[0], cycles[0][0]])
        raise PlanRunError(f"steps depend on each other: {chain}", step=cycles[0][0])
    # Kahn's algorithm: linear in steps and references (no rescan of the pending steps)
    needs = {s.id: {r.from_ for _, r in s.references()} for s in plan.steps}
    users: dict[str, list[PlanStep]] = {s.id: [] for s in plan.steps}
    for s in plan.steps:
        for source in needs[s.id]:
            users[source].append(s)
    left = {s.id: len(needs[s.id]) for s in plan.steps}
    order = {s.id: i for i, s in enumerate(plan.steps)}
    ready = [s for s in plan.steps if not left[s.id]]
    levels: list[list[PlanStep]] = []
    while ready:
        levels.append(ready)
        following: list[PlanStep] = []
        for s in ready:
            for user in users[s.id]:
                left[user.id] -= 1
                if not left[user.id]:
                    following.append(user)
        ready = sorted(following, key=lambda s: order[s.id])
    return levels


async def _run_step(step: PlanStep, results: Mapping[str, Any], kernel: KernelLike) -> Any:
    arguments: dict[str, Any] = {}
    for name, arg in step.arguments.items():
        if isinstance(arg, Reference):
            try:
                arguments[name] = _json_value(arg, results)
            except PathError as exc:
                raise PlanError(
                    f"argument {name!r}: {exc} in the output of step {arg.from_!r}"
                ) from None
        else:
            arguments[name] = arg
    result = await kernel.invoke(step.function, arguments)
    return getattr(result, "value", result)


def _json_value(ref: Reference, results: Mapping[str, Any]) -> Any:
    return extract(to_jsonable_python(results[ref.from_], by_alias=True), ref.segments)


def _value(ref: Reference, results: Mapping[str, Any]) -> Any:
    """The native output for a whole-output reference, else the JSON value the path selects."""
    if not ref.segments:
        return results[ref.from_]
    return _json_value(ref, results)
