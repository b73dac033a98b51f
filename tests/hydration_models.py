"""Types the hydration tests hydrate into (importable as ``tests.hydration_models:Order``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import typing
from decimal import Decimal
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class Status(enum.Enum):
    PENDING = "pending"
    SHIPPED = "shipped"
    DELIVERED = "delivered"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 3


class Item(BaseModel):
    sku: str
    qty: int
    price: float = 0.0


class Order(BaseModel):
    id: int
    customer: str
    items: list[Item]
    status: Status = Status.PENDING
    placed_at: dt.datetime | None = None
    note: str | None = None


class StrictOrder(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    tags: list[str] = Field(default_factory=list)


class Weather(BaseModel):
    city: str
    temp_c: float
    date: dt.date
    sunny: bool = False


class Cat(BaseModel):
    kind: Literal["cat"]
    meows: int


class Dog(BaseModel):
    kind: Literal["dog"]
    barks: bool


class Pet(BaseModel):
    pet: Annotated[Cat | Dog, Field(discriminator="kind")]
    name: str


class Task(BaseModel):
    title: str
    priority: Priority
    due: dt.date | None = None
    estimate: Decimal | None = None


class Movie(typing.TypedDict):
    title: str
    year: int


@dataclasses.dataclass
class Point:
    x: float
    y: float
    label: str = ""


class Node(BaseModel):
    name: str
    children: list[Node] = Field(default_factory=list)
