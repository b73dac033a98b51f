"""Function views → one code-mode module: typed async functions a model writes code against.

Agents that write code against tools (instead of calling them one by one) need each tool as
a typed function, and typed *results*: a return type of ``Any`` leaves the model guessing.
The module has, per tool, ``TypedDict`` models for its structured inputs and its return
value (from the view's return schema), an ``async def`` with keyword-only parameters and a
docstring from the descriptions (values are typed as the JSON they are: a ``format: date``
string is ``str``); a compact preamble in the module docstring lists every
function in one line, for a model to read. ``bind(call)`` routes the calls (an MCP client
session, a kernel); optional arguments left at ``NOT_GIVEN`` are not sent.

Works for any views: Python plugins, OpenAPI specs, MCP/OpenAI/Anthropic tool lists,
generated packages. The module is ``mypy --strict`` clean.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sktypes.schema import NullNode, StringNode, UnionNode
from sktypes.schema._detail import first_sentence
from sktypes.views import FunctionView
from sktypes_codegen._annotations import ANY, NONE, Expr, Import, imports
from sktypes_codegen._annotations import render as render_expr
from sktypes_codegen._modules import alias_imports, import_block
from sktypes_codegen._naming import Namespace, class_name, identifier
from sktypes_codegen._render import Param, render
from sktypes_codegen._schemas import Handle, SchemaSet
from sktypes_codegen._types import TypeBuilder

__all__ = ["CodeModeStubs", "code_mode_stubs"]

_RESERVED = {"bind", "Call", "NOT_GIVEN", "cast", "Any", "Awaitable", "Callable"}


@dataclass(frozen=True, slots=True)
class CodeModeStubs:
    """A code-mode module and how typed its results are.

    Attributes:
        source: the module's Python source.
        functions: how many tools it holds.
        declared: how many declare a return value (a schema).
        typed: of those, how many return a type that is not ``Any``.
    """

    source: str
    functions: int
    declared: int
    typed: int

    @property
    def typed_share(self) -> float:
        """``typed / declared`` (1.0 when no tool declares a return value)."""
        return self.typed / self.declared if self.declared else 1.0


@dataclass(frozen=True, slots=True)
class _Function:
    name: str
    tool: str
    description: str
    params: list[Param]
    returns: Expr
    returns_text: str
    arguments: list[tuple[str, str]]
    line: str


def code_mode_stubs(views: Sequence[FunctionView], *, source: str | None = None) -> CodeModeStubs:
    """Return the code-mode module of ``views`` (see the module docstring)."""
    schemas = SchemaSet()
    added = []
    for view in views:
        found = {p.name: schemas.add(p.schema) for p in view.parameters if p.schema is not None}
        ret = view.return_parameter.schema
        added.append((found, schemas.add(ret) if ret is not None else None))
    schemas.parse()
    # the values are JSON both ways (bind's runner sends and returns JSON): a date is its text
    builder = TypeBuilder(schemas, "typeddict", taken=set(_RESERVED), json_scalars=True)
    names = Namespace(set(_RESERVED) | {"_invoke", "_call", "_NotGiven"})
    functions: list[_Function] = []
    declared = typed = 0
    for view, (handles, result) in zip(views, added, strict=True):
        tool = view.fully_qualified_name
        base = class_name(view.qualified_name("_"), prefix="Tool")
        name = names.claim(tool, identifier(view.name, prefix="tool"))
        params: list[Param] = []
        arguments: list[tuple[str, str]] = []
        arg_names = Namespace()
        required = [p for p in view.parameters if p.is_required]
        optional = [p for p in view.parameters if not p.is_required]
        for p in [*required, *optional]:
            handle = handles.get(p.name)
            hint = f"{base}{class_name(p.name, prefix='Param')}"
            ann = builder.annotation(handle, hint) if handle is not None else ANY
            arg = arg_names.claim(p.name, identifier(p.name, prefix="arg"))
            params.append((arg, ann, None if p.is_required else "NOT_GIVEN"))
            arguments.append((p.name, arg))
        if params:
            params.insert(0, ("*", None, None))
        returns = builder.annotation(result, f"{base}Result") if result is not None else NONE
        if result is not None:
            declared += 1
            typed += returns != ANY
        text = render_expr(returns)
        shown = ", ".join(
            f"{arg}: {render_expr(ann)}" + ("" if default is None else " = ...")
            for arg, ann, default in params
            if ann is not None
        )
        line = f"{name}({shown}) -> {text}"
        summary = first_sentence(view.description)
        functions.append(
            _Function(
                name,
                tool,
                _docstring(view, {n: f for n, h in handles.items() if (f := _format(schemas, h))}),
                params,
                returns,
                json.dumps(text),
                arguments,
                f"- {line}" + (f": {summary}" if summary else ""),
            )
        )
    classes = builder.ordered_classes()
    aliases = builder.ordered_aliases()
    needs = imports(
        [e for c in classes for e in c.annotations()]
        + [e for a in aliases for e in a.annotations()]
        + [e for f in functions for e in (f.returns, *(a for _, a, _ in f.params if a))]
    )
    needs |= {
        Import("typing", "Any"),
        Import("typing", "cast"),
        Import("collections.abc", "Awaitable"),
        Import("collections.abc", "Callable"),
    }
    if classes:
        needs.add(Import("typing", "TypedDict"))
    needs |= alias_imports(aliases)
    origin = f" from {source}" if source else ""
    header = "\n".join(
        [
            f"{len(functions)} tool(s){origin} as typed async functions.",
            "",
            "Call them with keyword arguments and await the result; bind(call) first routes",
            "them to whatever runs the tools. Arguments are checked when the call arrives.",
            "",
            *(f.line for f in functions),
            "",
            "Generated by sktypes; do not edit.",
        ]
    )
    text = render(
        "code_mode.py.jinja",
        header=header,
        imports=import_block(needs),
        classes=classes,
        aliases=aliases,
        functions=functions,
    )
    return CodeModeStubs(text, len(functions), declared, typed)


def _format(schemas: SchemaSet, handle: Handle) -> str | None:
    """The ``format`` of a string argument (or of its non-null option): ``date``, ``uuid``."""
    node = schemas.root(handle)
    if isinstance(node, UnionNode):
        options = [o for o in node.options if not isinstance(o, NullNode)]
        node = options[0] if len(options) == 1 else node
    return node.format if isinstance(node, StringNode) else None


def _docstring(view: FunctionView, formats: dict[str, str]) -> str:
    lines = [view.description.strip()] if view.description.strip() else []
    described = [p for p in view.parameters if p.description or p.name in formats]
    if described:
        lines += ["", "Arguments:"]
        for p in described:
            said = " ".join((p.description or "").split())
            if p.name in formats:  # typed str: the text says what it holds
                said = f"({formats[p.name]}) {said}".rstrip()
            lines.append(f"- {p.name}: {said}")
    ret = view.return_parameter.description
    if ret:
        lines += ["", f"Returns: {' '.join(ret.split())}"]
    return "\n".join(lines)
