"""The Python modules of a generated package, rendered from a :class:`PluginContext`.

Shared by the single-module layout (``plugin.py`` + ``models.py``) and the layout split by
tag (:mod:`sktypes_codegen._split`). Each module imports exactly the names it uses: ruff rejects
unused imports, so the import lists are computed from the rendered signatures and fields.
"""

from __future__ import annotations

import re

from sktypes_codegen._plugin import OperationContext, PluginContext
from sktypes_codegen._render import render
from sktypes_codegen._types import ClassDef

__all__ = [
    "isort_key",
    "models_module",
    "modules_used",
    "plugin_module",
    "runtime_names",
    "uses",
]


def models_module(
    ctx: PluginContext,
    classes: list[ClassDef],
    header: str,
    local_imports: list[tuple[str, list[str]]] | None = None,
    title: str | None = None,
) -> str:
    """A models module holding ``classes`` (``title``: its docstring's first line)."""
    pydantic_names = {"BaseModel"} if classes else set()
    if any(c.has_aliases for c in classes):
        pydantic_names |= {"ConfigDict", "Field"}
    fields = " ".join(f.annotation for c in classes for f in c.fields)
    return render(
        "models.py.jinja",
        header=f"{title or f'Models for {ctx.title}.'}\n\n{header}",
        imports=sorted(modules_used(fields, ctx.imports)),
        typing_names=sorted(uses(fields, ctx.typing_names)),
        pydantic_names=sorted(pydantic_names),
        local_imports=local_imports or [],
        all_names=sorted((c.name for c in classes), key=isort_key),
        classes=classes,
    )


def plugin_module(ctx: PluginContext, header: str, *, sync: bool) -> str:
    """``plugin.py`` of a single-module package: the class with every operation."""
    signatures = " ".join(" ".join([op.returns, *op.params]) for op in ctx.operations)
    models = [(".models", ctx.model_names)] if ctx.model_names else []
    return render(
        "plugin.py.jinja",
        header=f"The {ctx.class_name} class.\n\n{header}",
        plugin=ctx,
        bases=["ApiClient"],
        operations=ctx.operations,
        sync=sync,
        imports=sorted(modules_used(signatures, ctx.imports)),
        typing_names=sorted(uses(signatures, ctx.typing_names)),
        local_imports=models,
        runtime_names=runtime_names(ctx.operations, credentials=bool(ctx.credentials)),
    )


def runtime_names(
    operations: list[OperationContext], *, base: bool = True, credentials: bool = False
) -> list[str]:
    """What a module imports from ``sktypes.remote`` (unused imports would fail ruff)."""
    names = ["ApiClient"] if base else []
    if operations:
        names.append("Request")
    if credentials:
        names.append("Credential")
    if any(op.result_kind == "json" for op in operations):
        names.append("parse_json")
    return sorted(names)


def isort_key(name: str) -> tuple[int, str]:
    """Ruff's ``__all__`` order (RUF022): SCREAMING_CASE, then CamelCase, then the rest."""
    kind = 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2
    return kind, name


def uses(text: str, names: set[str]) -> set[str]:
    """The names of ``names`` that occur as whole words in ``text``."""
    return {n for n in names if re.search(rf"(?<![\w.]){re.escape(n)}\b", text)}


def modules_used(text: str, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``text`` reaches into (``uuid.UUID``).

    A parameter merely *named* ``uuid`` does not count: importing the module for it would
    be an unused import that the parameter then shadows.
    """
    return {m for m in modules if re.search(rf"(?<![\w.]){re.escape(m)}\.", text)}
