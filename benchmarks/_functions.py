"""55 realistic tool functions, each with valid and invalid argument objects.

Every parameter is described somewhere (``Annotated[T, "text"]``, ``Field(description=...)``
or the docstring, in Google, NumPy or reST style) and every function documents what it
returns, so a builder that drops a description is caught. The calls are JSON values as a
model would send them; ``CASES`` pairs each function with its calls. Two kinds of invalid
call are derived for every function: one required argument missing, and one unknown extra
argument (unless the function takes ``**kwargs``).
"""

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union
from uuid import UUID

from _types import (
    Address,
    Adoption,
    Alarm,
    Availability,
    Booking,
    BoundingBox,
    Budget,
    CabinClass,
    CalendarEvent,
    Carrier,
    Cat,
    Color,
    Contact,
    Conversion,
    Coordinates,
    Customer,
    DateRange,
    DateResponse,
    DeviceState,
    Dog,
    Event,
    FileInfo,
    Forecast,
    GeoPoint,
    ImageInfo,
    Invoice,
    InvoiceLine,
    Itinerary,
    LineItem,
    LogLevel,
    LogPage,
    Meeting,
    MessageSent,
    ModerationResult,
    NewsDigest,
    OperationResult,
    OrderConfirmation,
    OrgUnit,
    PatchOp,
    PlaceList,
    Playlist,
    Priority,
    ProductFilters,
    QueryResult,
    Quote,
    Reminder,
    RenderResult,
    Reservation,
    Route,
    SearchResults,
    Shape,
    ShippingQuote,
    Stats,
    Task,
    Ticket,
    TrackingInfo,
    Transfer,
    Translation,
    TravelMode,
    TreeNode,
    TreeSummary,
    TripStop,
    Unit,
    User,
    WeatherReport,
    Weekday,
    Workout,
)
from pydantic import Field

__all__ = ["CASES", "EXTRA_KEY", "Case"]

EXTRA_KEY = "unexpected_argument"
U1 = "3f2b8c1e-9d4a-4e7b-8a61-2c5d9e0f1a23"
U2 = "a0c4e5f6-1b2d-4c3e-9f80-7a6b5c4d3e21"


@dataclass
class Case:
    """A function and the calls a model might send it."""

    fn: Any
    valid: list[dict[str, Any]]
    invalid: list[tuple[str, dict[str, Any]]]
    accepts_extra: bool = False
    return_doc: str = ""
    derived: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.fn.__name__)

    def all_invalid(self) -> list[tuple[str, dict[str, Any]]]:
        return self.invalid + self.derived


CASES: list[Case] = []


def case(
    valid: list[dict[str, Any]],
    invalid: list[tuple[str, dict[str, Any]]],
    *,
    required: Sequence[str] = (),
    accepts_extra: bool = False,
    returns: str = "",
) -> Any:
    """Register the decorated function with its calls (and derive two invalid ones)."""

    def register(fn: Any) -> Any:
        c = Case(fn, valid, invalid, accepts_extra, returns)
        base = valid[0]
        for name in required[:1]:
            c.derived.append(("missing required", {k: v for k, v in base.items() if k != name}))
        if not accepts_extra:
            c.derived.append(("unknown extra argument", {**base, EXTRA_KEY: 1}))
        CASES.append(c)
        return fn

    return register


# --- scalars, Annotated, Literal --------------------------------------------------------


@case(
    valid=[{"city": "Paris"}, {"city": "Oslo", "unit": "fahrenheit"}],
    invalid=[
        ("wrong type", {"city": 42}),
        ("enum violation", {"city": "Oslo", "unit": "kelvin"}),
    ],
    required=["city"],
    returns="The current conditions",
)
def get_weather(
    city: Annotated[str, "The city to report on, e.g. 'Paris'."],
    unit: Annotated[Literal["celsius", "fahrenheit"], "Temperature unit."] = "celsius",
) -> WeatherReport:
    """Get the current weather in a city.

    Returns:
        The current conditions in the city.
    """
    raise NotImplementedError


@case(
    valid=[{"numDays": 1}, {"numDays": -3}],
    invalid=[("wrong type", {"numDays": "tomorrow"}), ("wrong type", {"numDays": 1.5})],
    required=["numDays"],
    returns="Successful response",
)
def GetDate1(
    numDays: Annotated[
        int,
        "The number of days to offset the date by from today. Positive for future, negative "
        "for past.",
    ],
) -> DateResponse:
    """Gets the date with the current date offset by the specified number of days.

    Returns:
        Successful response.
    """
    raise NotImplementedError


@case(
    valid=[
        {"query": "usb-c cable"},
        {"query": "desk lamp", "max_results": 50, "category": None},
        {"query": "mug", "category": "kitchen"},
    ],
    invalid=[
        ("constraint violation", {"query": "mug", "max_results": 0}),
        ("constraint violation", {"query": "mug", "max_results": 101}),
        ("wrong type", {"query": ["mug"]}),
    ],
    required=["query"],
    returns="A page of matching products",
)
def search_products(
    query: str,
    max_results: Annotated[int, Field(ge=1, le=100, description="Page size.")] = 10,
    category: str | None = None,
) -> SearchResults:
    """Search the product catalog.

    Args:
        query: Free-text search terms.
        max_results: How many products to return.
        category: Restrict to this category, or null for all.

    Returns:
        A page of matching products.
    """
    raise NotImplementedError


@case(
    valid=[{"a": 1.5, "b": 2}, {"a": -1, "b": 0, "op": "div"}],
    invalid=[
        ("enum violation", {"a": 1, "b": 2, "op": "pow"}),
        ("wrong type", {"a": "one", "b": 2}),
        ("wrong type", {"a": 1, "b": True, "op": 3}),
    ],
    required=["a", "b"],
    returns="The result of the operation",
)
def calculate(
    a: float, b: float, op: Literal["add", "sub", "mul", "div"] = "add"
) -> OperationResult:
    """Apply an arithmetic operation to two numbers.

    Parameters
    ----------
    a : float
        Left operand.
    b : float
        Right operand.
    op : str
        The operation.

    Returns
    -------
    OperationResult
        The result of the operation, as a message.
    """
    raise NotImplementedError


@case(
    valid=[{"text": "hello", "target_language": "fr"}, {"text": "hi", "target_language": "ja"}],
    invalid=[
        ("enum violation", {"text": "hi", "target_language": "klingon"}),
        ("enum violation", {"text": "hi", "target_language": "de", "formality": "casual"}),
        ("wrong type", {"text": None, "target_language": "de"}),
    ],
    required=["text", "target_language"],
    returns="The translated text",
)
def translate(
    text: Annotated[str, "The text to translate."],
    target_language: Annotated[Literal["en", "fr", "de", "es", "ja"], "ISO 639-1 code."],
    formality: Annotated[Literal["formal", "informal"] | None, "Register, if any."] = None,
) -> Translation:
    """Translate text into another language.

    Returns:
        The translated text and the detected source language.
    """
    raise NotImplementedError


@case(
    valid=[{"flag": "dark_mode", "value": True}, {"flag": "max_tabs", "value": 12}],
    invalid=[
        ("wrong type", {"flag": "x", "value": [1]}),
        ("wrong type", {"flag": 3, "value": 1}),
    ],
    required=["flag", "value"],
    returns="Whether the flag was set",
)
def set_flag(flag: str, value: Union[bool, int, str]) -> OperationResult:  # noqa: UP007
    """Set a feature flag.

    :param flag: The flag's name.
    :param value: Its new value: a switch, a number or a word.
    :returns: Whether the flag was set.
    """
    raise NotImplementedError


@case(
    valid=[{"user_id": 7}, {"user_id": 7, "reason": None}, {"user_id": 7, "reason": "spam"}],
    invalid=[("wrong type", {"user_id": "seven"}), ("wrong type", {"user_id": 7, "reason": 5})],
    required=["user_id"],
    returns="Whether the user was suspended",
)
def suspend_user(user_id: int, reason: Optional[str] = None) -> OperationResult:  # noqa: UP045
    """Suspend a user account.

    Args:
        user_id: The account to suspend.
        reason: Why, shown to the user.

    Returns:
        Whether the user was suspended.
    """
    raise NotImplementedError


@case(
    valid=[{"note_id": 1, "text": None}, {"note_id": 2, "text": "new text"}],
    invalid=[("missing required", {"note_id": 1}), ("wrong type", {"note_id": 1, "text": 3})],
    required=["note_id"],
    returns="Whether the note changed",
)
def edit_note(note_id: int, text: str | None) -> OperationResult:
    """Replace a note's text; null clears it.

    Args:
        note_id: The note.
        text: The new text, or null to clear it (required: say it explicitly).

    Returns:
        Whether the note changed.
    """
    raise NotImplementedError


# --- enums ------------------------------------------------------------------------------


@case(
    valid=[{"ticket_id": 12, "priority": 3}, {"ticket_id": 1, "priority": 1}],
    invalid=[
        ("enum violation", {"ticket_id": 12, "priority": 5}),
        ("wrong type", {"ticket_id": 12, "priority": "urgent"}),
    ],
    required=["ticket_id", "priority"],
    returns="The updated ticket",
)
def set_priority(
    ticket_id: Annotated[int, "The ticket number."],
    priority: Annotated[Priority, "1 = low, 2 = normal, 3 = high."],
) -> Ticket:
    """Change a ticket's priority.

    Returns:
        The updated ticket.
    """
    raise NotImplementedError


@case(
    valid=[{"primary": "red"}, {"primary": "blue", "secondary": "green"}],
    invalid=[
        ("enum violation", {"primary": "purple"}),
        ("enum violation", {"primary": "red", "secondary": "RED"}),
    ],
    required=["primary"],
    returns="Whether the scheme was applied",
)
def set_color_scheme(primary: Color, secondary: Color | None = None) -> OperationResult:
    """Set the UI color scheme.

    Args:
        primary: Main color.
        secondary: Accent color.

    Returns:
        Whether the scheme was applied.
    """
    raise NotImplementedError


@case(
    valid=[
        {"sensor_id": U1, "value": 21.5, "unit": "celsius", "at": "2024-05-01T10:00:00Z"},
        {"sensor_id": U2, "value": 101325, "unit": "pascal", "at": "2024-05-01T10:00:00+02:00"},
    ],
    invalid=[
        ("enum violation", {"sensor_id": U1, "value": 1, "unit": "F", "at": "2024-05-01T10:00Z"}),
        ("bad uuid", {"sensor_id": "abc", "value": 1, "unit": "kelvin", "at": "2024-05-01T10:00Z"}),
        ("bad date", {"sensor_id": U1, "value": 1, "unit": "kelvin", "at": "yesterday"}),
    ],
    required=["sensor_id", "value", "unit", "at"],
    returns="Whether the value was stored",
)
def record_measurement(
    sensor_id: UUID, value: float, unit: Unit, at: dt.datetime
) -> OperationResult:
    """Record a sensor reading.

    Parameters
    ----------
    sensor_id : UUID
        The sensor.
    value : float
        The reading.
    unit : Unit
        Its unit.
    at : datetime
        When it was read (with a UTC offset).

    Returns
    -------
    OperationResult
        Whether the value was stored.
    """
    raise NotImplementedError


@case(
    valid=[
        {"service": "api", "since": "2024-05-01T00:00:00Z", "level": "error"},
        {"service": "db", "since": "2024-05-01T00:00:00Z", "level": "info", "limit": 10},
    ],
    invalid=[
        ("enum violation", {"service": "api", "since": "2024-05-01T00:00:00Z", "level": "fatal"}),
        ("bad date", {"service": "api", "since": "2024-13-01T00:00:00Z", "level": "info"}),
        ("wrong type", {"service": "api", "since": ["2024-05-01"], "level": "info"}),
    ],
    required=["service", "since", "level"],
    returns="A page of log entries",
)
def query_logs(
    service: str,
    since: dt.datetime,
    level: LogLevel,
    until: dt.datetime | None = None,
    limit: int = 100,
) -> LogPage:
    """Search a service's logs.

    :param service: Service name.
    :param since: Start of the window.
    :param level: Minimum severity.
    :param until: End of the window; now when null.
    :param limit: Maximum number of entries.
    :returns: A page of log entries, newest first.
    """
    raise NotImplementedError


@case(
    valid=[{"tracking_number": "1Z999AA10123456784", "carrier": "ups"}],
    invalid=[
        ("enum violation", {"tracking_number": "1Z999AA10123456784", "carrier": "usps"}),
        ("constraint violation", {"tracking_number": "abc", "carrier": "dhl"}),
    ],
    required=["tracking_number", "carrier"],
    returns="Where the parcel is",
)
def track_package(
    tracking_number: Annotated[
        str, Field(pattern=r"^[A-Z0-9]{10,20}$", description="The carrier's tracking number.")
    ],
    carrier: Annotated[Carrier, "Who ships it."],
) -> TrackingInfo:
    """Track a parcel.

    Returns:
        Where the parcel is, with its history.
    """
    raise NotImplementedError


# --- collections ------------------------------------------------------------------------


@case(
    valid=[{"item_ids": [1, 2], "tags": ["sale"]}, {"item_ids": [], "tags": []}],
    invalid=[
        ("wrong type", {"item_ids": ["one", 2], "tags": ["sale"]}),
        ("wrong type", {"item_ids": [1], "tags": "sale"}),
    ],
    required=["item_ids", "tags"],
    returns="Whether the items were tagged",
)
def tag_items(item_ids: list[int], tags: frozenset[str]) -> OperationResult:
    """Add tags to items.

    Args:
        item_ids: The items.
        tags: Tags to add (no duplicates).

    Returns:
        Whether the items were tagged.
    """
    raise NotImplementedError


@case(
    valid=[{"settings": {"dark_mode": True, "beta": False}}, {"settings": {}}],
    invalid=[
        ("wrong type", {"settings": {"dark_mode": "maybe"}}),
        ("wrong type", {"settings": []}),
    ],
    required=["settings"],
    returns="Whether the settings were saved",
)
def update_settings(settings: dict[str, bool]) -> OperationResult:
    """Update boolean user settings.

    Args:
        settings: Setting name to its new value.

    Returns:
        Whether the settings were saved.
    """
    raise NotImplementedError


@case(
    valid=[{"resource": "vm-1", "labels": {"env": "prod"}}],
    invalid=[("wrong type", {"resource": "vm-1", "labels": {"env": 1}})],
    required=["resource", "labels"],
    returns="Whether the labels were set",
)
def set_labels(resource: str, labels: Mapping[str, str]) -> OperationResult:
    """Set labels on a cloud resource.

    Args:
        resource: Resource id.
        labels: Label keys and values.

    Returns:
        Whether the labels were set.
    """
    raise NotImplementedError


@case(
    valid=[{"values": [1, 2.5, 3]}, {"values": [1], "percentiles": [50, 99]}],
    invalid=[
        ("wrong type", {"values": [1, "two"]}),
        ("wrong type", {"values": 3}),
        ("wrong type", {"values": [1], "percentiles": "50"}),
    ],
    required=["values"],
    returns="Mean, deviation and percentiles",
)
def compute_stats(values: Sequence[float], percentiles: tuple[float, ...] = (50.0, 90.0)) -> Stats:
    """Compute summary statistics.

    Args:
        values: The sample.
        percentiles: Which percentiles to report.

    Returns:
        Mean, deviation and percentiles of the sample.
    """
    raise NotImplementedError


@case(
    valid=[{"image_url": "https://x/a.png", "size": [640, 480]}],
    invalid=[
        ("wrong type", {"image_url": "https://x/a.png", "size": [640]}),
        ("wrong type", {"image_url": "https://x/a.png", "size": [640, 480, 3]}),
        ("wrong type", {"image_url": "https://x/a.png", "size": ["wide", 480]}),
    ],
    required=["image_url", "size"],
    returns="The resized image",
)
def resize_image(
    image_url: str,
    size: Annotated[tuple[int, int], "Width and height in pixels."],
    keep_aspect: bool = True,
) -> ImageInfo:
    """Resize an image.

    Args:
        image_url: Where the image is.
        keep_aspect: Pad instead of stretching.

    Returns:
        The resized image.
    """
    raise NotImplementedError


@case(
    valid=[{"alarm_at": "07:30:00", "days": [1, 2, 3]}, {"alarm_at": "22:00:00", "days": []}],
    invalid=[
        ("enum violation", {"alarm_at": "07:30:00", "days": [8]}),
        ("bad date", {"alarm_at": "25:99", "days": [1]}),
    ],
    required=["alarm_at", "days"],
    returns="The alarm",
)
def set_alarm(
    alarm_at: Annotated[dt.time, "Local time of day."],
    days: Annotated[set[Weekday], "ISO weekdays it rings on."],
) -> Alarm:
    """Set a repeating alarm.

    Returns:
        The alarm.
    """
    raise NotImplementedError


@case(
    valid=[{"flags": {"a": True, "b": 3, "c": "x"}}],
    invalid=[("wrong type", {"flags": {"a": [1]}}), ("wrong type", {"flags": "a=1"})],
    required=["flags"],
    returns="Whether the flags were stored",
)
def set_feature_flags(flags: dict[str, bool | int | str]) -> OperationResult:
    """Store several feature flags at once.

    Args:
        flags: Flag name to value.

    Returns:
        Whether the flags were stored.
    """
    raise NotImplementedError


@case(
    valid=[
        {"query": "select 1"},
        {"query": "select ?", "params": [1, "a", None], "timeout": "PT5S"},
    ],
    invalid=[
        ("wrong type", {"query": "select ?", "params": [[1]]}),
        ("wrong type", {"query": 1}),
    ],
    required=["query"],
    returns="The rows",
)
def run_sql(
    query: Annotated[str, "A read-only SQL statement."],
    params: Annotated[
        list[str | int | float | None], Field(description="Positional parameters.")
    ] = Field(default_factory=list),  # noqa: B008
    timeout: Annotated[dt.timedelta, "Give up after this long (ISO 8601 duration)."] = (
        dt.timedelta(seconds=30)
    ),
) -> QueryResult:
    """Run a read-only SQL query.

    Returns:
        The rows, with column names.
    """
    raise NotImplementedError


# --- dates, times, UUID, Decimal, bytes, Path ---------------------------------------------


@case(
    valid=[
        {
            "title": "Sync",
            "start": "2024-05-01T10:00:00Z",
            "duration": "PT30M",
            "attendees": ["a@x.io"],
        },
        {
            "title": "Review",
            "start": "2024-05-01T10:00:00+02:00",
            "duration": "PT1H",
            "attendees": [],
            "location": "Room 4",
        },
    ],
    invalid=[
        ("bad date", {"title": "S", "start": "tomorrow 10am", "duration": "PT1H", "attendees": []}),
        ("wrong type", {"title": "S", "start": "2024-05-01T10:00:00Z", "duration": "PT1H"}),
        (
            "wrong type",
            {"title": 1, "start": "2024-05-01T10:00:00Z", "duration": "PT1H", "attendees": []},
        ),
    ],
    required=["title", "start", "duration", "attendees"],
    returns="The meeting",
)
def schedule_meeting(
    title: str,
    start: dt.datetime,
    duration: dt.timedelta,
    attendees: list[str],
    location: str | None = None,
) -> Meeting:
    """Schedule a meeting.

    Args:
        title: Subject line.
        start: Start time with a UTC offset.
        duration: Length, as an ISO 8601 duration.
        attendees: Email addresses to invite.
        location: Room or address.

    Returns:
        The meeting, with its join link.
    """
    raise NotImplementedError


@case(
    valid=[
        {"origin": "CDG", "destination": "JFK", "departure": "2024-07-01"},
        {
            "origin": "OSL",
            "destination": "LHR",
            "departure": "2024-07-01",
            "return_date": "2024-07-09",
            "cabin": "business",
            "passengers": 2,
        },
    ],
    invalid=[
        (
            "constraint violation",
            {"origin": "Paris", "destination": "JFK", "departure": "2024-07-01"},
        ),
        ("bad date", {"origin": "CDG", "destination": "JFK", "departure": "2024-02-30"}),
        (
            "enum violation",
            {"origin": "CDG", "destination": "JFK", "departure": "2024-07-01", "cabin": "first"},
        ),
        (
            "constraint violation",
            {"origin": "CDG", "destination": "JFK", "departure": "2024-07-01", "passengers": 0},
        ),
    ],
    required=["origin", "destination", "departure"],
    returns="The booking",
)
def book_flight(
    origin: Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="IATA airport code.")],
    destination: Annotated[str, Field(pattern=r"^[A-Z]{3}$", description="IATA airport code.")],
    departure: Annotated[dt.date, "Outbound date."],
    return_date: Annotated[dt.date | None, "Return date, null for one-way."] = None,
    cabin: Annotated[CabinClass, "Cabin class."] = CabinClass.ECONOMY,
    passengers: int = Field(default=1, ge=1, le=9, description="Number of travellers."),
) -> Booking:
    """Book a flight.

    Returns:
        The booking reference and price.
    """
    raise NotImplementedError


@case(
    valid=[
        {"from_account": "A1", "to_account": "B2", "amount": "125.50", "currency": "EUR"},
        {"from_account": "A1", "to_account": "B2", "amount": 99.99, "currency": "USD"},
    ],
    invalid=[
        (
            "wrong type",
            {"from_account": "A1", "to_account": "B2", "amount": "lots", "currency": "EUR"},
        ),
        (
            "enum violation",
            {"from_account": "A1", "to_account": "B2", "amount": 1, "currency": "BTC"},
        ),
        (
            "constraint violation",
            {"from_account": "A1", "to_account": "B2", "amount": -5, "currency": "EUR"},
        ),
    ],
    required=["from_account", "to_account", "amount", "currency"],
    returns="The transfer",
)
def transfer_funds(
    from_account: str,
    to_account: str,
    amount: Annotated[Decimal, Field(gt=0)],
    currency: Literal["USD", "EUR", "GBP"],
) -> Transfer:
    """Transfer money between accounts.

    Parameters
    ----------
    from_account : str
        Debited account.
    to_account : str
        Credited account.
    amount : Decimal
        Positive amount, as a number or a decimal string.
    currency : str
        ISO 4217 code.

    Returns
    -------
    Transfer
        The transfer and its status.
    """
    raise NotImplementedError


@case(
    valid=[
        {"path": "/tmp/a.txt", "content": "hello"},
        {"path": "b.txt", "content": "", "overwrite": True},
    ],
    invalid=[
        ("wrong type", {"path": 5, "content": "x"}),
        ("wrong type", {"path": "a", "content": 5}),
    ],
    required=["path", "content"],
    returns="The written file",
)
def upload_file(path: Path, content: bytes, overwrite: bool = False) -> FileInfo:
    """Write a file.

    Args:
        path: Destination path.
        content: File content (UTF-8 text).
        overwrite: Replace an existing file.

    Returns:
        The written file.
    """
    raise NotImplementedError


@case(
    valid=[{"symbol": "MSFT", "on": "2024-03-28"}],
    invalid=[
        ("bad date", {"symbol": "MSFT", "on": "28/03/2024"}),
        ("wrong type", {"symbol": "MSFT", "on": 20240328}),
    ],
    required=["symbol", "on"],
    returns="The closing price",
)
def get_stock_price(
    symbol: Annotated[str, "Ticker symbol."], on: Annotated[dt.date, "Trading day."]
) -> Quote:
    """Get a stock's closing price.

    Returns:
        The closing price on that day.
    """
    raise NotImplementedError


@case(
    valid=[
        {"amount": 10, "from_currency": "USD", "to_currency": "EUR"},
        {"amount": 10.5, "from_currency": "USD", "to_currency": "JPY", "on_date": "2023-12-31"},
    ],
    invalid=[
        (
            "bad date",
            {"amount": 1, "from_currency": "USD", "to_currency": "EUR", "on_date": "last week"},
        ),
        ("wrong type", {"amount": "ten", "from_currency": "USD", "to_currency": "EUR"}),
    ],
    required=["amount", "from_currency", "to_currency"],
    returns="The converted amount",
)
def convert_currency(
    amount: float, from_currency: str, to_currency: str, on_date: dt.date | None = None
) -> Conversion:
    """Convert an amount between currencies.

    :param amount: Amount in the source currency.
    :param from_currency: Source ISO 4217 code.
    :param to_currency: Target ISO 4217 code.
    :param on_date: Historical rate date; today when null.
    :returns: The converted amount and the rate used.
    """
    raise NotImplementedError


@case(
    valid=[
        {"text": "Call mom", "at": "2024-05-01T18:00:00Z"},
        {"text": "x", "at": "2024-05-01T18:00:00-05:00", "tz": "America/New_York"},
        {"text": "naive local time", "at": "2024-05-01T18:00:00"},
    ],
    invalid=[
        ("bad date", {"text": "Call mom", "at": "2024-05-01 6pm"}),
        ("wrong type", {"text": ["a"], "at": "2024-05-01T18:00:00Z"}),
    ],
    required=["text", "at"],
    returns="The reminder",
)
def set_reminder(text: str, at: dt.datetime, tz: str = "UTC") -> Reminder:
    """Create a reminder.

    Args:
        text: What to remind.
        at: When, with a UTC offset.
        tz: Time zone used to display it.

    Returns:
        The reminder.
    """
    raise NotImplementedError


@case(
    valid=[
        {"kind": "run", "duration": "PT45M", "day": "2024-05-01"},
        {"kind": "swim", "duration": "PT1H", "day": "2024-05-02", "distance_km": 2},
    ],
    invalid=[
        ("enum violation", {"kind": "dance", "duration": "PT45M", "day": "2024-05-01"}),
        ("bad date", {"kind": "run", "duration": "PT45M", "day": "May 1"}),
    ],
    required=["kind", "duration", "day"],
    returns="The workout",
)
def log_workout(
    kind: Literal["run", "ride", "swim"],
    duration: dt.timedelta,
    day: dt.date,
    distance_km: Annotated[float, Field(ge=0)] | None = None,
) -> Workout:
    """Log a workout.

    Parameters
    ----------
    kind : str
        Activity.
    duration : timedelta
        Moving time.
    day : date
        When.
    distance_km : float, optional
        Distance covered.

    Returns
    -------
    Workout
        The workout, with estimated calories.
    """
    raise NotImplementedError


@case(
    valid=[
        {"name": "Focus", "track_ids": [U1, U2]},
        {"name": "Empty", "track_ids": [], "public": True},
    ],
    invalid=[
        ("bad uuid", {"name": "Focus", "track_ids": ["not-a-uuid"]}),
        ("wrong type", {"name": "Focus", "track_ids": U1}),
    ],
    required=["name", "track_ids"],
    returns="The playlist",
)
def create_playlist(
    name: Annotated[str, Field(min_length=1, max_length=100, description="Playlist title.")],
    track_ids: Annotated[list[UUID], "Tracks, in order."],
    public: Annotated[bool, "Visible to everyone."] = False,
) -> Playlist:
    """Create a playlist.

    Returns:
        The playlist.
    """
    raise NotImplementedError


@case(
    valid=[
        {"paths": ["a.txt", "b/c.txt"], "archive": "out.zip"},
        {"paths": [], "archive": "o.zip", "level": 9},
    ],
    invalid=[
        ("constraint violation", {"paths": ["a"], "archive": "o.zip", "level": 10}),
        ("wrong type", {"paths": "a.txt", "archive": "o.zip"}),
    ],
    required=["paths", "archive"],
    returns="The archive",
)
def compress(
    paths: list[Path],
    archive: Path,
    level: Annotated[int, Field(ge=0, le=9, description="Compression level.")] = 6,
) -> FileInfo:
    """Compress files into a zip archive.

    Args:
        paths: Files to include.
        archive: Archive to write.

    Returns:
        The archive.
    """
    raise NotImplementedError


@case(
    valid=[
        {"directory": "/var/log"},
        {"directory": ".", "pattern": "*.py", "recursive": True, "max_depth": 3},
    ],
    invalid=[
        ("wrong type", {"directory": ".", "recursive": "yes please"}),
        ("wrong type", {"directory": ".", "max_depth": 2.5}),
    ],
    required=["directory"],
    returns="The files found",
)
def list_files(
    directory: Path, pattern: str = "*", recursive: bool = False, max_depth: int | None = None
) -> list[FileInfo]:
    """List files in a directory.

    Args:
        directory: Where to look.
        pattern: Glob pattern.
        recursive: Descend into sub-directories.
        max_depth: Depth limit when recursive.

    Returns:
        The files found, sorted by path.
    """
    raise NotImplementedError


@case(
    valid=[{"room": "R1", "during": ["2024-05-01", "2024-05-03"]}],
    invalid=[
        ("bad date", {"room": "R1", "during": ["2024-05-01", "soon"]}),
        ("wrong type", {"room": "R1", "during": ["2024-05-01"]}),
    ],
    required=["room", "during"],
    returns="Free slots",
)
def check_availability(room: str, during: DateRange) -> Availability:
    """Check when a room is free.

    Args:
        room: Room id.
        during: First and last day to check.

    Returns:
        Free slots in the range.
    """
    raise NotImplementedError


# --- dataclasses, TypedDicts, NamedTuples -----------------------------------------------


@case(
    valid=[
        {
            "customer_id": U1,
            "items": [{"sku": "A-1", "quantity": 2}],
            "shipping": {"street": "1 Main St", "city": "Springfield", "postcode": "12345"},
        },
        {
            "customer_id": U2,
            "items": [{"sku": "B", "quantity": 1, "note": "gift"}],
            "shipping": {"street": "2 Rue", "city": "Paris", "postcode": "75001", "country": "FR"},
            "notes": "leave at door",
        },
    ],
    invalid=[
        (
            "wrong type",
            {
                "customer_id": U1,
                "items": [{"sku": "A-1", "quantity": "two"}],
                "shipping": {"street": "1", "city": "S", "postcode": "1"},
            },
        ),
        (
            "missing required",
            {
                "customer_id": U1,
                "items": [{"sku": "A-1"}],
                "shipping": {"street": "1", "city": "S", "postcode": "1"},
            },
        ),
        (
            "missing required",
            {"customer_id": U1, "items": [], "shipping": {"street": "1", "city": "S"}},
        ),
        (
            "bad uuid",
            {
                "customer_id": "42",
                "items": [],
                "shipping": {"street": "1", "city": "S", "postcode": "1"},
            },
        ),
    ],
    required=["customer_id", "items", "shipping"],
    returns="The order confirmation",
)
def create_order(
    customer_id: UUID, items: list[LineItem], shipping: Address, notes: str | None = None
) -> OrderConfirmation:
    """Place an order.

    Args:
        customer_id: Who orders.
        items: What to ship.
        shipping: Where to ship.
        notes: Instructions for the courier.

    Returns:
        The order confirmation.
    """
    raise NotImplementedError


@case(
    valid=[
        {"filters": {"in_stock": True}},
        {"filters": {"in_stock": False, "brand": "Acme", "max_price": 20}},
    ],
    invalid=[
        ("missing required", {"filters": {"brand": "Acme"}}),
        ("wrong type", {"filters": {"in_stock": True, "min_price": "cheap"}}),
    ],
    required=["filters"],
    returns="Matching products",
)
def filter_products(filters: ProductFilters) -> SearchResults:
    """List products matching filters.

    Args:
        filters: Brand, price range and stock filters.

    Returns:
        Matching products.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "address": {
                "street": "1600 Amphitheatre Pkwy",
                "city": "Mountain View",
                "postcode": "94043",
            }
        }
    ],
    invalid=[
        ("missing required", {"address": {"street": "x", "postcode": "1"}}),
        ("wrong type", {"address": "1600 Amphitheatre Pkwy"}),
    ],
    required=["address"],
    returns="The coordinates",
)
def geocode(address: Annotated[Address, "The postal address to locate."]) -> GeoPoint:
    """Find the coordinates of an address.

    Returns:
        The coordinates of the address.
    """
    raise NotImplementedError


@case(
    valid=[{"center": {"lat": 48.85, "lon": 2.35}, "radius_km": 2, "kinds": ["cafe"]}],
    invalid=[
        (
            "constraint violation",
            {"center": {"lat": 48.85, "lon": 2.35}, "radius_km": 0, "kinds": []},
        ),
        (
            "enum violation",
            {"center": {"lat": 48.85, "lon": 2.35}, "radius_km": 1, "kinds": ["zoo"]},
        ),
        ("wrong type", {"center": {"lat": "north", "lon": 2.35}, "radius_km": 1, "kinds": []}),
    ],
    required=["center", "radius_km", "kinds"],
    returns="Places near the point",
)
def nearby_places(
    center: GeoPoint,
    radius_km: Annotated[float, Field(gt=0, le=50)],
    kinds: list[Literal["cafe", "restaurant", "museum", "park"]],
) -> PlaceList:
    """Find places near a point.

    Args:
        center: Where to search.
        radius_km: Search radius in km.
        kinds: Kinds of place.

    Returns:
        Places near the point.
    """
    raise NotImplementedError


@case(
    valid=[{"points": [[0, 0], [1.5, 2]], "mode": "walking"}],
    invalid=[
        ("enum violation", {"points": [[0, 0]], "mode": "flying"}),
        ("wrong type", {"points": [[0, 0, 1]], "mode": "driving"}),
        ("wrong type", {"points": [["a", 0]], "mode": "driving"}),
    ],
    required=["points", "mode"],
    returns="The route",
)
def get_route(points: list[Coordinates], mode: TravelMode = TravelMode.DRIVING) -> Route:
    """Plan a route through points.

    Args:
        points: Waypoints as [x, y] pairs.
        mode: How to travel.

    Returns:
        The route, with its duration.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "stops": [
                {"city": "Rome", "arrive": "2024-06-01"},
                {"city": "Florence", "arrive": "2024-06-04", "nights": 2, "activities": ["Uffizi"]},
            ]
        }
    ],
    invalid=[
        ("bad date", {"stops": [{"city": "Rome", "arrive": "June"}]}),
        ("wrong type", {"stops": [{"city": "Rome", "arrive": "2024-06-01", "nights": "two"}]}),
    ],
    required=["stops"],
    returns="The itinerary",
)
def plan_trip(
    stops: list[TripStop], budget: Decimal | None = None, travelers: int = 1
) -> Itinerary:
    """Plan a multi-city trip.

    Args:
        stops: Cities in order.
        budget: Total budget, if any.
        travelers: Number of people.

    Returns:
        The itinerary and its cost.
    """
    raise NotImplementedError


# --- pydantic models: nested, recursive, constrained, discriminated ------------------------


@case(
    valid=[
        {"customer": {"name": "Ada", "email": "ada@x.io"}},
        {"customer": {"name": "Bo", "email": "bo@y.org", "age": 40}},
    ],
    invalid=[
        ("constraint violation", {"customer": {"name": "Ada", "email": "not an email"}}),
        ("constraint violation", {"customer": {"name": "Ada", "email": "a@x.io", "age": -1}}),
        ("missing required", {"customer": {"name": "Ada"}}),
    ],
    required=["customer"],
    returns="The stored customer",
)
def update_customer(customer: Customer) -> Customer:
    """Create or update a customer.

    Args:
        customer: The customer record.

    Returns:
        The stored customer.
    """
    raise NotImplementedError


@case(
    valid=[
        {"tree": {"name": "root"}},
        {"tree": {"name": "root", "children": [{"name": "a", "children": [{"name": "b"}]}]}},
    ],
    invalid=[
        ("wrong type", {"tree": {"name": "root", "children": [{"name": 1}]}}),
        ("missing required", {"tree": {"children": []}}),
    ],
    required=["tree"],
    returns="The tree's size",
)
def add_category_tree(tree: Annotated[TreeNode, "The categories, nested."]) -> TreeSummary:
    """Import a category tree.

    Returns:
        The tree's size and depth.
    """
    raise NotImplementedError


@case(
    valid=[{"unit": {"code": "ENG", "units": [{"code": "QA", "head": "Kim"}]}}],
    invalid=[
        ("constraint violation", {"unit": {"code": "ENG", "units": [{"code": "qa"}]}}),
        ("wrong type", {"unit": {"code": "ENG", "units": {"code": "QA"}}}),
    ],
    required=["unit"],
    returns="The unit tree's size",
)
def add_org_unit(unit: OrgUnit) -> TreeSummary:
    """Add an organisational unit with its sub-units.

    :param unit: The unit and its sub-units.
    :returns: The unit tree's size.
    """
    raise NotImplementedError


@case(
    valid=[
        {"shape": {"kind": "circle", "radius": 2}, "color": "red"},
        {"shape": {"kind": "rect", "width": 1, "height": 2}, "color": "blue"},
    ],
    invalid=[
        ("enum violation", {"shape": {"kind": "triangle", "radius": 2}, "color": "red"}),
        ("constraint violation", {"shape": {"kind": "circle", "radius": -2}, "color": "red"}),
        ("missing required", {"shape": {"kind": "rect", "width": 1}, "color": "red"}),
    ],
    required=["shape", "color"],
    returns="The rendered PNG",
)
def draw_shape(shape: Shape, color: Annotated[Color, "Fill color."]) -> RenderResult:
    """Render a shape.

    Args:
        shape: A circle or a rectangle.

    Returns:
        The rendered PNG.
    """
    raise NotImplementedError


@case(
    valid=[
        {"pet": {"species": "cat", "name": "Tom"}},
        {"pet": {"species": "dog", "name": "Rex", "breed": "collie"}},
    ],
    invalid=[
        ("enum violation", {"pet": {"species": "fish", "name": "Nemo"}}),
        ("missing required", {"pet": {"species": "dog"}}),
    ],
    required=["pet"],
    returns="The adoption",
)
def adopt_pet(
    pet: Annotated[Cat | Dog, Field(discriminator="species", description="The pet.")],
) -> Adoption:
    """Register an adoption.

    Returns:
        The adoption record.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "doc_id": 1,
            "ops": [{"op": "add", "path": "/a", "value": 1}, {"op": "remove", "path": "/b"}],
        }
    ],
    invalid=[
        ("enum violation", {"doc_id": 1, "ops": [{"op": "move", "path": "/a"}]}),
        ("missing required", {"doc_id": 1, "ops": [{"op": "replace", "path": "/a"}]}),
    ],
    required=["doc_id", "ops"],
    returns="Whether the patch applied",
)
def apply_patch(doc_id: int, ops: list[PatchOp]) -> OperationResult:
    """Apply a JSON patch to a document.

    Args:
        doc_id: The document.
        ops: Operations, applied in order.

    Returns:
        Whether the patch applied.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "customer": {"name": "Ada", "email": "a@x.io"},
            "lines": [{"description": "Consulting", "quantity": 3, "unit_price": "150.00"}],
            "due": "2024-06-30",
        },
        {
            "customer": {"name": "Bo", "email": "b@x.io"},
            "lines": [],
            "due": "2024-06-30",
            "discount": 10,
        },
    ],
    invalid=[
        (
            "constraint violation",
            {
                "customer": {"name": "Ada", "email": "a@x.io"},
                "lines": [{"description": "X", "quantity": 0, "unit_price": 1}],
                "due": "2024-06-30",
            },
        ),
        (
            "bad date",
            {"customer": {"name": "Ada", "email": "a@x.io"}, "lines": [], "due": "end of month"},
        ),
    ],
    required=["customer", "lines", "due"],
    returns="The invoice",
)
def create_invoice(
    customer: Customer, lines: list[InvoiceLine], due: dt.date, discount: Decimal | None = None
) -> Invoice:
    """Create an invoice.

    Parameters
    ----------
    customer : Customer
        Who pays.
    lines : list of InvoiceLine
        What is billed.
    due : date
        Payment due date.
    discount : Decimal, optional
        Percentage off.

    Returns
    -------
    Invoice
        The invoice, with its total.
    """
    raise NotImplementedError


@case(
    valid=[{"movie_id": U1, "stars": 5}, {"movie_id": U2, "stars": 1, "review": "meh"}],
    invalid=[
        ("constraint violation", {"movie_id": U1, "stars": 6}),
        ("bad uuid", {"movie_id": "tt0111161", "stars": 5}),
    ],
    required=["movie_id", "stars"],
    returns="Whether the rating was saved",
)
def rate_movie(
    movie_id: UUID,
    stars: Annotated[int, Field(ge=1, le=5, description="1 to 5 stars.")],
    review: str | None = None,
) -> OperationResult:
    """Rate a movie.

    Args:
        movie_id: The movie.
        review: Optional review text.

    Returns:
        Whether the rating was saved.
    """
    raise NotImplementedError


@case(
    valid=[
        {"username": "ada_l", "email": "ada@x.io", "age": 36},
        {"username": "bob", "email": "b@x.io", "age": 13, "roles": ["admin"]},
    ],
    invalid=[
        ("constraint violation", {"username": "al", "email": "a@x.io", "age": 30}),
        ("constraint violation", {"username": "ada", "email": "a@x.io", "age": 12}),
        ("enum violation", {"username": "ada", "email": "a@x.io", "age": 30, "roles": ["root"]}),
    ],
    required=["username", "email", "age"],
    returns="The new user",
)
def create_user(
    username: Annotated[
        str, Field(min_length=3, max_length=32, pattern=r"^[a-z0-9_]+$", description="Login name.")
    ],
    email: Annotated[str, "Contact email."],
    age: Annotated[int, Field(ge=13, description="Age in years (13+).")],
    roles: Annotated[list[Literal["admin", "editor", "viewer"]], "Granted roles."] = Field(  # noqa: B008
        default_factory=list
    ),
) -> User:
    """Create a user account.

    Returns:
        The new user.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "event": {
                "title": "Standup",
                "start": "2024-05-01T09:00:00Z",
                "end": "2024-05-01T09:15:00Z",
                "recurrence": {"frequency": "daily", "until": "2024-12-31"},
            }
        }
    ],
    invalid=[
        (
            "enum violation",
            {
                "event": {
                    "title": "S",
                    "start": "2024-05-01T09:00:00Z",
                    "end": "2024-05-01T09:15:00Z",
                    "recurrence": {"frequency": "hourly"},
                }
            },
        ),
        ("bad date", {"event": {"title": "S", "start": "9am", "end": "2024-05-01T09:15:00Z"}}),
    ],
    required=["event"],
    returns="The created event",
)
def create_event(
    event: Annotated[CalendarEvent, Field(description="The event to create.")],
) -> Event:
    """Add an event to the calendar.

    Returns:
        The created event.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "primary": {"id": U1, "name": "Ada"},
            "duplicates": [
                {
                    "id": U2,
                    "name": "Ada L.",
                    "phones": ["+1 555"],
                    "address": {"street": "1", "city": "L", "postcode": "N1"},
                }
            ],
        }
    ],
    invalid=[
        ("bad uuid", {"primary": {"id": "1", "name": "Ada"}, "duplicates": []}),
        (
            "missing required",
            {
                "primary": {"id": U1, "name": "Ada"},
                "duplicates": [{"id": U2, "name": "A", "address": {"street": "1"}}],
            },
        ),
    ],
    required=["primary", "duplicates"],
    returns="The merged contact",
)
def merge_contacts(primary: Contact, duplicates: list[Contact]) -> Contact:
    """Merge duplicate contacts into one.

    Args:
        primary: The contact to keep.
        duplicates: Contacts folded into it.

    Returns:
        The merged contact.
    """
    raise NotImplementedError


@case(
    valid=[{"image_id": U1, "boxes": [{"label": "cat", "x": 0.1, "y": 0.2, "w": 0.3, "h": 0.4}]}],
    invalid=[
        (
            "constraint violation",
            {"image_id": U1, "boxes": [{"label": "cat", "x": 1.2, "y": 0, "w": 0.1, "h": 0.1}]},
        ),
        (
            "constraint violation",
            {"image_id": U1, "boxes": [{"label": "cat", "x": 0, "y": 0, "w": 0, "h": 0.1}]},
        ),
    ],
    required=["image_id", "boxes"],
    returns="Whether the labels were stored",
)
def label_image(image_id: UUID, boxes: list[BoundingBox]) -> OperationResult:
    """Store bounding-box labels for an image.

    :param image_id: The image.
    :param boxes: Labelled boxes, coordinates relative to the image size.
    :returns: Whether the labels were stored.
    """
    raise NotImplementedError


@case(
    valid=[{"category": "food", "amount": "400.00", "period": "monthly"}],
    invalid=[
        ("constraint violation", {"category": "food", "amount": 0, "period": "monthly"}),
        ("enum violation", {"category": "food", "amount": 1, "period": "daily"}),
    ],
    required=["category", "amount", "period"],
    returns="The budget",
)
def set_budget(
    category: Annotated[str, "Spending category."],
    amount: Annotated[Decimal, Field(gt=0, description="Limit per period.")],
    period: Annotated[Literal["weekly", "monthly", "yearly"], "Budget period."],
) -> Budget:
    """Set a spending budget.

    Returns:
        The budget.
    """
    raise NotImplementedError


@case(
    valid=[
        {"location": {"lat": 59.9, "lon": 10.7}},
        {"location": {"lat": 0, "lon": 0}, "days": 14, "hourly": True},
    ],
    invalid=[
        ("constraint violation", {"location": {"lat": 59.9, "lon": 10.7}, "days": 15}),
        ("missing required", {"location": {"lat": 59.9}}),
    ],
    required=["location"],
    returns="The forecast",
)
def get_forecast(
    location: GeoPoint,
    days: Annotated[int, Field(ge=1, le=14, description="Days ahead.")] = 3,
    hourly: bool = False,
) -> Forecast:
    """Get a multi-day weather forecast.

    Args:
        location: Where.
        hourly: Include hourly detail.

    Returns:
        The forecast, one report per day.
    """
    raise NotImplementedError


@case(
    valid=[
        {"restaurant_id": 3, "party_size": 4, "at": "2024-05-01T19:30:00Z"},
        {"restaurant_id": 3, "party_size": 2, "at": "2024-05-01T19:30:00Z", "seating": "bar"},
    ],
    invalid=[
        (
            "constraint violation",
            {"restaurant_id": 3, "party_size": 25, "at": "2024-05-01T19:30:00Z"},
        ),
        (
            "enum violation",
            {"restaurant_id": 3, "party_size": 2, "at": "2024-05-01T19:30:00Z", "seating": "roof"},
        ),
        ("bad date", {"restaurant_id": 3, "party_size": 2, "at": "tonight"}),
    ],
    required=["restaurant_id", "party_size", "at"],
    returns="The reservation",
)
def reserve_table(
    restaurant_id: int,
    party_size: Annotated[int, Field(ge=1, le=20)],
    at: dt.datetime,
    seating: Literal["indoor", "outdoor", "bar"] = "indoor",
) -> Reservation:
    """Reserve a restaurant table.

    Args:
        restaurant_id: The restaurant.
        party_size: Number of guests.
        at: Arrival time.
        seating: Preferred area.

    Returns:
        The reservation.
    """
    raise NotImplementedError


@case(
    valid=[{"text": "hello there"}, {"text": "x", "categories": ["hate", "violence"]}],
    invalid=[
        ("enum violation", {"text": "x", "categories": ["spam"]}),
        ("constraint violation", {"text": "x" * 10001}),
    ],
    required=["text"],
    returns="Moderation flags",
)
def moderate_text(
    text: Annotated[str, Field(max_length=10000, description="Text to check.")],
    categories: Annotated[
        list[Literal["hate", "violence", "sexual", "self-harm"]] | None,
        "Categories to check; all when null.",
    ] = None,
) -> ModerationResult:
    """Check text against moderation categories.

    Returns:
        Moderation flags and per-category scores.
    """
    raise NotImplementedError


@case(
    valid=[
        {"to": ["a@x.io"], "subject": "Hi", "body": "Hello"},
        {"to": ["a@x.io", "b@x.io"], "subject": "Hi", "body": "Hello", "cc": None, "priority": 3},
    ],
    invalid=[
        ("wrong type", {"to": "a@x.io", "subject": "Hi", "body": "Hello"}),
        ("enum violation", {"to": ["a@x.io"], "subject": "Hi", "body": "x", "priority": 0}),
    ],
    required=["to", "subject", "body"],
    returns="The queued message",
)
def send_email(
    to: list[str],
    subject: str,
    body: str,
    cc: list[str] | None = None,
    priority: Priority = Priority.NORMAL,
) -> MessageSent:
    """Send an email.

    Parameters
    ----------
    to : list of str
        Recipients.
    subject : str
        Subject line.
    body : str
        Plain-text body.
    cc : list of str, optional
        Copied recipients.
    priority : Priority
        1 = low, 2 = normal, 3 = high.

    Returns
    -------
    MessageSent
        The queued message.
    """
    raise NotImplementedError


# --- signatures: async, keyword-only, positional-only, **kwargs ----------------------------


@case(
    valid=[{"topic": "ai"}, {"topic": "ai", "since": "2024-05-01", "limit": 5}],
    invalid=[
        ("bad date", {"topic": "ai", "since": "last monday"}),
        ("wrong type", {"topic": "ai", "limit": "5 please"}),
    ],
    required=["topic"],
    returns="Headlines",
)
async def fetch_news(topic: str, since: dt.date | None = None, limit: int = 10) -> NewsDigest:
    """Fetch news headlines on a topic.

    Args:
        topic: Subject to search.
        since: Oldest publication date.
        limit: Maximum headlines.

    Returns:
        Headlines, newest first.
    """
    raise NotImplementedError


@case(
    valid=[
        {
            "weight_kg": 2.5,
            "destination": {"street": "1", "city": "Lyon", "postcode": "69001", "country": "FR"},
        },
        {
            "weight_kg": 1,
            "destination": {"street": "1", "city": "B", "postcode": "1"},
            "express": True,
        },
    ],
    invalid=[
        (
            "wrong type",
            {"weight_kg": "heavy", "destination": {"street": "1", "city": "B", "postcode": "1"}},
        ),
        ("missing required", {"weight_kg": 1}),
    ],
    required=["weight_kg", "destination"],
    returns="The price and delivery time",
)
def quote_shipping(
    weight_kg: float, /, destination: Address, *, express: bool = False
) -> ShippingQuote:
    """Quote a shipping price.

    Args:
        weight_kg: Parcel weight.
        destination: Delivery address.
        express: Next-day delivery.

    Returns:
        The price and delivery time.
    """
    raise NotImplementedError


@case(
    valid=[
        {"task_id": 1, "assignee": "kim"},
        {"task_id": 1, "assignee": "kim", "due": "2024-06-01", "sprint": "S12"},
    ],
    invalid=[
        ("bad date", {"task_id": 1, "assignee": "kim", "due": "friday"}),
        ("wrong type", {"task_id": "T-1", "assignee": "kim"}),
    ],
    required=["task_id", "assignee"],
    accepts_extra=True,
    returns="The task",
)
def assign_task(task_id: int, assignee: str, due: dt.date | None = None, **fields: str) -> Task:
    """Assign a task; extra keyword arguments set custom fields.

    Args:
        task_id: The task.
        assignee: Username.
        due: Due date.
        **fields: Custom field values.

    Returns:
        The task.
    """
    raise NotImplementedError


@case(
    valid=[{"order_id": U1}, {"order_id": U1, "reason": "damaged", "restock": False}],
    invalid=[
        ("enum violation", {"order_id": U1, "reason": "bored"}),
        ("bad uuid", {"order_id": "#1234"}),
    ],
    required=["order_id"],
    returns="Whether the refund started",
)
def refund_order(
    order_id: UUID,
    *,
    reason: Literal["damaged", "late", "wrong_item", "other"] = "other",
    restock: bool = True,
) -> OperationResult:
    """Refund an order.

    Args:
        order_id: The order.
        reason: Why.
        restock: Put items back in stock.

    Returns:
        Whether the refund started.
    """
    raise NotImplementedError


@case(
    valid=[
        {"device_id": "th-1", "temperature": 21},
        {"device_id": "th-1", "temperature": 5, "mode": "eco"},
    ],
    invalid=[
        ("constraint violation", {"device_id": "th-1", "temperature": 40}),
        ("enum violation", {"device_id": "th-1", "temperature": 20, "mode": "turbo"}),
    ],
    required=["device_id", "temperature"],
    returns="The device state",
)
def set_thermostat(
    device_id: str,
    temperature: Annotated[float, Field(ge=5, le=35, description="Target in °C.")],
    mode: Literal["heat", "cool", "eco", "off"] = "heat",
) -> DeviceState:
    """Set a thermostat.

    Args:
        device_id: The thermostat.
        mode: Operating mode.

    Returns:
        The device state.
    """
    raise NotImplementedError


@case(
    valid=[{"name": "Ada", "tags": ["vip"]}, {"name": "Ada"}],
    invalid=[("wrong type", {"name": "Ada", "tags": [1]}), ("constraint violation", {"name": ""})],
    required=["name"],
    returns="Whether the lead was added",
)
def add_lead(
    name: str = Field(min_length=1, description="Lead's name."),
    tags: list[str] = Field(default_factory=list, description="Segmentation tags."),  # noqa: B008
) -> OperationResult:
    """Add a sales lead.

    Returns:
        Whether the lead was added.
    """
    raise NotImplementedError


@case(
    valid=[
        {"stack": "web", "version": "1.2.3"},
        {"stack": "web", "version": "1.2.3", "canary_percent": 10, "regions": ["eu", "us"]},
    ],
    invalid=[
        ("constraint violation", {"stack": "web", "version": "latest"}),
        ("constraint violation", {"stack": "web", "version": "1.0.0", "canary_percent": 150}),
        ("enum violation", {"stack": "web", "version": "1.0.0", "regions": ["mars"]}),
    ],
    required=["stack", "version"],
    returns="The deployment result",
)
def deploy(
    stack: Annotated[str, Field(description="Stack name.")],
    version: Annotated[str, Field(pattern=r"^\d+\.\d+\.\d+$", description="Semantic version.")],
    canary_percent: Annotated[int, Field(ge=0, le=100, description="Traffic share.")] = 0,
    regions: Annotated[tuple[Literal["eu", "us", "ap"], ...], "Target regions."] = ("eu",),
) -> OperationResult:
    """Deploy a version of a stack.

    Returns:
        The deployment result.
    """
    raise NotImplementedError
