"""Static typing checks of the public API: mypy --strict runs on this file (make lint)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_type

import sktypes as sk


def f(x: int) -> str:
    return str(x)


def check() -> None:
    view = sk.function_view(f)
    assert_type(view, sk.FunctionView)
    assert_type(view.parameters, tuple[sk.ParameterView, ...])
    assert_type(view.parameters_schema, dict[str, Any])
    assert_type(sk.plugin_views(object()), list[sk.FunctionView])
    assert_type(sk.json_schema(int), dict[str, Any])
    assert_type(sk.functions_manual([view]), list[dict[str, Any]] | str)
    assert_type(sk.views_from_manual("[]"), list[sk.FunctionView])
    bare: Callable[[int], str] = sk.kernel_function(f)
    named: Callable[[int], str] = sk.kernel_function(name="g", description="d")(f)
    assert bare is named
    doc = sk.JsonDocument.parse("{}")
    assert_type(doc, sk.JsonDocument)
    sk.validate_arguments(view, {"x": 1})
