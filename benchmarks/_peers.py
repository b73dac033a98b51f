"""One adapter per library: a Python function → (view +) the tool a model reads.

``build(fn)`` is what is timed: everything a library does to turn a function into the
tool entry it sends to a model (for sktypes: ``function_view`` + ``functions_manual``).
``inspect(built)`` then pulls out what is scored: the parameters schema, the function
description, the return schema and the description attached to the return.
"""

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Built", "Peer", "load_peers"]


@dataclass
class Built:
    """What a library produced for one function, in comparable form."""

    parameters: dict[str, Any]
    description: str
    return_schema: dict[str, Any] | None
    return_description: str
    single_arg: str | None = None  # pydantic-ai: a lone model parameter *is* the arguments


@dataclass
class Peer:
    """A library under test."""

    name: str
    version: str
    build: Callable[[Any], Any]
    inspect: Callable[[Any], Built]
    timed: bool = True


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def _sktypes() -> list[Peer]:
    from sktypes import function_view, functions_manual  # sktypes imports these lazily

    def build(fn: Any) -> Any:
        view = function_view(fn)
        return view, functions_manual([view], "openai")

    def inspect(built: Any) -> Built:
        view, manual = built
        tool = manual[0]["function"]
        ret = view.return_parameter
        return Built(
            tool["parameters"],
            tool.get("description") or "",
            ret.schema.to_python() if ret.schema is not None else None,
            ret.description or "",
        )

    return [Peer("sktypes", _version("sktypes"), build, inspect)]


def _semantic_kernel() -> list[Peer]:
    from semantic_kernel.connectors.ai.function_calling_utils import (
        kernel_function_metadata_to_function_call_format,
    )
    from semantic_kernel.functions import KernelFunctionFromMethod, kernel_function

    def build(fn: Any) -> Any:
        func = KernelFunctionFromMethod(method=kernel_function(fn), plugin_name="bench")
        return func.metadata, kernel_function_metadata_to_function_call_format(func.metadata)

    def inspect(built: Any) -> Built:
        meta, tool = built
        ret = meta.return_parameter
        return Built(
            tool["function"]["parameters"],
            tool["function"].get("description") or "",
            ret.schema_data if ret is not None else None,
            (ret.description or "") if ret is not None else "",
        )

    return [Peer("semantic-kernel", _version("semantic-kernel"), build, inspect)]


def _openai_agents() -> list[Peer]:
    from agents.function_schema import function_schema

    def make(strict: bool) -> Callable[[Any], Any]:
        def build(fn: Any) -> Any:
            fs = function_schema(fn, strict_json_schema=strict)
            return {
                "type": "function",
                "name": fs.name,
                "description": fs.description,
                "parameters": fs.params_json_schema,
                "strict": strict,
            }

        return build

    def inspect(tool: Any) -> Built:
        return Built(tool["parameters"], tool["description"] or "", None, "")

    version = _version("openai-agents")
    return [
        Peer("openai-agents", version, make(False), inspect),
        Peer("openai-agents[strict]", version, make(True), inspect, timed=False),
    ]


_RETURNS = re.compile(r"<returns>\s*<description>(.*?)</description>", re.S)


def _pydantic_ai() -> list[Peer]:
    from pydantic_ai import Tool

    def build(fn: Any) -> Any:
        tool = Tool(fn, takes_ctx=False)
        return tool.tool_def, tool.function_schema.single_arg_name

    def inspect(built: Any) -> Built:
        td, single = built
        description = td.description or ""
        found = _RETURNS.search(description)  # pydantic-ai writes the Returns text here
        return Built(
            td.parameters_json_schema,
            description,
            td.return_schema,
            found.group(1) if found else "",
            single,
        )

    return [Peer("pydantic-ai", _version("pydantic-ai-slim"), build, inspect)]


def _mcp() -> list[Peer]:
    from mcp.server.fastmcp.tools.base import Tool
    from mcp.types import Tool as MCPTool

    def build(fn: Any) -> Any:
        info = Tool.from_function(fn)
        return MCPTool(
            name=info.name,
            title=info.title,
            description=info.description,
            inputSchema=info.parameters,
            outputSchema=info.output_schema,
        )

    def inspect(tool: Any) -> Built:
        return Built(tool.inputSchema, tool.description or "", tool.outputSchema, "")

    return [Peer("mcp", _version("mcp"), build, inspect)]


def _langchain() -> list[Peer]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    def build(fn: Any) -> Any:
        return convert_to_openai_tool(fn)

    def inspect(tool: Any) -> Built:
        f = tool["function"]
        return Built(f["parameters"], f.get("description") or "", None, "")

    return [Peer("langchain-core", _version("langchain-core"), build, inspect)]


LOADERS: dict[str, Callable[[], list[Peer]]] = {
    "sktypes": _sktypes,
    "semantic-kernel": _semantic_kernel,
    "openai-agents": _openai_agents,
    "pydantic-ai": _pydantic_ai,
    "mcp": _mcp,
    "langchain-core": _langchain,
}


def load_peers(names: list[str] | None = None) -> tuple[list[Peer], list[str]]:
    """Import the libraries; return the peers that loaded and a note for each that did not."""
    peers: list[Peer] = []
    notes: list[str] = []
    for name, loader in LOADERS.items():
        if names is not None and name not in names:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                peers.extend(loader())
        except Exception as exc:  # ImportError, or a peer broken in this environment
            notes.append(f"skipped {name}: {type(exc).__name__}: {exc}")
    return peers, notes
