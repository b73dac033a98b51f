"""Build-time code generation for sktypes (spec → typed plugin packages, views → stubs).

Generated code imports ``sktypes``, ``pydantic``, ``httpx`` and the standard library, never
``sktypes_codegen``. The names below are imported on first use, so a tool that only reads a
package's link record (``sktypes check``) does not load the generator.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "CodeModeStubs",
    "GenerationWarning",
    "RenderedPlugin",
    "code_mode_stubs",
    "generate_plugin",
    "generate_stubs",
    "render_plugin",
]

_EXPORTS = {
    "CodeModeStubs": "sktypes_codegen._code_mode",
    "code_mode_stubs": "sktypes_codegen._code_mode",
    "GenerationWarning": "sktypes_codegen._package",
    "RenderedPlugin": "sktypes_codegen._package",
    "generate_plugin": "sktypes_codegen._package",
    "render_plugin": "sktypes_codegen._package",
    "generate_stubs": "sktypes_codegen._stubs",
}

if TYPE_CHECKING:
    from sktypes_codegen._code_mode import CodeModeStubs, code_mode_stubs
    from sktypes_codegen._package import (
        GenerationWarning,
        RenderedPlugin,
        generate_plugin,
        render_plugin,
    )
    from sktypes_codegen._stubs import generate_stubs


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sktypes_codegen' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
