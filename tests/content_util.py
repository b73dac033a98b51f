"""Shared fixtures for the content, kernel and provider tests (not collected)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from examples.date_weather import DatePluginSimpleComplex, WeatherPluginSimpleComplex
from sktypes.kernel import Kernel

SCHEMA = json.loads(
    (Path(__file__).parent.parent / "schemas" / "chat-history.schema.json").read_text()
)
VALIDATOR = Draft202012Validator(SCHEMA)


def check_schema(text: str) -> None:
    """Assert a serialized history is valid against the published schema."""
    errors = sorted(VALIDATOR.iter_errors(json.loads(text)), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]


def date_weather_kernel() -> Kernel:
    """The ADR's two plugins, with a fixed today (2024-01-01)."""
    kernel = Kernel()
    kernel.add_plugin(DatePluginSimpleComplex(dt.date(2024, 1, 1)))
    kernel.add_plugin(WeatherPluginSimpleComplex())
    return kernel


def jsonable(value: Any) -> Any:
    """Round-trip a value through JSON text (what a wire format keeps)."""
    return json.loads(json.dumps(value))
