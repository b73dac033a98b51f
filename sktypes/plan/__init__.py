"""Plans with type-checked wiring: steps that call functions, outputs wired into inputs.

A :class:`Plan` (pydantic; ``sktypes.hydrate(Plan, llm_text)`` reads one a model wrote)
lists :class:`PlanStep` s whose arguments are literals or references into earlier
outputs (``{"$from": "d", "path": "$.date"}``). :func:`check_plan` proves the wiring
type-correct against function views before anything runs — a reference fits when its
source schema is subsumed by the parameter's (:func:`compatibility`) — and
:func:`run_plan` runs the steps on a kernel in dependency order.
"""

from __future__ import annotations

from sktypes.plan._check import check_plan
from sktypes.plan._jsonpath import PathError, parse_path, render_path
from sktypes.plan._model import Plan, PlanIssue, PlanStep, Reference, plan_json_schema
from sktypes.plan._run import KernelLike, PlanRunError, run_plan
from sktypes.plan._subsume import HANDLED_KEYWORDS, compatibility
from sktypes.plan._verdict import Compatibility, Verdict

__all__ = [
    "Plan",
    "PlanStep",
    "Reference",
    "PlanIssue",
    "check_plan",
    "run_plan",
    "KernelLike",
    "PlanRunError",
    "PathError",
    "compatibility",
    "Compatibility",
    "Verdict",
    "HANDLED_KEYWORDS",
    "plan_json_schema",
    "parse_path",
    "render_path",
]
