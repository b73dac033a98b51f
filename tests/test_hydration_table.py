"""Table-driven: realistic model outputs (prose, fences, broken JSON…) → native values or errors."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest

import sktypes as sk
from tests.hydration_models import (
    Cat,
    Dog,
    Item,
    Movie,
    Order,
    Pet,
    Point,
    Priority,
    Status,
    StrictOrder,
    Task,
    Weather,
)


@dataclass(frozen=True)
class Err:
    """An expected HydrationError: these paths (in order) and text in the first message."""

    paths: tuple[str, ...]
    says: str = ""


ORDER = Order(id=7, customer="Ada", items=[Item(sku="A-1", qty=2, price=9.5)])
ORDER_JSON = '{"id": 7, "customer": "Ada", "items": [{"sku": "A-1", "qty": 2, "price": 9.5}]}'
PARIS = Weather(city="Paris", temp_c=21.5, date=dt.date(2024, 5, 1), sunny=True)
PARIS_JSON = '{"city": "Paris", "temp_c": 21.5, "date": "2024-05-01", "sunny": true}'
UTC2 = dt.timezone(dt.timedelta(hours=2))

CASES: list[Any] = [
    # --- clean JSON -------------------------------------------------------------------
    pytest.param(Order, ORDER_JSON, ORDER, id="clean-order"),
    pytest.param(Weather, PARIS_JSON, PARIS, id="clean-weather"),
    pytest.param(list[int], "[1, 2, 3]", [1, 2, 3], id="clean-list"),
    pytest.param(dict[str, int], '{"a": 1, "b": 2}', {"a": 1, "b": 2}, id="clean-dict"),
    pytest.param(int, "42", 42, id="clean-int"),
    pytest.param(str, '"hello"', "hello", id="clean-string"),
    pytest.param(bool, "true", True, id="clean-bool"),
    pytest.param(Order, f"  \n{ORDER_JSON}\n\n", ORDER, id="clean-with-whitespace"),
    # --- code fences ------------------------------------------------------------------
    pytest.param(Order, f"```json\n{ORDER_JSON}\n```", ORDER, id="fence-json"),
    pytest.param(Order, f"```\n{ORDER_JSON}\n```", ORDER, id="fence-unlabelled"),
    pytest.param(Order, f"```JSON\n{ORDER_JSON}\n```", ORDER, id="fence-upper-label"),
    pytest.param(
        Order,
        f"Here is the order you asked for:\n\n```json\n{ORDER_JSON}\n```\nAnything else?",
        ORDER,
        id="fence-with-prose",
    ),
    pytest.param(
        Weather,
        f"```python\nprint('hi')\n```\nand the data:\n```json\n{PARIS_JSON}\n```",
        PARIS,
        id="fence-json-preferred-over-python",
    ),
    pytest.param(
        Weather,
        f'```json\n{PARIS_JSON}\n```\nor maybe\n```json\n{{"city": "Rome"}}\n```',
        PARIS,
        id="fence-first-of-two",
    ),
    pytest.param(
        Weather,
        f"```json\n{PARIS_JSON[:-1]},\n}}\n```",
        PARIS,
        id="fence-with-trailing-comma",
    ),
    pytest.param(Weather, f"```json\n{PARIS_JSON}\n", PARIS, id="fence-never-closed"),
    pytest.param(
        Order,
        f"```jsonc\n// the order\n{ORDER_JSON}\n```",
        ORDER,
        id="fence-jsonc-comment",
    ),
    # --- prose around the value -----------------------------------------------------------
    pytest.param(Weather, f"Sure! {PARIS_JSON}", PARIS, id="prose-before"),
    pytest.param(Weather, f"{PARIS_JSON} Hope this helps.", PARIS, id="prose-after"),
    pytest.param(
        Weather,
        f"The forecast for Paris is:\n{PARIS_JSON}\nEnjoy the sun!",
        PARIS,
        id="prose-both-sides",
    ),
    pytest.param(
        Weather,
        f"Use the format {{city, temp}} as asked: {PARIS_JSON}",
        PARIS,
        id="prose-braces-before",
    ),
    pytest.param(
        Weather,
        f"{PARIS_JSON}\nNote: I rounded {{temp_c}} to one decimal.",
        PARIS,
        id="prose-braces-after",
    ),
    pytest.param(
        Weather,
        f'{PARIS_JSON}\nAlternatively: {{"city": "Rome"}}',
        PARIS,
        id="prose-first-of-two-values",
    ),
    pytest.param(
        list[int],
        "The primes below ten are [2, 3, 5, 7].",
        [2, 3, 5, 7],
        id="prose-list",
    ),
    pytest.param(
        Movie,
        'Answer: {"title": "Alien", "year": 1979} (a classic)',
        {"title": "Alien", "year": 1979},
        id="prose-typeddict",
    ),
    # --- trailing, doubled and missing commas --------------------------------------------
    pytest.param(list[int], "[1, 2, 3,]", [1, 2, 3], id="comma-trailing-array"),
    pytest.param(
        Movie,
        '{"title": "Up", "year": 2009,}',
        {"title": "Up", "year": 2009},
        id="comma-trailing-object",
    ),
    pytest.param(
        Order,
        '{"id": 7, "customer": "Ada", "items": [{"sku": "A-1", "qty": 2, "price": 9.5,},],}',
        ORDER,
        id="comma-trailing-nested",
    ),
    pytest.param(list[int], "[1,, 2]", [1, 2], id="comma-doubled"),
    pytest.param(
        Movie,
        '{\n  "title": "Up"\n  "year": 2009\n}',
        {"title": "Up", "year": 2009},
        id="comma-missing-between-lines",
    ),
    pytest.param(list[str], '["a" "b"]', ["a", "b"], id="comma-missing-in-array"),
    # --- quotes -------------------------------------------------------------------------
    pytest.param(
        Movie, "{'title': 'Up', 'year': 2009}", {"title": "Up", "year": 2009}, id="quote-single"
    ),
    pytest.param(
        Movie, '{\'title\': "Up", "year": 2009}', {"title": "Up", "year": 2009}, id="quote-mixed"
    ),
    pytest.param(
        Movie,
        "{'title': 'It\\'s Alive', 'year': 1974}",
        {"title": "It's Alive", "year": 1974},
        id="quote-escaped-apostrophe",
    ),
    pytest.param(
        Movie,
        "{'title': 'The \"Thing\"', 'year': 1982}",
        {"title": 'The "Thing"', "year": 1982},
        id="quote-double-inside-single",
    ),
    pytest.param(
        Movie,
        '{"title": "Ocean\'s Eleven", year: 2001}',
        {"title": "Ocean's Eleven", "year": 2001},
        id="quote-apostrophe-in-double",
    ),
    pytest.param(str, "'hello'", "hello", id="quote-single-top-level"),
    pytest.param(
        dict[str, Any],
        "{'url': 'http://x.org/a#b', 'ok': True, /* c */ 'n': None,}",
        {"url": "http://x.org/a#b", "ok": True, "n": None},
        id="repair-leaves-string-contents-alone",
    ),
    pytest.param(
        dict[str, Any],
        '{"note": "True, None, ] // not a comment", \'a\': [1, 2,],}',
        {"note": "True, None, ] // not a comment", "a": [1, 2]},
        id="repair-literals-inside-strings-untouched",
    ),
    # --- Python literals ----------------------------------------------------------------
    pytest.param(Weather, PARIS_JSON.replace("true", "True"), PARIS, id="python-True"),
    pytest.param(
        dict[str, bool | None],
        "{'a': True, 'b': False, 'c': None}",
        {"a": True, "b": False, "c": None},
        id="python-dict-literal",
    ),
    pytest.param(Order, ORDER_JSON[:-1] + ', "note": None}', ORDER, id="python-None"),
    pytest.param(bool, "False", False, id="python-False-top-level"),
    pytest.param(list[int | None], "[1, undefined, 3]", [1, None, 3], id="js-undefined"),
    # --- comments -----------------------------------------------------------------------
    pytest.param(
        Movie,
        '{\n  "title": "Up", // the film\n  "year": 2009\n}',
        {"title": "Up", "year": 2009},
        id="comment-line",
    ),
    pytest.param(
        Movie,
        '{"title": /* name */ "Up", "year": 2009}',
        {"title": "Up", "year": 2009},
        id="comment-block",
    ),
    pytest.param(
        Movie,
        '{\n  # a movie\n  "title": "Up", "year": 2009}',
        {"title": "Up", "year": 2009},
        id="comment-hash",
    ),
    pytest.param(list[int], "[1, 2 /* , 3 */]", [1, 2], id="comment-hides-element"),
    # --- double encoding ----------------------------------------------------------------
    pytest.param(
        Movie,
        '"{\\"title\\": \\"Up\\", \\"year\\": 2009}"',
        {"title": "Up", "year": 2009},
        id="double-encoded-object",
    ),
    pytest.param(list[int], '"[1, 2]"', [1, 2], id="double-encoded-array"),
    pytest.param(
        Weather,
        '```json\n"' + PARIS_JSON.replace('"', '\\"') + '"\n```',
        PARIS,
        id="double-encoded-in-fence",
    ),
    pytest.param(str, '"{\\"a\\": 1}"', '{"a": 1}', id="double-encoded-kept-for-str"),
    # --- control characters -------------------------------------------------------------
    pytest.param(
        Movie,
        '{"title": "Line one\nline two", "year": 2000}',
        {"title": "Line one\nline two", "year": 2000},
        id="ctrl-raw-newline",
    ),
    pytest.param(
        Movie, '{"title": "a\tb", "year": 2000}', {"title": "a\tb", "year": 2000}, id="ctrl-raw-tab"
    ),
    pytest.param(
        Movie, '\ufeff{"title": "Up", "year": 2009}', {"title": "Up", "year": 2009}, id="ctrl-bom"
    ),
    pytest.param(
        Movie,
        '{"title": "Up",\x00 "year": 2009}',
        {"title": "Up", "year": 2009},
        id="ctrl-nul-between-tokens",
    ),
    pytest.param(
        Movie,
        '{"title":\u200b "Up", "year": 2009}',
        {"title": "Up", "year": 2009},
        id="ctrl-zero-width-space",
    ),
    pytest.param(
        dict[str, str],
        '{"re": "\\d+\\.\\d+"}',
        {"re": "\\d+\\.\\d+"},
        id="ctrl-invalid-escape-kept",
    ),
    # --- numbers and booleans -----------------------------------------------------------
    pytest.param(
        Weather,
        '{"city": "Paris", "temp_c": "21.5", "date": "2024-05-01", "sunny": "true"}',
        PARIS,
        id="coerce-numeric-and-bool-strings",
    ),
    pytest.param(Item, '{"sku": "A", "qty": "3"}', Item(sku="A", qty=3), id="coerce-int-string"),
    pytest.param(
        list[float], "[+1, .5, 2., -0.25]", [1.0, 0.5, 2.0, -0.25], id="number-sloppy-forms"
    ),
    pytest.param(Item, "{'sku': 'A', 'qty': 3.0}", Item(sku="A", qty=3), id="coerce-int-float"),
    pytest.param(
        Task,
        '{"title": "t", "priority": 1, "estimate": "2.50"}',
        Task(title="t", priority=Priority.LOW, estimate=Decimal("2.50")),
        id="coerce-decimal-string",
    ),
    pytest.param(int, "2 ** 10", Err(("$",), "not valid JSON"), id="never-eval"),
    # --- dates and times ----------------------------------------------------------------
    pytest.param(
        Order,
        ORDER_JSON[:-1] + ', "placed_at": "2024-05-01T10:00:00+02:00"}',
        ORDER.model_copy(update={"placed_at": dt.datetime(2024, 5, 1, 10, tzinfo=UTC2)}),
        id="date-time-with-offset",
    ),
    pytest.param(
        Order,
        ORDER_JSON[:-1] + ', "placed_at": "2024-05-01T08:00:00Z"}',
        ORDER.model_copy(update={"placed_at": dt.datetime(2024, 5, 1, 8, tzinfo=dt.UTC)}),
        id="date-time-zulu",
    ),
    pytest.param(
        Task,
        "{'title': 't', 'priority': 3, 'due': '2024-12-24'}",
        Task(title="t", priority=Priority.HIGH, due=dt.date(2024, 12, 24)),
        id="date-only",
    ),
    pytest.param(
        Weather,
        PARIS_JSON.replace("2024-05-01", "May 1st"),
        Err(("$.date",), "date"),
        id="date-unparseable",
    ),
    # --- enums --------------------------------------------------------------------------
    pytest.param(
        Order,
        ORDER_JSON[:-1] + ', "status": "shipped"}',
        ORDER.model_copy(update={"status": Status.SHIPPED}),
        id="enum-by-value",
    ),
    pytest.param(
        Order,
        ORDER_JSON[:-1] + ', "status": "SHIPPED"}',
        ORDER.model_copy(update={"status": Status.SHIPPED}),
        id="enum-by-name",
    ),
    pytest.param(
        Task,
        '{"title": "t", "priority": "high"}',
        Task(title="t", priority=Priority.HIGH),
        id="enum-int-by-lower-name",
    ),
    pytest.param(
        Order, ORDER_JSON[:-1] + ', "status": "lost"}', Err(("$.status",)), id="enum-unknown"
    ),
    # --- optional fields ----------------------------------------------------------------
    pytest.param(
        Order, ORDER_JSON[:-1] + ', "note": null, "placed_at": null}', ORDER, id="optional-null"
    ),
    pytest.param(
        Order,
        ORDER_JSON[:-1] + ', "note": "leave at door"}',
        ORDER.model_copy(update={"note": "leave at door"}),
        id="optional-present",
    ),
    pytest.param(
        Order,
        '{"id": 7, "customer": "Ada", "items": []}',
        Order(id=7, customer="Ada", items=[]),
        id="optional-absent",
    ),
    # --- unions -------------------------------------------------------------------------
    pytest.param(
        Pet,
        '{"pet": {"kind": "cat", "meows": 3}, "name": "Tom"}',
        Pet(pet=Cat(kind="cat", meows=3), name="Tom"),
        id="union-discriminated-cat",
    ),
    pytest.param(
        Pet,
        "{'pet': {'kind': 'dog', 'barks': True}, 'name': 'Rex'}",
        Pet(pet=Dog(kind="dog", barks=True), name="Rex"),
        id="union-discriminated-dog",
    ),
    pytest.param(list[int | str], '[1, "two", 3]', [1, "two", 3], id="union-int-str"),
    pytest.param(list[int] | None, "null", None, id="union-optional-list-null"),
    pytest.param(
        Pet,
        '{"pet": {"kind": "cat", "meows": "lots"}, "name": "Tom"}',
        Err(("$.pet.meows",)),
        id="union-error-path-skips-tag",
    ),
    # --- bare keys ----------------------------------------------------------------------
    pytest.param(Movie, "{title: 'Up', year: 2009}", {"title": "Up", "year": 2009}, id="bare-keys"),
    pytest.param(Point, "{x: 1, y: 2}", Point(x=1.0, y=2.0), id="bare-keys-dataclass"),
    pytest.param(Point, "{x = 1, y = 2}", Point(x=1.0, y=2.0), id="equals-instead-of-colon"),
    # --- other type families ------------------------------------------------------------
    pytest.param(tuple[int, str], '[1, "a"]', (1, "a"), id="tuple"),
    pytest.param(set[str], '["a", "b", "a"]', {"a", "b"}, id="set"),
    pytest.param(
        list[Movie],
        "[{'title': 'Up', 'year': 2009}, {'title': 'Heat', 'year': 1995}]",
        [{"title": "Up", "year": 2009}, {"title": "Heat", "year": 1995}],
        id="list-of-typeddicts",
    ),
    pytest.param(
        dict[str, list[Item]],
        "{'a': [{'sku': 'x', 'qty': 1}]}",
        {"a": [Item(sku="x", qty=1)]},
        id="dict-of-lists-of-models",
    ),
    # --- errors -------------------------------------------------------------------------
    pytest.param(
        Weather,
        '{"city": "Paris", "temp_c": 21',
        Err(("$.temp_c",), "truncated"),
        id="error-truncated-number",
    ),
    pytest.param(
        Weather, '{"city": "Par', Err(("$.city",), "truncated"), id="error-truncated-string"
    ),
    pytest.param(
        Order,
        '```json\n{"id": 7, "items": [{"sku": "A"',
        Err(("$.items[0]",), "truncated"),
        id="error-truncated-in-fence",
    ),
    pytest.param(
        Order,
        '{"id": "seven", "customer": "Ada", "items": [{"sku": "A", "qty": "x"}]}',
        Err(("$.id", "$.items[0].qty")),
        id="error-every-problem",
    ),
    pytest.param(
        Order, '{"id": 7}', Err(("$.customer", "$.items"), "missing"), id="error-missing-fields"
    ),
    pytest.param(
        StrictOrder,
        '{"id": 1, "colour": "red"}',
        Err(("$.colour",), "unknown"),
        id="error-unknown-field",
    ),
    pytest.param(Weather, "", Err(("$",), "no JSON"), id="error-empty"),
    pytest.param(
        Weather,
        "I'm sorry, I can't check the weather right now.",
        Err(("$",)),
        id="error-refusal-prose",
    ),
    pytest.param(list[int], "[1, 2] and [3]", [1, 2], id="first-value-wins"),
    pytest.param(
        Item,
        '{"sku": "A", "qty": 1} {"sku": "B", "qty": "x"}',
        Item(sku="A", qty=1),
        id="first-of-two-objects",
    ),
    pytest.param(
        Item,
        '{"sku": "A", "qty": "x"} {"sku": "B", "qty": 1}',
        Err(
            ("$.qty",),
        ),
        id="error-first-of-two-is-used",
    ),
    pytest.param(
        Movie,
        '{"title": "Up", "year": 2009]',
        Err(("$",), "unexpected"),
        id="error-mismatched-bracket",
    ),
]


def _check(result: Any, expected: Any) -> None:
    assert result == expected
    assert type(result) is type(expected)


@pytest.mark.parametrize(("target", "text", "expected"), CASES)
def test_model_output_hydrates_or_fails_with_paths(target: Any, text: str, expected: Any) -> None:
    if isinstance(expected, Err):
        with pytest.raises(sk.HydrationError) as info:
            sk.hydrate(target, text)
        paths = tuple(e.path for e in info.value.errors)
        assert paths == expected.paths
        assert expected.says.lower() in info.value.errors[0].message.lower()
        assert "Fix these problems" in info.value.for_llm()
    else:
        _check(sk.hydrate(target, text), expected)


def test_the_table_holds_at_least_eighty_outputs() -> None:
    assert len(CASES) >= 80


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (f"```json\n{ORDER_JSON[:-1]},\n}}\n```", "fence"),
        ("Sure!\n{'id': 7, 'customer': 'Ada', 'items': []}", "prose"),
        ("{'id': True}", "python literal"),
    ],
)
def test_strict_mode_refuses_repair(text: str, where: str) -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Order, text, strict=True)
    assert "not valid JSON" in info.value.errors[0].message, where


def test_strict_mode_refuses_coercion() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Item, '{"sku": "A", "qty": "3"}', strict=True)
    assert [e.path for e in info.value.errors] == ["$.qty"]


def test_repair_false_accepts_only_clean_json() -> None:
    assert sk.hydrate(Item, '{"sku": "A", "qty": "3"}', repair=False) == Item(sku="A", qty=3)
    with pytest.raises(sk.HydrationError):
        sk.hydrate(Item, '```json\n{"sku": "A", "qty": 3}\n```', repair=False)


def test_str_target_takes_plain_text_answer() -> None:
    assert sk.hydrate(str, "Paris is the capital.") == "Paris is the capital."


def test_error_names_which_value_when_several() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Item, 'First {"sku": "A", "qty": "x"} then {"sku": "B", "qty": 1}')
    assert "more JSON" in str(info.value).splitlines()[0]


def test_error_names_which_code_block_when_several() -> None:
    text = '```json\n{"sku": "A", "qty": "x"}\n```\n```json\n{"sku": "B", "qty": 1}\n```'
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Item, text)
    assert "code block 1 of 2" in str(info.value)


def test_truncation_error_says_where_the_text_ends() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Weather, '{\n  "city": "Paris",\n  "temp_c": 21')
    detail = info.value.errors[0]
    assert detail.path == "$.temp_c"
    assert "line 3, column 14" in detail.message
    assert "21" in detail.input


def test_for_llm_lists_each_problem_with_its_path_and_input() -> None:
    with pytest.raises(sk.HydrationError) as info:
        sk.hydrate(Order, '{"id": "seven", "customer": "Ada", "items": [{"sku": "A", "qty": "x"}]}')
    text = info.value.for_llm()
    assert "- at $.id:" in text
    assert "(got seven)" in text
    assert "- at $.items[0].qty:" in text
