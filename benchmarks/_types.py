"""Argument and return types used by the benchmark functions (``_functions.py``).

Realistic tool types: enums of every kind, dataclasses, ``typing_extensions.TypedDict``s,
NamedTuples and pydantic models (nested, recursive, constrained, discriminated unions).
"""

import datetime as dt
import enum
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Literal, NamedTuple, NotRequired, Required
from uuid import UUID

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

# --- enums ----------------------------------------------------------------------------


class Priority(enum.IntEnum):
    """How urgent something is."""

    LOW = 1
    NORMAL = 2
    HIGH = 3


class Color(enum.StrEnum):
    """A named color."""

    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Unit(enum.Enum):
    """A measurement unit."""

    CELSIUS = "celsius"
    KELVIN = "kelvin"
    PASCAL = "pascal"


class CabinClass(str, enum.Enum):  # noqa: UP042 - the pre-3.11 idiom users still write
    """Flight cabin."""

    ECONOMY = "economy"
    PREMIUM = "premium"
    BUSINESS = "business"


class LogLevel(enum.StrEnum):
    """Log severity."""

    DEBUG = "debug"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Weekday(enum.IntEnum):
    """ISO weekday number."""

    MON = 1
    TUE = 2
    WED = 3
    THU = 4
    FRI = 5
    SAT = 6
    SUN = 7


class TravelMode(enum.StrEnum):
    """How to travel."""

    DRIVING = "driving"
    WALKING = "walking"
    CYCLING = "cycling"
    TRANSIT = "transit"


class Carrier(enum.Enum):
    """A parcel carrier."""

    UPS = "ups"
    FEDEX = "fedex"
    DHL = "dhl"


# --- dataclasses, TypedDicts, NamedTuples ---------------------------------------------


@dataclass
class Address:
    """A postal address."""

    street: str
    city: str
    postcode: str
    country: str = "US"


@dataclass
class GeoPoint:
    """A point on Earth."""

    lat: float
    lon: float


@dataclass
class TripStop:
    """One stop of a trip."""

    city: str
    arrive: dt.date
    nights: int = 1
    activities: list[str] = field(default_factory=list)


class LineItem(TypedDict):
    """One order line."""

    sku: str
    quantity: int
    note: NotRequired[str]


class ProductFilters(TypedDict, total=False):
    """Optional product filters."""

    brand: str
    min_price: float
    max_price: float
    in_stock: Required[bool]


class Coordinates(NamedTuple):
    """A map position."""

    x: float
    y: float


class DateRange(NamedTuple):
    """An inclusive date range."""

    start: dt.date
    end: dt.date


# --- pydantic models ----------------------------------------------------------------


class Customer(BaseModel):
    """A customer record."""

    name: str = Field(min_length=1, description="Full name.")
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+$", description="Email address.")
    age: int | None = Field(default=None, ge=0, le=150)


class TreeNode(BaseModel):
    """A node of a category tree."""

    name: str
    children: list["TreeNode"] = Field(default_factory=list)


class OrgUnit(BaseModel):
    """An organisational unit and its sub-units."""

    code: str = Field(pattern=r"^[A-Z]{2,6}$")
    head: str | None = None
    units: list["OrgUnit"] = Field(default_factory=list)


class Circle(BaseModel):
    """A circle."""

    kind: Literal["circle"]
    radius: float = Field(gt=0)


class Rect(BaseModel):
    """A rectangle."""

    kind: Literal["rect"]
    width: float = Field(gt=0)
    height: float = Field(gt=0)


Shape = Annotated[Circle | Rect, Field(discriminator="kind")]


class Cat(BaseModel):
    """A cat."""

    species: Literal["cat"]
    name: str
    indoor: bool = True


class Dog(BaseModel):
    """A dog."""

    species: Literal["dog"]
    name: str
    breed: str | None = None


class AddOp(BaseModel):
    """Add a value at a path."""

    op: Literal["add"]
    path: str
    value: str | int | float | bool | None


class RemoveOp(BaseModel):
    """Remove the value at a path."""

    op: Literal["remove"]
    path: str


class ReplaceOp(BaseModel):
    """Replace the value at a path."""

    op: Literal["replace"]
    path: str
    value: str | int | float | bool | None


PatchOp = Annotated[AddOp | RemoveOp | ReplaceOp, Field(discriminator="op")]


class InvoiceLine(BaseModel):
    """One invoice line."""

    description: str
    quantity: int = Field(ge=1)
    unit_price: Decimal = Field(ge=0)


class Recurrence(BaseModel):
    """How an event repeats."""

    frequency: Literal["daily", "weekly", "monthly"]
    until: dt.date | None = None


class CalendarEvent(BaseModel):
    """A calendar event."""

    title: str
    start: dt.datetime
    end: dt.datetime
    recurrence: Recurrence | None = None
    attendees: list[str] = Field(default_factory=list)


class Contact(BaseModel):
    """A contact."""

    id: UUID
    name: str
    phones: list[str] = Field(default_factory=list)
    address: Address | None = None


class BoundingBox(BaseModel):
    """A box in relative image coordinates."""

    label: str
    x: float = Field(ge=0, le=1)
    y: float = Field(ge=0, le=1)
    w: float = Field(gt=0, le=1)
    h: float = Field(gt=0, le=1)


# --- return models --------------------------------------------------------------------


class OperationResult(BaseModel):
    """Outcome of an operation."""

    ok: bool
    message: str = ""


class WeatherReport(BaseModel):
    """Current weather."""

    city: str
    temperature: float
    unit: Literal["celsius", "fahrenheit"]
    conditions: str


class DateResponse(BaseModel):
    """The date."""

    date: dt.date = Field(description="The date, as YYYY-MM-DD.")


class Product(BaseModel):
    """A product."""

    sku: str
    name: str
    price: Decimal


class SearchResults(BaseModel):
    """A page of search results."""

    items: list[Product]
    total: int
    next_cursor: str | None = None


class OrderConfirmation(BaseModel):
    """A placed order."""

    order_id: UUID
    total: Decimal
    placed_at: dt.datetime


class Meeting(BaseModel):
    """A scheduled meeting."""

    id: UUID
    start: dt.datetime
    end: dt.datetime
    join_url: str | None = None


class Booking(BaseModel):
    """A flight booking."""

    reference: str
    price: Decimal
    cabin: CabinClass


class DeviceState(BaseModel):
    """A smart device's state."""

    device_id: str
    target: float
    mode: str


class Alarm(BaseModel):
    """An alarm."""

    id: int
    at: dt.time
    days: list[Weekday]


class Transfer(BaseModel):
    """A money transfer."""

    id: UUID
    status: Literal["pending", "done", "failed"]
    fee: Decimal


class FileInfo(BaseModel):
    """A file on disk."""

    path: Path
    size: int
    modified: dt.datetime


class RenderResult(BaseModel):
    """A rendered image."""

    png: bytes
    width: int
    height: int


class TreeSummary(BaseModel):
    """How big a tree is."""

    nodes: int
    depth: int


class Route(BaseModel):
    """A route."""

    distance_km: float
    duration: dt.timedelta
    path: list[Coordinates]


class Ticket(BaseModel):
    """A support ticket."""

    id: int
    priority: Priority
    updated: dt.datetime


class Stats(BaseModel):
    """Summary statistics."""

    mean: float
    stdev: float
    percentiles: dict[str, float]


class ImageInfo(BaseModel):
    """An image's size."""

    url: str
    size: tuple[int, int]


class Conversion(BaseModel):
    """A currency conversion."""

    amount: Decimal
    rate: Decimal
    on_date: dt.date


class MessageSent(BaseModel):
    """A sent message."""

    message_id: str
    queued: bool


class LogEntry(BaseModel):
    """One log line."""

    at: dt.datetime
    level: LogLevel
    text: str


class LogPage(BaseModel):
    """A page of log lines."""

    entries: list[LogEntry]
    cursor: str | None = None


class User(BaseModel):
    """A user account."""

    id: UUID
    username: str
    roles: list[str]


class PlaceList(BaseModel):
    """Places near a point."""

    places: list[tuple[str, GeoPoint]]


class Quote(BaseModel):
    """A stock quote."""

    symbol: str
    close: Decimal
    on: dt.date


class Invoice(BaseModel):
    """An invoice."""

    number: str
    customer: Customer
    lines: list[InvoiceLine]
    total: Decimal
    due: dt.date


class Adoption(BaseModel):
    """A pet adoption."""

    pet: Annotated[Cat | Dog, Field(discriminator="species")]
    adopted_on: dt.date


class Translation(BaseModel):
    """Translated text."""

    text: str
    detected_source: str


class QueryResult(BaseModel):
    """Rows returned by a query."""

    columns: list[str]
    rows: list[list[str | int | float | None]]


class Reminder(BaseModel):
    """A reminder."""

    id: int
    at: dt.datetime


class Workout(BaseModel):
    """A logged workout."""

    id: int
    calories: float


class Playlist(BaseModel):
    """A playlist."""

    id: UUID
    name: str
    tracks: int


class Forecast(BaseModel):
    """A weather forecast."""

    days: list[WeatherReport]


class Reservation(BaseModel):
    """A table reservation."""

    confirmation: str
    at: dt.datetime


class TrackingInfo(BaseModel):
    """Where a parcel is."""

    status: Literal["in_transit", "delivered", "exception"]
    eta: dt.date | None = None
    history: list[tuple[dt.datetime, str]]


class Event(BaseModel):
    """A created calendar event."""

    id: UUID
    event: CalendarEvent


class Budget(BaseModel):
    """A budget."""

    category: str
    amount: Decimal
    period: Literal["weekly", "monthly", "yearly"]


class Itinerary(BaseModel):
    """A trip plan."""

    stops: list[TripStop]
    total_cost: Decimal


class ModerationResult(BaseModel):
    """Moderation flags."""

    flagged: bool
    scores: dict[str, float]


class NewsItem(BaseModel):
    """A news headline."""

    title: str
    url: str
    published: dt.datetime


class NewsDigest(BaseModel):
    """A batch of news."""

    items: list[NewsItem]


class Task(BaseModel):
    """A task."""

    id: int
    assignee: str
    due: dt.date | None


class ShippingQuote(BaseModel):
    """A shipping price."""

    price: Decimal
    days: int


class Availability(BaseModel):
    """Free slots."""

    slots: list[DateRange]
