"""``sktypes check``'s token budgets: a manual, or what a source serves, within its tokens.

A source that is a functions manual (a JSON tool list) is counted as it is written; any other
source (a spec, a plugin, a generated package) is written as a manual in the budget's format
at its detail level and counted. Over budget is one finding naming the overshoot and the
largest tools, so the fix is plain: a lower detail, a larger budget, or fewer tools.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from sktypes.check._findings import Finding, display
from sktypes.errors import SktypesError

__all__ = ["BudgetLike", "check_budget"]


class BudgetLike(Protocol):
    """What a budget says (``sktypes.cli._config.Budget``)."""

    @property
    def source(self) -> Path: ...
    @property
    def tokens(self) -> int: ...
    @property
    def format(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def include(self) -> Sequence[str]: ...
    @property
    def exclude(self) -> Sequence[str]: ...


def check_budget(budget: BudgetLike) -> list[Finding]:
    """The finding of one budget (none when the manual fits)."""
    from sktypes.cli._targets import load_views
    from sktypes.manual import ToolCost, manual_cost, token_counter, views_from_manual

    where = display(budget.source)
    counter = token_counter()
    manual = _manual_file(budget.source)
    try:
        if manual is not None:
            total = counter.count(manual)
            views = views_from_manual(manual)
            tools = [
                ToolCost(v.fully_qualified_name, "as written", c.tools[0].tokens)
                for v in views
                for c in [manual_cost([v], budget.format, counter=counter)]
            ]
        else:
            views = load_views([str(budget.source)], include=budget.include, exclude=budget.exclude)
            cost = manual_cost(views, budget.format, detail=budget.detail, counter=counter)
            total, tools = cost.total, list(cost.tools)
    except SktypesError as exc:
        return [Finding(where, "", f"token budget: cannot be read: {str(exc).splitlines()[0]}")]
    if total <= budget.tokens:
        return []
    largest = ", ".join(
        f"{t.name} ({t.tokens})" for t in sorted(tools, key=lambda t: -t.tokens)[:5]
    )
    what = "manual" if manual is not None else f"{budget.format} manual at {budget.detail}"
    return [
        Finding(
            where,
            "",
            f"{what} is {total} tokens, over its budget of {budget.tokens} by "
            f"{total - budget.tokens} (counted by {counter.name}); largest: {largest}",
        )
    ]


def _manual_file(path: Path) -> str | None:
    """The text of ``path`` when it is a JSON tool list (a written manual), else ``None``."""
    if path.suffix != ".json" or not path.is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and "tools" in data:
        return text
    if isinstance(data, list):
        return text
    return None
