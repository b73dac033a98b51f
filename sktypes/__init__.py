"""sktypes: type information for LLM function calling.

Function views with JSON Schemas for inputs *and* outputs, from Python callables,
OpenAPI specs and tool lists; functions manuals in every provider's dialect; native
values hydrated from what a model sends back. The documentation's home page has the tour.

Names are imported lazily (``import sktypes`` stays cheap); type checkers see them all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# name -> module that defines it (the public API; tests/test_api.py keeps this honest)
_EXPORTS: dict[str, str] = {
    # views
    "FunctionView": "sktypes.views",
    "ParameterView": "sktypes.views",
    "ReturnParameterView": "sktypes.views",
    "ParameterViewType": "sktypes.views",
    "JsonDocument": "sktypes.jsondoc",
    # sources
    "kernel_function": "sktypes.introspect",
    "function_view": "sktypes.introspect",
    "plugin_views": "sktypes.introspect",
    "json_schema": "sktypes.schema",
    "load_openapi": "sktypes.openapi",
    "OpenApiPlugin": "sktypes.openapi",
    "views_from_manual": "sktypes.manual",
    # outputs
    "functions_manual": "sktypes.manual",
    "validate_arguments": "sktypes.validate",
    "hydrate": "sktypes.hydration",
    "hydrate_stream": "sktypes.hydration",
    # errors
    "SktypesError": "sktypes.errors",
    "ArgumentsError": "sktypes.errors",
    "ContentError": "sktypes.errors",
    "GenerationError": "sktypes.errors",
    "HydrationError": "sktypes.errors",
    "IntrospectionError": "sktypes.errors",
    "KernelError": "sktypes.errors",
    "ManualError": "sktypes.errors",
    "OpenApiError": "sktypes.errors",
    "PlanError": "sktypes.errors",
    "SchemaError": "sktypes.errors",
    "TemplateError": "sktypes.errors",
    "UnknownTemplateFormatError": "sktypes.errors",
}

__all__ = [
    "FunctionView",
    "ParameterView",
    "ReturnParameterView",
    "ParameterViewType",
    "JsonDocument",
    "kernel_function",
    "function_view",
    "plugin_views",
    "json_schema",
    "load_openapi",
    "OpenApiPlugin",
    "views_from_manual",
    "functions_manual",
    "validate_arguments",
    "hydrate",
    "hydrate_stream",
    "SktypesError",
    "ArgumentsError",
    "ContentError",
    "GenerationError",
    "HydrationError",
    "IntrospectionError",
    "KernelError",
    "ManualError",
    "OpenApiError",
    "PlanError",
    "SchemaError",
    "TemplateError",
    "UnknownTemplateFormatError",
    "__version__",
]

if TYPE_CHECKING:
    from sktypes.errors import (
        ArgumentsError,
        ContentError,
        GenerationError,
        HydrationError,
        IntrospectionError,
        KernelError,
        ManualError,
        OpenApiError,
        PlanError,
        SchemaError,
        SktypesError,
        TemplateError,
        UnknownTemplateFormatError,
    )
    from sktypes.hydration import hydrate, hydrate_stream
    from sktypes.introspect import function_view, kernel_function, plugin_views
    from sktypes.jsondoc import JsonDocument
    from sktypes.manual import functions_manual, views_from_manual
    from sktypes.openapi import OpenApiPlugin, load_openapi
    from sktypes.schema import json_schema
    from sktypes.validate import validate_arguments
    from sktypes.views import FunctionView, ParameterView, ParameterViewType, ReturnParameterView


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sktypes' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
