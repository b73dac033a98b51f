"""sktypes inside the frameworks people already run.

One module per framework, each behind its own extra and each with the same two functions:

- ``export(target, *, plugin_name=None, strict=None)`` — the framework's own tool objects
  for ``target`` (an object or module with ``@kernel_function`` members, an
  ``OpenApiPlugin``, a generated plugin, or a ``Kernel``), every call validated and
  hydrated by sktypes, refused arguments reported to the model with their JSON paths;
- ``views(native)`` — the framework's tools as :class:`~sktypes.FunctionView`s.

Modules: ``semantic_kernel`` (``sktypes[semantic-kernel]``), ``agent_framework``
(``[agent-framework]``), ``langchain`` (``[langchain]``), ``pydantic_ai``
(``[pydantic-ai]``), ``openai_agents`` (``[openai-agents]``); ``mcp`` serves any target
over the Model Context Protocol.

Where a framework needs references inlined, a recursive definition is expanded
:data:`RECURSION_DEPTH` times along a path and then cut (reported with
:class:`SchemaCutWarning`).
"""

from __future__ import annotations

from sktypes.integrations._schema import RECURSION_DEPTH, SchemaCutWarning

__all__ = ["RECURSION_DEPTH", "SchemaCutWarning"]
