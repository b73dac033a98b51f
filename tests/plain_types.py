"""Types defined without ``from __future__ import annotations`` (Python 3.11 TypedDicts
only see ``Required``/``NotRequired`` in evaluated annotations)."""

import typing


class Plain(typing.TypedDict, total=False):
    """A plain typing.TypedDict, which pydantic refuses on Python 3.11."""

    a: int
    b: typing.Required[str]
