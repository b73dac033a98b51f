"""The cursor of the Handlebars parser (:mod:`._hbs_syntax`): position, backtracking, spaces.

A rule that does not match raises the one internal miss; :meth:`Cursor.attempt` restores
the position, and :attr:`Cursor.furthest` keeps where parsing got furthest (for the error).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["SPACE", "Cursor", "Miss"]


_T = TypeVar("_T")


class Miss(Exception):
    """Internal: an alternative did not match (the parser backtracks)."""


_MISS = Miss()
SPACE = " \t\r\n"


class Cursor:
    """A position in the text with the backtracking primitives of a PEG parser."""

    def __init__(self, text: str, original: Callable[[int], int]) -> None:
        self.text = text
        self.original = original
        self.pos = 0
        self.furthest = 0

    def miss(self, at: int | None = None) -> Miss:
        at = self.pos if at is None else at
        if at > self.furthest:
            self.furthest = at
        # the one instance, raised afresh: a raise adds its frames to the exception's
        # traceback, so a kept one would hold every parser (and its nodes) that ever missed
        return _MISS.with_traceback(None)

    def peek(self, literal: str) -> bool:
        return self.text.startswith(literal, self.pos)

    def expect(self, literal: str) -> None:
        if not self.text.startswith(literal, self.pos):
            raise self.miss()
        self.pos += len(literal)

    def spaces(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos].isspace():
            pos += 1
        self.pos = pos

    def space_run(self) -> bool:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in SPACE:
            pos += 1
        moved = pos > self.pos
        self.pos = pos
        return moved

    def attempt(self, rule: Callable[[], _T]) -> _T | None:
        """``rule()``, or ``None`` with the position restored when it does not match."""
        start = self.pos
        try:
            return rule()
        except Miss:
            self.pos = start
            return None
