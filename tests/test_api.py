"""The public API is exactly the documented one, and every name resolves."""

from __future__ import annotations

import sktypes

DOCUMENTED = {
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
}


def test_exported_names_are_exactly_the_documented_ones() -> None:
    assert set(sktypes.__all__) == DOCUMENTED
    assert set(sktypes._EXPORTS) | {"__version__"} == set(sktypes.__all__)


def test_every_exported_name_resolves() -> None:
    for name in sktypes.__all__:
        assert getattr(sktypes, name) is not None, name


def test_every_error_derives_from_the_base() -> None:
    for name in sktypes.__all__:
        obj = getattr(sktypes, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, sktypes.SktypesError), name
