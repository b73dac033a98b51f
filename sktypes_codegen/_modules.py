"""The Python modules of a generated package, rendered from a :class:`PluginContext`.

Shared by the single-module layout (``plugin.py`` + ``models.py``) and the layout split by
tag (:mod:`sktypes_codegen._split`). Each module imports exactly the names it uses (ruff
rejects unused imports): the imports are collected from the annotation nodes the module
holds (:func:`sktypes_codegen._annotations.imports`), never searched for in rendered text.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sktypes_codegen._annotations import Expr, Import, class_refs, imports
from sktypes_codegen._iterators import iterator_imports
from sktypes_codegen._plugin import OperationContext, PluginContext
from sktypes_codegen._render import line_length, render
from sktypes_codegen._types import AliasDef, ClassDef

__all__ = [
    "alias_imports",
    "all_key",
    "import_block",
    "isort_key",
    "models_module",
    "plugin_class_imports",
    "plugin_module",
    "runtime_names",
]

_RUNTIME = "sktypes.remote"


def models_module(
    ctx: PluginContext,
    classes: list[ClassDef],
    header: str,
    local_imports: list[tuple[str, list[str]]] | None = None,
    title: str | None = None,
    aliases: list[AliasDef] | None = None,
) -> str:
    """A models module of ``classes`` and ``aliases`` (``title``: its docstring's first line)."""
    aliases = aliases or []
    needs = imports(_expressions(classes, aliases))
    if classes:
        needs.add(Import("pydantic", "BaseModel"))
    if any(c.config for c in classes):
        needs.add(Import("pydantic", "ConfigDict"))
    if any(c.extra_type is not None for c in classes):
        needs.add(Import("pydantic", "Field"))
    needs |= alias_imports(aliases)
    names = [c.name for c in classes] + [a.name for a in aliases]
    return render(
        "models.py.jinja",
        header=f"{title or f'Models for {ctx.title}.'}\n\n{header}",
        imports=import_block(needs),
        local_imports=local_imports or [],
        all_names=sorted(names, key=all_key),
        classes=classes,
        aliases=aliases,
        rebuild=incomplete_models(classes, aliases),
    )


def incomplete_models(classes: list[ClassDef], aliases: list[AliasDef]) -> list[str]:
    """The models of a module that pydantic leaves incomplete where they are defined.

    A model naming a class or alias defined below it in the module (aliases come after every
    class), or deriving from or naming such a model, cannot be built when its class statement
    runs. Pydantic completes it lazily, resolving the names in the namespace of whoever uses
    it first: a class of another module deriving from it inherits the unresolved annotations
    and fails to build ("not fully defined"). The module ends by rebuilding these models, in
    definition order, so every model it exports is complete.
    """
    position = {
        name: i for i, name in enumerate([*(c.name for c in classes), *(a.name for a in aliases)])
    }
    incomplete: dict[str, None] = {}
    for i, cls in enumerate(classes):
        local = ((class_refs(cls.annotations()) | set(cls.bases)) - {cls.name}) & position.keys()
        if any(position[name] > i or name in incomplete for name in local):
            incomplete[cls.name] = None
    return list(incomplete)


def alias_imports(aliases: list[AliasDef]) -> set[Import]:
    """What alias definitions need besides their values' own imports."""
    needs = set()
    if any(a.recursive for a in aliases):
        needs.add(Import("typing_extensions", "TypeAliasType"))
    if any(not a.recursive for a in aliases):
        needs.add(Import("typing", "TypeAlias"))
    return needs


def _expressions(classes: list[ClassDef], aliases: list[AliasDef]) -> list[Expr]:
    return [e for c in classes for e in c.annotations()] + [
        e for a in aliases for e in a.annotations()
    ]


def plugin_module(ctx: PluginContext, header: str, *, sync: bool) -> str:
    """``plugin.py`` of a single-module package: the class with every operation."""
    models = [(".models", ctx.model_names)] if ctx.model_names else []
    needs = imports(e for op in ctx.operations for e in op.annotations())
    needs |= runtime_imports(ctx.operations)
    needs |= iterator_imports(
        (op.pages for op in ctx.operations), (op.stream for op in ctx.operations), sync
    )
    needs |= plugin_class_imports(ctx)
    return render(
        "plugin.py.jinja",
        header=f"The {ctx.class_name} class.\n\n{header}",
        plugin=ctx,
        bases=["ApiClient"],
        operations=ctx.operations,
        sync=sync,
        imports=import_block(needs),
        local_imports=models,
    )


def plugin_class_imports(ctx: PluginContext) -> set[Import]:
    """What the plugin class itself needs (its constructor and security schemes)."""
    return {Import("httpx"), Import("sktypes.generated", "PackageViews")} | ctx.init.needs


def runtime_imports(operations: list[OperationContext], *, base: bool = True) -> set[Import]:
    """What a module imports from ``sktypes`` to define and run operations."""
    return {Import(_RUNTIME, n) for n in runtime_names(operations, base)} | (
        {Import("sktypes", "kernel_function")} if operations else set()
    )


def runtime_names(operations: list[OperationContext], base: bool = True) -> list[str]:
    """What a module imports from ``sktypes.remote`` (unused imports would fail ruff)."""
    names = ["ApiClient"] if base else []
    if operations:
        names.append("Request")
    return sorted(names)


def import_block(needs: Iterable[Import]) -> list[list[str]]:
    """The import statements for ``needs``, in ruff's isort sections and order.

    Sections: the standard library, then third-party packages (``sktypes`` and ``pydantic``
    included); within one, ``import x`` lines first, then ``from x import a, b``.
    """
    sections: list[list[str]] = []
    for stdlib in (True, False):
        chosen = [n for n in set(needs) if _is_stdlib(n.module) == stdlib]
        plain = sorted({n.module for n in chosen if n.name is None}, key=str.lower)
        grouped: dict[str, set[str]] = defaultdict(set)
        for n in chosen:
            if n.name is not None:
                grouped[n.module].add(n.name)
        lines = [f"import {m}" for m in plain]
        for module in sorted(grouped, key=str.lower):
            lines.append(_from(module, sorted(grouped[module], key=isort_key)))
        if lines:
            sections.append(lines)
    return sections


def _from(module: str, names: list[str]) -> str:
    one = f"from {module} import {', '.join(names)}"
    if len(one) <= line_length():
        return one
    body = "".join(f"    {n},\n" for n in names)
    return f"from {module} import (\n{body})"


def _is_stdlib(module: str) -> bool:
    return module.split(".", 1)[0] in sys.stdlib_module_names


def isort_key(name: str) -> tuple[int, tuple[Any, ...], tuple[Any, ...]]:
    """Ruff's order of the names in ``from x import ...``.

    SCREAMING_CASE constants, then CamelCase classes, then the rest; in each, a natural sort
    (``Foo_2`` before ``Foo_10``) ignoring case first.
    """
    return _kind(name), _natural(name.lower()), _natural(name)


def all_key(name: str) -> tuple[int, tuple[Any, ...]]:
    """Ruff's order of ``__all__`` (RUF022): like :func:`isort_key`, case-sensitive."""
    return _kind(name), _natural(name)


def _kind(name: str) -> int:
    return 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2


def _natural(text: str) -> tuple[Any, ...]:
    return tuple(
        (0, int(c), "") if c.isdigit() else (1, 0, c) for c in re.split(r"(\d+)", text) if c
    )
