"""Every fuzz target runs for a few seconds in ``make test`` (``make fuzz`` runs them longer).

The seeds run first: they hold the inputs of issue 13's findings, so each is a regression
test too. Then seeded batches: the same inputs on every run, so a new finding comes from
``make fuzz`` (random), not from a CI run that happened to draw it. ``FUZZ_SMOKE_SECONDS``
sets the time per target (default 3).
"""

from __future__ import annotations

import os

import pytest

from tests.fuzz._engine import fuzz_with_hypothesis
from tests.fuzz._registry import all_targets

SECONDS = float(os.environ.get("FUZZ_SMOKE_SECONDS", "3"))
TARGETS = all_targets()


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_fuzz_target_finds_nothing_in_a_short_run(name: str) -> None:
    result = fuzz_with_hypothesis(TARGETS[name], SECONDS, batch=25, random_seed=0)
    assert not result.finding, f"{result.finding} (input saved to {result.saved})"
    assert result.executions >= len(TARGETS[name].seeds)


def test_the_runner_lists_every_input_the_issue_names() -> None:
    assert {
        "openapi",
        "refs",
        "hydrate",
        "partial",
        "chat_history",
        "plan",
        "client_args",
        # issue 23: template budgets and the attribute policy, serve, check, the tool list
        "template_sk",
        "template_jinja2",
        "template_handlebars",
        "template_budget",
        "template_attributes",
        "serve_http",
        "check_tree",
        "tool_list",
    } <= set(TARGETS)
