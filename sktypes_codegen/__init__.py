"""Build-time code generation for sktypes (spec → typed plugin packages, views → stubs).

Generated code imports ``sktypes``, ``pydantic``, ``httpx`` and the standard library, never
``sktypes_codegen``.
"""

from __future__ import annotations

from sktypes_codegen._package import (
    GenerationWarning,
    RenderedPlugin,
    generate_plugin,
    render_plugin,
)
from sktypes_codegen._stubs import generate_stubs

__all__ = [
    "GenerationWarning",
    "RenderedPlugin",
    "generate_plugin",
    "generate_stubs",
    "render_plugin",
]
