"""The package layout split by tag, for large specs (Kubernetes-, GitHub-sized).

One module per tag (an operation's first tag; untagged operations go to ``default``)::

    plugin.py                 class <Name>Plugin(<Tag>Operations, ...): the constructor
    operations/<tag>.py       class <Tag>Operations(ApiClient): that tag's methods
    models/__init__.py        re-exports every model (``from pkg.models import X`` works)
    models/_shared.py         models used by operations of several tags
    models/<tag>.py           models only that tag's operations use

A model goes where the operations that reach it (through any chain of references) are: one
tag → that tag's module, several → ``_shared``. A model reachable from a tag is referenced
only by models reachable from it, so ``<tag>`` modules import from ``_shared`` and never
from each other, and ``_shared`` imports nothing local: no import cycles, and type-checking
or editing one tag touches a module of its size, not the whole API.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from sktypes_codegen._annotations import class_refs, imports
from sktypes_codegen._iterators import iterator_imports
from sktypes_codegen._modules import (
    all_key,
    import_block,
    isort_key,
    models_module,
    plugin_class_imports,
    runtime_imports,
)
from sktypes_codegen._naming import Namespace, class_name, identifier
from sktypes_codegen._plugin import PluginContext
from sktypes_codegen._render import render
from sktypes_codegen._types import AliasDef, ClassDef

__all__ = ["SPLIT_OPERATIONS", "split_files"]

SPLIT_OPERATIONS = 300
"""Specs with at least this many operations (and more than one tag) are split by default."""

SHARED = "_shared"


def split_files(ctx: PluginContext, header: str, *, sync: bool) -> dict[str, str]:
    """Return the split layout's files (paths relative to the package, with ``/``)."""
    modules = _tag_modules(ctx)
    defs: list[ClassDef | AliasDef] = [*ctx.classes, *ctx.aliases]
    names = frozenset(d.name for d in defs)
    by_name = {d.name: d for d in defs}
    refs = {d.name: _refs(d, names) for d in defs}
    home = _homes(ctx, modules, refs)
    tags_of = {m: f"tagged {t!r}" if t else "without a tag" for t, m in modules.items()}
    files: dict[str, str] = {}

    module_classes: dict[str, list[ClassDef]] = defaultdict(list)
    module_aliases: dict[str, list[AliasDef]] = defaultdict(list)
    for cls in ctx.classes:
        module_classes[home[cls.name]].append(cls)
    for alias in ctx.aliases:
        module_aliases[home[alias.name]].append(alias)
    for module in sorted(set(module_classes) | set(module_aliases)):
        classes, aliases = module_classes[module], module_aliases[module]
        local = _imports_from(
            {r for n in _names(classes, aliases) for r in refs[n] if home[r] != module},
            home,
            package=".",
        )
        title = (
            f"Models used by {ctx.title} operations of several tags."
            if module == SHARED
            else f"Models only the {ctx.title} operations {tags_of[module]} use."
        )
        files[f"models/{module}.py"] = models_module(ctx, classes, header, local, title, aliases)
    exports = _imports_from(set(by_name), home, package=".")
    files["models/__init__.py"] = render(
        "models_index.py.jinja",
        header=f"Models for {ctx.title}, one module per tag.\n\n{header}",
        local_imports=exports,
        all_names=sorted(by_name, key=all_key),
    )

    taken = set(names) | {ctx.class_name, "ApiClient", "Request"}
    classes_ns = Namespace(taken)
    bases: list[tuple[str, str]] = []
    for tag, module in sorted(modules.items(), key=lambda item: item[1]):
        ops = [op for op in ctx.operations if op.tag == tag]
        used = frozenset().union(*(op.models for op in ops))
        ops_class = classes_ns.claim(tag, f"{class_name(tag or 'default', prefix='Tag')}Operations")
        bases.append((module, ops_class))
        needs = imports(e for op in ops for e in op.annotations()) | runtime_imports(ops)
        needs |= iterator_imports((op.pages for op in ops), (op.stream for op in ops), sync)
        about = f"tagged {tag!r}" if tag else "without a tag"
        files[f"operations/{module}.py"] = render(
            "operations.py.jinja",
            header=f"The {ctx.title} operations {about}.\n\n{header}",
            class_name=ops_class,
            description=f"The {ctx.title} operations {about}.",
            operations=ops,
            sync=sync,
            imports=import_block(needs),
            local_imports=_imports_from(used, home, package="..models."),
        )
    files["operations/__init__.py"] = render(
        "operations_index.py.jinja",
        header=f"The {ctx.class_name} operations, one module per tag.\n\n{header}",
    )
    files["plugin.py"] = render(
        "plugin.py.jinja",
        header=f"The {ctx.class_name} class.\n\n{header}",
        plugin=ctx,
        bases=[name for _, name in bases],
        operations=[],
        sync=sync,
        imports=import_block(runtime_imports([], base=False) | plugin_class_imports(ctx)),
        local_imports=[(f".operations.{module}", [name]) for module, name in bases],
    )
    return files


def _names(classes: list[ClassDef], aliases: list[AliasDef]) -> list[str]:
    return [c.name for c in classes] + [a.name for a in aliases]


def _refs(definition: ClassDef | AliasDef, names: frozenset[str]) -> set[str]:
    """The other classes and aliases a definition names (its bases included)."""
    found = class_refs(definition.annotations()) & names
    if isinstance(definition, ClassDef):
        found |= set(definition.bases)
    return found - {definition.name}


def _tag_modules(ctx: PluginContext) -> dict[str, str]:
    """Map each tag to its module name (unique, a valid identifier, never ``_shared``)."""
    namespace = Namespace({SHARED, "models", "operations", "plugin"})
    tags = sorted({op.tag for op in ctx.operations})
    return {tag: namespace.claim(tag, identifier(tag or "default", prefix="tag")) for tag in tags}


def _homes(
    ctx: PluginContext,
    modules: dict[str, str],
    refs: dict[str, set[str]],
) -> dict[str, str]:
    """The module of every class: its only tag's, or ``_shared`` when several tags reach it."""
    reached: dict[str, set[str]] = {n: set() for n in _names(ctx.classes, ctx.aliases)}
    roots: dict[str, set[str]] = defaultdict(set)
    for op in ctx.operations:
        roots[op.tag] |= op.models
    for tag, start in roots.items():
        stack = list(start)
        while stack:
            name = stack.pop()
            if tag in reached[name]:
                continue
            reached[name].add(tag)
            stack.extend(refs[name])
    return {
        name: modules[next(iter(tags))] if len(tags) == 1 else SHARED
        for name, tags in reached.items()
    }


def _imports_from(
    names: Iterable[str], home: dict[str, str], *, package: str
) -> list[tuple[str, list[str]]]:
    """``[(module, sorted names)]`` importing ``names`` from their modules under ``package``."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for name in names:
        grouped[f"{package}{home[name]}"].append(name)
    return [
        (module, sorted(found, key=isort_key))
        for module, found in sorted(grouped.items(), key=lambda item: _module_key(item[0]))
    ]


def _module_key(module: str) -> str:
    return module.lower()
