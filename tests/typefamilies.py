"""Representative types for every family the introspection supports (shared by tests)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import uuid
from collections.abc import Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, Optional, Union

import typing_extensions
from pydantic import BaseModel, Field


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Mode(enum.StrEnum):
    FAST = "fast"
    SAFE = "safe"


@dataclasses.dataclass
class Point:
    """A point on a plane."""

    x: int
    y: int = 0


class Address(typing_extensions.TypedDict):
    street: str
    zip: typing_extensions.NotRequired[str]


class Pair(NamedTuple):
    left: int
    right: str


class Item(BaseModel):
    """An order line."""

    sku: str = Field(min_length=1, max_length=20)
    qty: int = Field(ge=1, le=1000)


class Tree(BaseModel):
    """A recursive model."""

    value: int
    children: list[Tree] = []


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = Field(ge=0, le=9)


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool


class Pet(BaseModel):
    pet: Annotated[Cat | Dog, Field(discriminator="kind")]


# name -> type; every entry is a family the issue lists
FAMILIES: dict[str, Any] = {
    "int": int,
    "float": float,
    "str": str,
    "bool": bool,
    "none": type(None),
    "optional": Optional[int],  # noqa: UP045 - the spelling under test
    "union": Union[int, str],  # noqa: UP007 - the spelling under test
    "pipe_union": int | None,
    "literal": Literal["a", "b", 3],
    "enum": Color,
    "int_enum": Level,
    "str_enum": Mode,
    "list": list[int],
    "fixed_tuple": tuple[int, str],
    "var_tuple": tuple[int, ...],
    "set": set[int],
    "frozenset": frozenset[str],
    "dict": dict[str, int],
    "mapping": Mapping[str, float],
    "sequence": Sequence[str],
    "dataclass": Point,
    "typeddict": Address,
    "namedtuple": Pair,
    "model": Item,
    "recursive_model": Tree,
    "discriminated_union": Pet,
    "datetime": dt.datetime,
    "date": dt.date,
    "time": dt.time,
    "timedelta": dt.timedelta,
    "uuid": uuid.UUID,
    "decimal": Decimal,
    "path": Path,
    "annotated_constraints": Annotated[int, Field(ge=0, le=10)],
    "list_of_models": list[Item],
}
