"""Property tests: the schema model's consumers agree with jsonschema on random schemas.

Schemas come from a grammar of every keyword the model represents
(:mod:`tests.schema_grammar`); for each, values are drawn and jsonschema (draft 2020-12,
with sktypes' format checker) is the oracle:

- hydration of a schema target accepts exactly what validates (strict), and in lax mode
  gives back valid values untouched and never returns an invalid one;
- a parsed schema re-checked through its nodes (the compiled check) agrees too (see
  ``tests/test_quick_check.py``), so merged ``allOf`` parts mean what they meant;
- the model of a schema built from nodes is stable: parsing is deterministic and cached.
"""

from __future__ import annotations

from typing import Any

import orjson
from hypothesis import given
from jsonschema import Draft202012Validator

import sktypes as sk
from sktypes.hydration._check import _format_checker
from sktypes.schema import parse
from tests.schema_grammar import documents, values


def _valid(schema: Any, value: Any) -> bool:
    return bool(Draft202012Validator(schema, format_checker=_format_checker()).is_valid(value))


@given(documents(), values)
def test_strict_hydration_accepts_exactly_what_validates(schema: Any, value: Any) -> None:
    text = orjson.dumps(value)
    try:
        out = sk.hydrate(schema, text, strict=True, repair=False)
    except sk.HydrationError:
        assert not _valid(schema, value), (schema, value)
    else:
        assert _valid(schema, value), (schema, value)
        assert out == value


@given(documents(), values)
def test_lax_hydration_keeps_valid_values_and_returns_only_valid_ones(
    schema: Any, value: Any
) -> None:
    text = orjson.dumps(value)
    try:
        out = sk.hydrate(schema, text, repair=False)
    except sk.HydrationError:
        assert not _valid(schema, value), (schema, value)
        return
    assert _valid(schema, out), (schema, value, out)
    if _valid(schema, value):
        assert orjson.dumps(out) == text


@given(documents())
def test_parsing_is_deterministic(schema: Any) -> None:
    first = parse(schema)
    again = parse(orjson.loads(orjson.dumps(schema)))
    assert again is first  # equal documents share one model
    assert first.root == parse(sk.JsonDocument.from_value(schema)).root
