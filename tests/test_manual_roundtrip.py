"""manual -> views -> manual is the identity, in every format: a property over generated views.

Views are drawn from the schema grammar (every keyword the schema model represents, with
shared definitions), with descriptions, optional parameters and return schemas; and every
function of the 63-function benchmark corpus is checked too.
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sktypes import FunctionView, ParameterView, ReturnParameterView, function_view
from sktypes.manual import FORMATS, functions_manual, views_from_manual
from tests.schema_grammar import documents

JSON_FORMATS = [f for f in FORMATS if f != "text"]
_NOTE = re.compile(r"\((?:[A-Za-z$]+: |not|allOf)")

descriptions = st.one_of(st.none(), st.sampled_from(["A thing.", "Two. Sentences here."]))


@st.composite
def views(draw: st.DrawFn) -> FunctionView:
    names = draw(st.lists(st.sampled_from(["a", "b", "city", "n"]), max_size=3, unique=True))
    parameters = tuple(
        ParameterView(
            name=name,
            description=draw(descriptions),
            is_required=draw(st.booleans()),
            schema=draw(documents()),
        )
        for name in names
    )
    ret = draw(st.one_of(st.none(), documents()))
    return FunctionView(
        name=draw(st.sampled_from(["f", "get_items"])),
        plugin_name=draw(st.sampled_from(["", "P"])),
        description=draw(descriptions) or "",
        parameters=parameters,
        return_parameter=ReturnParameterView(schema=ret),
        accepts_extra=draw(st.booleans()),
    )


def _again(manual: Any, fmt: str) -> Any:
    return functions_manual(views_from_manual(manual), fmt)


@pytest.mark.parametrize("fmt", JSON_FORMATS)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(view=views())
def test_manual_views_manual_is_the_identity(fmt: str, view: FunctionView) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openai-strict falls back, saying so
        manual = functions_manual([view], fmt)
        # Gemini's subset and OpenAI's strict mode cannot carry every keyword: they move
        # what they drop into the description ("(uniqueItems: True)"), a loss the
        # provider-formats table reports; the property holds for what they can carry
        lossy = fmt in ("gemini", "openai-strict") and _NOTE.search(json.dumps(manual))
        assume(not lossy)
        assert _again(manual, fmt) == manual


def _corpus() -> list[FunctionView]:
    bench = Path(__file__).resolve().parents[1] / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        from _functions import CASES  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(bench))
    return [function_view(case.fn, "Bench") for case in CASES]


@pytest.mark.parametrize("fmt", JSON_FORMATS)
def test_every_corpus_function_round_trips(fmt: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for view in _corpus():
            manual = functions_manual([view], fmt)
            assert _again(manual, fmt) == manual, view.name


def test_nullable_array_written_as_any_of_comes_back_the_same() -> None:
    """The regression: ``anyOf: [array, null]`` came back as ``type: [array, null]``."""
    schema = {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
    view = FunctionView("f", parameters=(ParameterView("tags", schema=schema),))
    for fmt in JSON_FORMATS:
        manual = functions_manual([view], fmt)
        assert _again(manual, fmt) == manual


def _corpus_specs() -> list[Any]:
    from tests.corpus_util import corpus_specs

    # the specs up to Twilio Messaging's size (the large ones cost minutes under load)
    known = {  # found by this test; not fixed yet (see the reason)
        "twilio-messaging-v1": pytest.mark.xfail(
            strict=True,
            reason="openai-strict: an optional parameter whose schema is a $ref is written "
            "anyOf [ref, null] (the ref inlined after), read back as the inlined enum and "
            "written as a type list: the same values and descriptions, spelt differently "
            "(Status); the description it lost before (VettingProvider) is kept now",
        )
    }
    return [
        pytest.param(path, id=sid, marks=[known[sid]] if sid in known else [])
        for sid, path in corpus_specs()
        if path.is_file() and path.stat().st_size <= 600_000
    ]


@pytest.mark.parametrize("spec", _corpus_specs())
def test_every_view_of_the_corpus_specs_round_trips(spec: Path) -> None:
    from sktypes.manual import NameTable
    from sktypes.openapi import load_openapi

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        views = load_openapi(spec, validate=False).views
        for fmt in JSON_FORMATS:
            names = NameTable()
            manual = functions_manual(views, fmt, names=names)
            again = functions_manual(views_from_manual(manual, names=names), fmt)
            assert again == manual, fmt


def test_gemini_says_an_array_admitting_no_item_as_the_empty_array() -> None:
    """``items: false`` was written as ``items: {}`` (any item): Gemini needs ``items``, so the
    empty array is said with ``maxItems: 0`` (found by the round trip on hypothesis's examples
    in the lowest venv)."""
    from sktypes import functions_manual
    from sktypes.jsondoc import JsonDocument
    from sktypes.manual import views_from_manual
    from sktypes.views import FunctionView, ParameterViewType, ReturnParameterView

    ret = ReturnParameterView(type=ParameterViewType.ARRAY, schema=JsonDocument({"items": False}))
    view = FunctionView(name="f", plugin_name="", return_parameter=ret)
    manual = functions_manual([view], "gemini")
    assert manual == [
        {"functionDeclarations": [{"name": "f", "response": {"items": {}, "maxItems": 0}}]}
    ]
    assert functions_manual(views_from_manual(manual), "gemini") == manual


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        (
            {"enum": [False, 0], "items": False},
            {
                "anyOf": [
                    {"type": "BOOLEAN", "description": "(enum: [false])"},
                    {"type": "INTEGER", "format": "enum", "enum": ["0"]},
                ],
                "items": {},  # array keywords kept, as written (they bind arrays only)
                "maxItems": 0,
            },
        ),
        (
            {"enum": ["a", 1, None]},
            {
                "anyOf": [
                    {"type": "STRING", "enum": ["a"]},
                    {"type": "INTEGER", "format": "enum", "enum": ["1"]},
                ],
                "nullable": True,
            },
        ),
        ({"enum": [True, False]}, {"type": "BOOLEAN"}),
        ({"const": {"a": 1}}, {"type": "OBJECT", "description": '(enum: [{"a":1}])'}),
    ],
)
def test_gemini_says_non_string_enums_by_kind_never_as_text(schema: Any, said: Any) -> None:
    """Gemini's enums hold text: ``[false, 0]`` was written ``STRING`` enum ``["False", "0"]``,
    silently (found by the round trip in the lowest venv). Each kind is said as Gemini can:
    text and numbers exactly, in one ``anyOf``; booleans, objects and arrays by their type
    with the listed values in the description (the loss the provider table reports)."""
    from sktypes import functions_manual
    from sktypes.jsondoc import JsonDocument
    from sktypes.manual import views_from_manual
    from sktypes.views import FunctionView, ParameterView

    view = FunctionView("f", parameters=(ParameterView("x", schema=JsonDocument(schema)),))
    manual: Any = functions_manual([view], "gemini")
    declared = manual[0]["functionDeclarations"][0]["parameters"]["properties"]["x"]
    assert declared == said
    again: Any = functions_manual(views_from_manual(manual), "gemini")
    if "items" in schema:  # read back, the vacuous array keywords (no listed value is an
        # array) are left out: the same values admitted, a different spelling
        assert again[0]["functionDeclarations"][0]["parameters"]["properties"]["x"] == {
            "anyOf": said["anyOf"]
        }
    else:
        assert again == manual


@pytest.mark.parametrize("fmt", ["json-schema", "openai-strict", "openapi-3.0", "gemini"])
def test_x_or_null_keeps_both_descriptions(fmt: str) -> None:
    """A property's description and its type's were both kept only when they were the same:
    the type's was dropped (Twilio Messaging's VettingProvider, read back from openai-strict)."""
    from sktypes.schema import to_dialect

    x = {"anyOf": [{"type": "string", "enum": ["a"], "description": "S."}, {"type": "null"}]}
    schema = {"type": "object", "properties": {"x": {**x, "description": "P."}}, "required": ["x"]}
    said = json.dumps(to_dialect(schema, fmt))
    assert "P." in said and "S." in said
