"""Hydration: native Python values from whatever a model actually sends back.

``hydrate(target, data)`` validates clean JSON at pydantic's speed and, only when that
fails, finds the JSON inside prose or code fences and repairs what models get wrong
(trailing commas, single quotes, Python literals, comments, double encoding…). With
``partial=True`` (and in :func:`hydrate_stream`) a truncated prefix gives the best
value so far. Every failure is a :class:`~sktypes.errors.HydrationError` listing each
problem with its JSON path; ``.for_llm()`` renders them for a retry.

Arguments are what a model sends most: a function view compiles once into its
:class:`ArgumentContract` (:func:`argument_contract`), the one place that decides about a
call's arguments, whichever door the call comes through (``Kernel.invoke``,
``validate_arguments``, ``hydrate(view, ...)``, the framework integrations, the MCP
server, templates and plans). Values are checked against schemas by one
:class:`SchemaCheck`.
"""

from __future__ import annotations

from sktypes.hydration._api import DEFAULT_LIMITS, HydrationLimits, hydrate
from sktypes.hydration._check import SchemaCheck
from sktypes.hydration._contract import ArgumentContract, argument_contract
from sktypes.hydration._stream import ahydrate_stream, hydrate_stream

__all__ = [
    "DEFAULT_LIMITS",
    "ArgumentContract",
    "HydrationLimits",
    "SchemaCheck",
    "ahydrate_stream",
    "argument_contract",
    "hydrate",
    "hydrate_stream",
]
