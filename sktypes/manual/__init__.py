"""The functions manual: views → what a model or planner reads, in each provider's dialect.

``functions_manual(views, format=..., detail=...)`` writes; ``views_from_manual(tools)``
reads OpenAI (Chat Completions and Responses), Anthropic, Gemini, MCP and planner tool lists
back. Writing what was read from a ``full`` manual gives back the same manual.

Detail levels (``full``, ``compact``, ``names``) say more or less of each function;
:func:`fit_budget` chooses, per function, the richest level that keeps the manual within a
token budget, counted by :func:`token_counter` (a real o200k tokenizer when installed, else
an estimate).

Names: the planner, Gemini and MCP formats use ``Plugin.Function``; OpenAI and Anthropic
allow only ``[A-Za-z0-9_-]{1,64}``, so they use ``Plugin-Function``. Characters a format
refuses become ``_``; a name over the length limit keeps its head and ends with an
8-character hash of the full name, so distinct functions keep distinct names.
"""

from __future__ import annotations

from sktypes.manual._budget import ManualCost, ToolCost, fit_budget, manual_cost, render_manual
from sktypes.manual._names import NameTable, provider_name
from sktypes.manual._read import views_from_manual
from sktypes.manual._shown import DETAILS, Detail
from sktypes.manual._tokens import TokenCounter, estimate_tokens, token_counter
from sktypes.manual._write import (
    DEFERRAL,
    FORMATS,
    ManualFormat,
    functions_manual,
)

__all__ = [
    "DEFERRAL",
    "DETAILS",
    "FORMATS",
    "Detail",
    "ManualCost",
    "ManualFormat",
    "NameTable",
    "TokenCounter",
    "ToolCost",
    "estimate_tokens",
    "fit_budget",
    "functions_manual",
    "manual_cost",
    "provider_name",
    "render_manual",
    "token_counter",
    "views_from_manual",
]
