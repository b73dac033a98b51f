"""The same calls through every door into a function: one contract decides, in the same words.

A door is a way arguments reach a function: ``Kernel.invoke``, ``validate_arguments``,
``hydrate(view, ...)``, each framework export, the MCP server, template calls, plan runs.
:data:`CASES` are calls a model makes (good, lax, with an unknown argument, bad, missing);
each door must accept exactly the same ones, return the same value, and refuse the others
with the same problem lines (the lines after the header of the text the model reads, which
names the function as that door names it). ``tests/test_argument_doors.py`` drives the
doors of the main venv; each framework's tests drive its own call path with these cases.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sktypes import kernel_function


class Travel:
    """Bookings."""

    @kernel_function
    def book(self, days: int, start: dt.date | None = None) -> str:
        """Book ``days`` days from ``start``."""
        return f"{days} day(s) from {start}"


@dataclass(frozen=True)
class Case:
    """A call, and what every door does with it.

    Attributes:
        arguments: what the model sends.
        value: the function's value when the call is accepted.
        problems: the problem lines of the refusal (``- at $.x: ...``) when it is refused.
    """

    arguments: dict[str, Any]
    value: str | None = None
    problems: tuple[str, ...] = ()

    @property
    def accepted(self) -> bool:
        """Whether the contract lets the call through."""
        return not self.problems


CASES: dict[str, Case] = {
    "good": Case({"days": 2, "start": "2024-05-01"}, value="2 day(s) from 2024-05-01"),
    "lax": Case({"days": "3"}, value="3 day(s) from None"),
    "unknown": Case(
        {"days": 2, "coupon": "FREE"},
        problems=("- at $.coupon: unknown argument (known: days, start)",),
    ),
    "bad": Case(
        {"days": "two", "start": "someday"},
        problems=(
            "- at $.days: 'two' is not of type 'integer'",
            "- at $.start: 'someday' is not valid under any of the given schemas:"
            " 'someday' is not a 'date'; 'someday' is not of type 'null'",
        ),
    ),
    "missing": Case({}, problems=("- at $.days: required argument missing",)),
}


_TAIL = " could not be used. Fix these problems and call it again:"


def problem_lines(text: str) -> tuple[str, ...]:
    """The problem lines of a refusal's text (its header, naming the function, left out).

    A framework may put words of its own around sktypes' text (Semantic Kernel's loop says
    which function failed, pydantic-ai asks the model to try again): the problem lines are
    the ``- ...`` lines right after the header.
    """
    lines = text.strip().splitlines()
    for i, line in enumerate(lines):
        if "The arguments for " in line and line.endswith(_TAIL):
            found = []
            for problem in lines[i + 1 :]:
                if not problem.startswith("- "):
                    break
                found.append(problem)
            return tuple(found)
    raise AssertionError(f"not a refusal of sktypes: {text!r}")
