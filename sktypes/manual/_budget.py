"""Manuals within a token budget, and what each tool costs.

:func:`fit_budget` starts every function at ``full`` and, while the manual is over budget,
moves the most expensive functions one level down (``full`` → ``compact`` → ``names``)
until it fits: each function keeps the richest level the budget leaves room for. The total
is counted on the manual's text exactly as :func:`render_manual` writes it (what ``sktypes
manual`` prints), so a manual that fits is within budget as printed. Counted by the estimate
(no tokenizer installed), it is fitted within ``budget / 1.1`` (:data:`ESTIMATE_MARGIN`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from sktypes.errors import ManualError
from sktypes.manual._names import NameTable
from sktypes.manual._shown import DETAILS
from sktypes.manual._tokens import TokenCounter, token_counter
from sktypes.manual._write import FORMATS, manual_at
from sktypes.views import FunctionView

__all__ = [
    "ESTIMATE_MARGIN",
    "ManualCost",
    "ToolCost",
    "fit_budget",
    "manual_cost",
    "render_manual",
]

ESTIMATE_MARGIN = 0.10
"""Counted by the estimate, a budget is fitted with this share to spare (its measured error on
whole manuals is within ±10%), so the manual fits as a real tokenizer counts it too."""


@dataclass(frozen=True, slots=True)
class ToolCost:
    """One function of a manual: its name, the level it is shown at, its tokens alone."""

    name: str
    detail: str
    tokens: int


@dataclass(frozen=True, slots=True)
class ManualCost:
    """A manual and what it costs.

    Attributes:
        manual: the manual (as :func:`~sktypes.manual.functions_manual` returns it).
        tools: each function's level and tokens (its entry rendered alone), in order.
        total: the tokens of the whole manual as :func:`render_manual` writes it.
        counter: what counted.
        budget: the budget it was fitted to (``None`` when none was given).
    """

    manual: list[dict[str, Any]] | str
    tools: tuple[ToolCost, ...]
    total: int
    counter: TokenCounter
    budget: int | None = None

    def largest(self, n: int = 5) -> list[ToolCost]:
        """The ``n`` most expensive functions, most expensive first."""
        return sorted(self.tools, key=lambda t: -t.tokens)[:n]

    def levels(self) -> dict[str, int]:
        """How many functions are shown at each level."""
        return {d: sum(t.detail == d for t in self.tools) for d in DETAILS}


def render_manual(manual: list[dict[str, Any]] | str) -> str:
    """The text of a manual as ``sktypes manual`` prints it (JSON indented by 2)."""
    if isinstance(manual, str):
        return manual
    return orjson.dumps(manual, option=orjson.OPT_INDENT_2).decode()


def manual_cost(
    views: Iterable[FunctionView],
    format: str = "planner",
    *,
    detail: str = "full",
    counter: TokenCounter | None = None,
) -> ManualCost:
    """The manual of ``views`` at one ``detail`` level, with its tokens per tool and in total."""
    items = list(views)
    count = counter or token_counter()
    return _costed(items, format, [detail] * len(items), count, None)


def fit_budget(
    views: Iterable[FunctionView],
    format: str,
    budget: int,
    *,
    counter: TokenCounter | None = None,
) -> ManualCost:
    """The manual of ``views`` within ``budget`` tokens, each function as rich as fits.

    Raises:
        ManualError: even ``names`` for every function is over budget (the message says by
            how much).
    """
    items = list(views)
    count = counter or token_counter()
    # an estimate fits within budget / 1.1, so that a real count 10% higher still fits
    room = budget if count.exact else int(budget / (1 + ESTIMATE_MARGIN))
    levels = [0] * len(items)
    costs: dict[tuple[int, int], int] = {}
    while True:
        fitted = _costed(items, format, [DETAILS[i] for i in levels], count, budget)
        for i, tool in enumerate(fitted.tools):
            costs[(i, levels[i])] = tool.tokens
        over = fitted.total - room
        if over <= 0:
            richer = _richer(items, format, levels, costs, fitted, count, room)
            return dataclasses.replace(richer, budget=budget)
        lower = [i for i in range(len(items)) if levels[i] < len(DETAILS) - 1]
        if not lower:
            margin = "" if count.exact else f", estimated: fitted within {room}"
            raise ManualError(
                f"{len(items)} function(s) need {fitted.total} tokens even at 'names' "
                f"(budget {budget}, {over} over{margin}; counted by {count.name})"
            )
        lower.sort(key=lambda i: -costs[(i, levels[i])])
        saved = 0
        for i in lower:
            now = costs[(i, levels[i])]
            levels[i] += 1
            after = costs.get((i, levels[i]))
            if after is None:
                after = _one(items[i], format, DETAILS[levels[i]], count)
                costs[(i, levels[i])] = after
            saved += now - after
            if saved >= over:
                break


def _richer(
    items: Sequence[FunctionView],
    format: str,
    levels: list[int],
    costs: dict[tuple[int, int], int],
    fitted: ManualCost,
    counter: TokenCounter,
    budget: int,
) -> ManualCost:
    """Give back a level to the functions the room left over pays for, cheapest first.

    Moving several functions down at once can overshoot; this undoes what it can.
    """
    room = budget - fitted.total
    steps = sorted(
        (costs[(i, levels[i] - 1)] - costs[(i, levels[i])], i)
        for i in range(len(items))
        if levels[i] > 0 and (i, levels[i] - 1) in costs
    )
    raised = list(levels)
    for extra, i in steps:
        if extra > room:
            break
        raised[i] -= 1
        room -= extra
    if raised == levels:
        return fitted
    richer = _costed(items, format, [DETAILS[i] for i in raised], counter, budget)
    return richer if richer.total <= budget else fitted


def _one(view: FunctionView, format: str, detail: str, counter: TokenCounter) -> int:
    entry = manual_at([view], format, [detail], NameTable())
    return counter.count(render_manual(entry))


def _costed(
    items: Sequence[FunctionView],
    format: str,
    details: Sequence[str],
    counter: TokenCounter,
    budget: int | None,
) -> ManualCost:
    if format not in FORMATS:
        raise ManualError(f"unknown manual format {format!r}; choose one of {', '.join(FORMATS)}")
    manual = manual_at(items, format, details, NameTable())
    tools = []
    for view, detail in zip(items, details, strict=True):
        tokens = _one(view, format, detail, counter)
        tools.append(ToolCost(view.fully_qualified_name, detail, tokens))
    return ManualCost(manual, tuple(tools), counter.count(render_manual(manual)), counter, budget)
