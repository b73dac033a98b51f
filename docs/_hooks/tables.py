"""Tables of the documentation that are computed from the code, never written by hand.

A page holds ``<!-- generated: NAME -->`` ... ``<!-- /generated -->``; the text between the
markers is what :data:`TABLES` ``[NAME]`` computes now:

- ``type-matrix``: each Python type through ``sktypes.json_schema`` in every dialect, through
  ``sktypes.hydrate`` (a value's JSON back to an equal value) and through
  ``sktypes_codegen.generate_stubs`` (the annotation generated code uses for it).
- ``provider-formats``: probe functions written to each functions-manual format and read back
  with ``sktypes.views_from_manual``; each cell says what survived the trip.
- ``provider-names``: the name each format gives one function (``sktypes.manual.provider_name``).

MkDocs runs this file as a hook (``mkdocs.yml``), so the built site always shows what the code
does; ``tests/test_docs_site.py`` checks that the committed pages hold the same text (so they
read right on GitHub too), and ``make golden`` rewrites them (review the diff).
"""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import enum
import importlib
import json
import re
import uuid
import warnings
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

import typing_extensions
from pydantic import BaseModel, Field, TypeAdapter

import sktypes as sk
from sktypes.manual import FORMATS, provider_name
from sktypes_codegen import generate_stubs

DOCS = Path(__file__).resolve().parents[1]
MARKERS = re.compile(
    r"(?P<open><!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(?P<close><!-- /generated -->)",
    re.DOTALL,
)
DIALECTS = ("json-schema", "openai-strict", "openapi-3.0", "gemini")
_CELL_LIMIT = 160
_PIPE = re.compile(r"(?<!\\)\|")  # a pipe not yet escaped for a table cell


# --- the types ----------------------------------------------------------------------------------


class Color(enum.Enum):
    """A colour."""

    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    """A level."""

    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Point:
    """A point."""

    x: int
    y: int = 0


class Address(typing_extensions.TypedDict):
    """An address."""

    street: str
    zip: typing_extensions.NotRequired[str]


class Pair(NamedTuple):
    """Two values."""

    left: int
    right: str


class Item(BaseModel):
    """An order line."""

    sku: str = Field(min_length=1)
    qty: int = Field(ge=1)


class Tree(BaseModel):
    """A recursive model."""

    value: int
    children: list[Tree] = []


class Cat(BaseModel):
    """A cat."""

    kind: Literal["cat"]
    lives: int


class Dog(BaseModel):
    """A dog."""

    kind: Literal["dog"]
    good: bool


@dataclasses.dataclass(frozen=True)
class Row:
    """One row of the type matrix: a type, how to name it, and a value of it."""

    label: str
    type: Any
    sample: Any


ROWS: tuple[Row, ...] = (
    Row("`int`", int, 3),
    Row("`float`", float, 2.5),
    Row("`bool`", bool, True),
    Row("`str`", str, "a"),
    Row("`None`", type(None), None),
    Row("`int | None`", int | None, None),
    Row("`int | str`", int | str, "x"),
    Row('`Literal["a", 1]`', Literal["a", 1], 1),
    Row("`Enum` (str values)", Color, Color.GREEN),
    Row("`IntEnum`", Level, Level.HIGH),
    Row("`list[int]`", list[int], [1, 2]),
    Row("`tuple[int, ...]`", tuple[int, ...], (1, 2)),
    Row("`tuple[int, str]`", tuple[int, str], (1, "a")),
    Row("`NamedTuple`", Pair, Pair(1, "a")),
    Row("`set[int]`", set[int], {1, 2}),
    Row("`dict[str, int]`", dict[str, int], {"a": 1}),
    Row("dataclass", Point, Point(1, 2)),
    Row("`TypedDict` (`NotRequired`)", Address, {"street": "Main"}),
    Row("pydantic model (`Field` constraints)", Item, Item(sku="A", qty=2)),
    Row("recursive model", Tree, Tree(value=1, children=[Tree(value=2)])),
    Row(
        "discriminated union",
        Annotated[Cat | Dog, Field(discriminator="kind")],
        Dog(kind="dog", good=True),
    ),
    Row("`datetime`", dt.datetime, dt.datetime(2024, 5, 1, 10, 0, tzinfo=dt.UTC)),
    Row("`date`", dt.date, dt.date(2024, 5, 1)),
    Row("`time`", dt.time, dt.time(10, 30)),
    Row("`timedelta`", dt.timedelta, dt.timedelta(hours=1)),
    Row("`UUID`", uuid.UUID, uuid.UUID(int=1)),
    Row("`Decimal`", Decimal, Decimal("1.5")),
    Row("`bytes`", bytes, b"hi"),
    Row("`Path`", Path, Path("a/b")),
    Row("`Annotated[int, Field(ge=0, le=9)]`", Annotated[int, Field(ge=0, le=9)], 4),
    Row("`Any`", Any, {"k": [1]}),
)


# --- rendering helpers --------------------------------------------------------------------------


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def _elide_defs(schema: Mapping[str, Any]) -> Any:
    """The schema with each ``$defs`` body shown as ``…`` (the names stay)."""
    if "$defs" not in schema and "x-components" not in schema:
        return schema
    out = dict(schema)
    if "$defs" in out:
        out["$defs"] = dict.fromkeys(out["$defs"], "…")
    if "x-components" in out:
        out["x-components"] = "…"
    return out


def _cell(text: str) -> str:
    """Text made safe for one Markdown table cell (code span, pipes escaped, bounded)."""
    if len(text) > _CELL_LIMIT:
        text = text[: _CELL_LIMIT - 1] + "…"
    return "`" + text.replace("|", "\\|") + "`"


def _error(exc: Exception) -> str:
    message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"refused: {message.replace('|', '/')}"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_PIPE.sub(r"\\|", cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# --- the type matrix ----------------------------------------------------------------------------


def _dialect_cell(tp: Any, dialect: str) -> str:
    try:
        if dialect == "openai-strict":  # strict mode needs an object root: show a property
            root = sk.json_schema(typing_extensions.TypedDict("Root", {"x": tp}), dialect=dialect)  # type: ignore[operator]
            schema = dict(root["properties"]["x"])
            if "$defs" in root:
                schema["$defs"] = root["$defs"]
        else:
            schema = sk.json_schema(tp, dialect=dialect)
    except sk.SktypesError as exc:
        return _error(exc)
    return _cell(_compact(_elide_defs(schema)))


def _hydrate_cell(row: Row) -> str:
    adapter: TypeAdapter[Any] = TypeAdapter(row.type)
    text = adapter.dump_json(row.sample).decode()
    try:
        back = sk.hydrate(row.type, text)
    except sk.HydrationError as exc:
        return _error(exc)
    return "round-trips" if back == row.sample else f"gives {_cell(repr(back))}"


def _stub_cell(tp: Any) -> str:
    def tool(x: Any) -> None:
        """A tool."""

    tool.__annotations__ = {"x": tp, "return": None}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            source = generate_stubs([sk.function_view(tool)])
    except sk.SktypesError as exc:
        return _error(exc)
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == "tool":
            for argument in node.args.kwonlyargs:
                if argument.arg == "x" and argument.annotation is not None:
                    return _cell(ast.unparse(argument.annotation))
    return "not found"


def type_matrix() -> str:
    """The type-support matrix: each type in every dialect, hydration and generated code."""
    header = ["Python", *(f"`{d}`" for d in DIALECTS), "`hydrate`", "generated code"]
    rows = [
        [
            row.label,
            *(_dialect_cell(row.type, dialect) for dialect in DIALECTS),
            _hydrate_cell(row),
            _stub_cell(row.type),
        ]
        for row in ROWS
    ]
    return _table(header, rows)


# --- what each provider format can express -----------------------------------------------------


class Probe(NamedTuple):
    """A feature, a function that uses it, and instances whose verdicts must not change."""

    feature: str
    source: str  # the probe function, as Python source
    instances: tuple[Any, ...]  # arguments objects (or return values for the return probe)
    part: str = "parameters"  # or "return"


_TREE_DEEP: dict[str, Any] = {"value": 1, "children": [{"value": "deep"}]}
for _ in range(4):
    _TREE_DEEP = {"value": 1, "children": [_TREE_DEEP]}

PROBES: tuple[Probe, ...] = (
    Probe("parameter descriptions", 'def tool(x: Annotated[int, "How many."]): ...', ({"x": 1},)),
    Probe(
        "the return schema",
        "def tool(x: int) -> Item: ...",
        ({"sku": "a", "qty": 1}, {"sku": "", "qty": 1}, {"sku": "a"}),
        "return",
    ),
    Probe("defaults", "def tool(x: int = 3): ...", ({"x": 1}, {})),
    Probe(
        "required and nullable (`x: int | None`)",
        "def tool(x: int | None): ...",
        ({"x": None}, {"x": 1}, {}),
    ),
    Probe(
        "optional, not nullable (`x: int = 0`)",
        "def tool(x: int = 0): ...",
        ({"x": None}, {"x": 1}, {}),
    ),
    Probe("enums (`Literal`)", 'def tool(x: Literal["a", "b"]): ...', ({"x": "a"}, {"x": "c"})),
    Probe(
        "string constraints (`minLength`, `pattern`)",
        "def tool(x: Annotated[str, Field(min_length=2, pattern='^a')]): ...",
        ({"x": "ab"}, {"x": "a"}, {"x": "bb"}),
    ),
    Probe(
        "number bounds (`minimum`, `exclusiveMaximum`)",
        "def tool(x: Annotated[float, Field(ge=1, lt=10)]): ...",
        ({"x": 1}, {"x": 0.5}, {"x": 10}, {"x": 9.5}),
    ),
    Probe(
        "formats (`date-time`)",
        "def tool(x: dt.datetime): ...",
        ({"x": "2024-05-01T10:00:00Z"}, {"x": "yesterday"}),
    ),
    Probe(
        "nested objects (`$ref`/`$defs`)",
        "def tool(x: Item): ...",
        ({"x": {"sku": "a", "qty": 1}}, {"x": {"sku": "", "qty": 1}}, {"x": {"sku": "a"}}),
    ),
    Probe(
        "recursive types",
        "def tool(x: Tree): ...",
        ({"x": {"value": 1, "children": [{"value": 2}]}}, {"x": _TREE_DEEP}),
    ),
    Probe(
        "maps with arbitrary keys",
        "def tool(x: dict[str, int]): ...",
        ({"x": {"a": 1}}, {"x": {"a": "s"}}),
    ),
    Probe(
        "tuples (`prefixItems`)",
        "def tool(x: tuple[int, str]): ...",
        ({"x": [1, "a"]}, {"x": ["a", 1]}),
    ),
    Probe("unions (`anyOf`)", "def tool(x: int | str): ...", ({"x": 1}, {"x": "a"}, {"x": 1.5})),
    Probe(
        "discriminated unions",
        "def tool(x: Annotated[Cat | Dog, Field(discriminator='kind')]): ...",
        ({"x": {"kind": "cat", "lives": 1}}, {"x": {"kind": "cat", "good": True}}),
    ),
    Probe(
        "extra arguments (`**kwargs: int`)",
        "def tool(x: int, **rest: int): ...",
        ({"x": 1, "y": 2}, {"x": 1, "y": "s"}),
    ),
)
_ANNOTATIONS = ("description", "default", "examples", "title")


def _probe_view(probe: Probe) -> sk.FunctionView:
    namespace: dict[str, Any] = {
        "Annotated": Annotated,
        "Field": Field,
        "Literal": Literal,
        "dt": dt,
        "Tree": Tree,
        "Cat": Cat,
        "Dog": Dog,
        "Item": Item,
    }
    exec(probe.source, namespace)
    function = namespace["tool"]
    function.__doc__ = "A tool."
    return sk.function_view(function, plugin_name="Probe")


def _accepts(view: sk.FunctionView, probe: Probe, instance: Any) -> bool | None:
    try:
        if probe.part == "return":
            if view.return_parameter is None or view.return_parameter.schema is None:
                return None
            sk.hydrate(view.return_parameter.schema, instance, strict=True)
        else:
            sk.validate_arguments(view, instance)
    except sk.SktypesError:
        return False
    return True


def _annotations(node: Any, out: set[str] | None = None) -> set[str]:
    """The annotation keywords a schema uses anywhere (``description``, ``default``...)."""
    out = set() if out is None else out
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key in _ANNOTATIONS and not isinstance(value, Mapping):
                out.add(key)
            if key not in {"enum", "const", "default", "examples"}:
                _annotations(value if key != "properties" else list(value.values()), out)
    elif isinstance(node, list):
        for item in node:
            _annotations(item, out)
    return out


def _schema(view: sk.FunctionView, part: str) -> Any:
    if part == "return":
        ret = view.return_parameter
        return None if ret is None or ret.schema is None else ret.schema.to_python()
    return view.parameters_schema


def _format_cell(probe: Probe, fmt: str) -> str:
    view = _probe_view(probe)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            manual = sk.functions_manual([view], format=fmt)
            [back] = sk.views_from_manual(manual)
    except sk.SktypesError as exc:
        return _error(exc)
    warned = " (warns)" if caught else ""
    before, after = _schema(view, probe.part), _schema(back, probe.part)
    if before == after:
        return "kept" + warned
    if after is None:
        return "lost" + warned
    notes: list[str] = []
    for instance in probe.instances:
        was, now = _accepts(view, probe, instance), _accepts(back, probe, instance)
        if was != now:
            verb = "accepts" if now else "rejects"
            notes.append(f"{verb} {_cell(_compact(instance))}")
    dropped = sorted(_annotations(before) - _annotations(after))
    if dropped:
        notes.append("drops " + ", ".join(f"`{k}`" for k in dropped))
    return ("; ".join(notes) or "kept (reshaped)") + warned


def provider_formats() -> str:
    """What each machine-readable manual format keeps of each feature, found by round trips."""
    formats = [fmt for fmt in FORMATS if fmt != "text"]
    header = ["feature", *(f"`{fmt}`" for fmt in formats)]
    rows = [[p.feature, *(_format_cell(p, fmt) for fmt in formats)] for p in PROBES]
    return _table(header, rows)


def provider_names() -> str:
    """The name each format gives a function whose names a provider may refuse."""
    short = sk.FunctionView(name="get_items", plugin_name="Shop", description="d")
    spaced = sk.FunctionView(name="get items", plugin_name="My API", description="d")
    long_name = sk.FunctionView(name="get_" + "x" * 70, plugin_name="Shop", description="d")
    full = len(long_name.qualified_name("."))
    header = [
        "format",
        "`Shop` / `get_items`",
        "`My API` / `get items`",
        f"a {full}-character name",
    ]
    rows = [
        [
            f"`{fmt}`",
            _cell(provider_name(short, fmt)),
            _cell(provider_name(spaced, fmt)),
            _length_cell(provider_name(long_name, fmt), full),
        ]
        for fmt in FORMATS
    ]
    return _table(header, rows)


def _length_cell(name: str, full: int) -> str:
    if len(name) == full:
        return f"kept ({full})"
    return f"cut to {len(name)}, ending in `{name[-9:]}`"


def _public_modules() -> list[str]:
    import pkgutil

    names: list[str] = []
    for package in ("sktypes", "sktypes_codegen"):
        module = importlib.import_module(package)
        names.append(package)
        names.extend(
            info.name
            for info in pkgutil.walk_packages(module.__path__, package + ".")
            if not any(part.startswith("_") for part in info.name.split("."))
        )
    return names


def error_hierarchy() -> str:
    """Every public error class, as a tree under ``SktypesError``, with its docstring's summary."""
    where: dict[type, str] = {}
    for name in _public_modules():
        try:
            module = importlib.import_module(name)
        except ImportError:  # a module behind an extra that is not installed
            continue
        for attr in getattr(module, "__all__", ()):
            value = getattr(module, attr, None)
            if isinstance(value, type) and issubclass(value, sk.SktypesError):
                path = f"{value.__module__}.{value.__qualname__}"
                public = "sktypes." + attr if getattr(sk, attr, None) is value else f"{name}.{attr}"
                if value not in where or len(public) < len(where[value]) or path == public:
                    where[value] = public

    lines: list[str] = []

    def public_subclasses(cls: type) -> list[type]:
        found: list[type] = []
        for sub in cls.__subclasses__():  # a private base in between is looked through
            found.extend([sub] if sub in where else public_subclasses(sub))
        return sorted(set(found), key=lambda c: c.__name__)

    def walk(cls: type, depth: int) -> None:
        summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        lines.append(f"{'    ' * depth}- `{where[cls]}`: {summary}")
        for sub in public_subclasses(cls):
            walk(sub, depth + 1)

    walk(sk.SktypesError, 0)
    return "\n".join(lines) + "\n"


TABLES: dict[str, Callable[[], str]] = {
    "type-matrix": type_matrix,
    "provider-formats": provider_formats,
    "provider-names": provider_names,
    "error-hierarchy": error_hierarchy,
}


# --- filling pages ------------------------------------------------------------------------------


def refresh(markdown: str) -> str:
    """``markdown`` with every generated block recomputed."""
    cache: dict[str, str] = {}

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in TABLES:
            raise KeyError(f"unknown generated table {name!r}; known: {sorted(TABLES)}")
        if name not in cache:
            cache[name] = TABLES[name]()
        return match["open"] + cache[name] + match["close"]

    return MARKERS.sub(fill, markdown)


def pages_with_tables() -> list[Path]:
    """The pages that hold generated blocks."""
    return [page for page in sorted(DOCS.rglob("*.md")) if MARKERS.search(page.read_text())]


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs hook: every page is built with its tables computed from the code of this build."""
    return refresh(markdown)


if __name__ == "__main__":  # rewrite the committed pages (what ``make golden`` does too)
    for page in pages_with_tables():
        page.write_text(refresh(page.read_text()))
        print(f"refreshed {page.relative_to(DOCS.parent)}")
