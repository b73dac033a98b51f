"""Turn command-line targets into function views.

A target is ``pkg.mod:attr`` (a function, class or instance), ``pkg.mod`` or
``path/to/file.py`` (every ``@kernel_function`` in the module and in its classes), an
OpenAPI document (``.yaml``/``.yml``/``.json`` with ``openapi``/``swagger``), or a JSON tool
list (OpenAI, Anthropic, Gemini, MCP or planner).
"""

from __future__ import annotations

import dataclasses
import inspect
import types
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sktypes._documents import read_document
from sktypes._imports import TargetError, import_file, import_named, load_module, load_object
from sktypes.errors import SktypesError
from sktypes.introspect import _info, function_view, plugin_views
from sktypes.manual import views_from_manual
from sktypes.openapi._select import Candidate, operation_candidate, select
from sktypes.views import FunctionView

__all__ = ["SpecOptions", "TargetError", "load_module", "load_object", "load_views"]

_SPEC_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass(frozen=True, slots=True)
class SpecOptions:
    """How OpenAPI targets are read: validation, its strictness, where warnings go."""

    validate: bool = True
    strict: bool = False
    warn: Callable[[str], None] = lambda _message: None


def load_views(
    targets: Sequence[str],
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    name: str | None = None,
    options: SpecOptions | None = None,
) -> list[FunctionView]:
    """Return the views of every target, in order, filtered by ``include``/``exclude``.

    Patterns are those of ``sktypes.openapi.select_operations``: tags, methods and paths
    match OpenAPI operations; names (``id:`` or bare globs) match any function's name or
    fully qualified name. ``name`` renames the plugin of every view. OpenAPI documents are
    read as ``options`` say (by default: validated, each problem a warning).

    Raises:
        SktypesError: a target cannot be loaded, or a pattern matches no function.
    """
    opts = options or SpecOptions()
    if len(targets) == 1 and Path(targets[0]).suffix in _SPEC_SUFFIXES:
        # one document: a spec builds only the operations selected
        found = _document_views(Path(targets[0]), opts, include, exclude)
        views = [view for view, _ in found]
    else:
        views = []
        candidates: list[Candidate] = []
        for target in targets:
            for view, candidate in _views_of(target, opts):
                views.append(view)
                candidates.append(candidate)
        if include or exclude:
            views = select(views, candidates, include, exclude)
    if name is not None:
        views = [dataclasses.replace(v, plugin_name=name) for v in views]
    return views


_TARGET_FORMS = (
    "a folder, not a target: name a Python file (path/to/file.py), a module (pkg.mod, "
    "pkg.mod:Class, pkg.mod:func), an OpenAPI document or a JSON tool list"
)
_NOT_A_DOCUMENT = (
    "not an OpenAPI document (no 'openapi' or 'swagger' field) nor a tool list "
    "(a JSON array of tools, or an object with 'tools')"
)
_TOOL_KEYS = ("tools", "name", "function", "functionDeclarations")
"""Keys one of which a tool list document, or a single tool, has at its top level."""


def _named(views: Sequence[FunctionView]) -> list[tuple[FunctionView, Candidate]]:
    return [(v, Candidate(names=(v.name, v.fully_qualified_name))) for v in views]


def _views_of(target: str, options: SpecOptions) -> list[tuple[FunctionView, Candidate]]:
    path = Path(target)
    if path.is_dir() and not (path / "__init__.py").is_file():  # a package's folder is its name
        raise TargetError(_TARGET_FORMS, file=target)
    if path.suffix in _SPEC_SUFFIXES:
        return _document_views(path, options)
    if path.suffix == ".py":
        return _named(_module_views(import_file(path), target))
    module_name, _, attr = target.partition(":")
    if not attr:
        return _named(_module_views(import_named(module_name, target), target))
    obj = load_object(target)  # pkg.mod:Name or path/to/file.py:Name
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        return _named([function_view(obj)])
    return _named(plugin_views(obj))


def _module_views(module: types.ModuleType, target: str) -> list[FunctionView]:
    """Views of a module's marked functions and of the marked methods of its classes."""
    views: list[FunctionView] = []
    plugin = module.__name__.rsplit(".", 1)[-1].removeprefix("_sktypes_target_")
    for value in {id(v): v for v in vars(module).values()}.values():  # each object once
        if inspect.isfunction(value) and _info(value) is not None:
            views.append(function_view(value, plugin))
        elif isinstance(value, type) and _defined_in(value, module):
            try:
                views.extend(plugin_views(value))
            except SktypesError:
                continue  # a class without kernel functions
    if not views:
        hint = (
            f"; name a plain function to read it anyway: {target}:FUNCTION"
            if ":" not in target
            else ""
        )
        raise TargetError(f"no @kernel_function found{hint}", where=target)
    return views


def _defined_in(cls: type, module: types.ModuleType) -> bool:
    """``cls`` is the module's own, or, for a package, one of its modules' (re-exported).

    A package written by ``sktypes generate`` exports its plugin class from ``plugin.py``.
    """
    own = cls.__module__
    return own == module.__name__ or (
        hasattr(module, "__path__") and own.startswith(module.__name__ + ".")
    )


def _document_views(
    path: Path, options: SpecOptions, include: Sequence[str] = (), exclude: Sequence[str] = ()
) -> list[tuple[FunctionView, Candidate]]:
    """The views of a spec or tool list (filtered by ``include``/``exclude``, if given)."""
    if not path.is_file():
        raise TargetError("no such file", file=str(path))
    raw, data = read_document(path, str(path), TargetError)
    if isinstance(data, dict) and ("openapi" in data or "swagger" in data):
        from sktypes._positions import placed_warning
        from sktypes.openapi._load import load_document
        from sktypes.openapi._source import Document, digest_of

        doc = Document(data, str(path), path.resolve().as_uri(), path=path, digest=digest_of(raw))
        plugin = load_document(  # parsed once
            doc,
            validate=options.validate,
            strict=options.strict,
            include=include,
            exclude=exclude,
        )
        for warning in plugin.warnings:
            options.warn(str(placed_warning(warning, str(path), raw)))
        if not plugin.operations and not (include or exclude):
            options.warn(f"{path}: no operations: there are no functions to list")
        return [(op.view, operation_candidate(op)) for op in plugin.operations]
    if data is None or (isinstance(data, dict) and not any(k in data for k in _TOOL_KEYS)):
        empty = "an empty document: " if data is None else ""
        raise TargetError(f"{empty}{_NOT_A_DOCUMENT}", file=str(path))
    found = _named(_manual_views(path, data))
    if include or exclude:
        return select(found, [c for _, c in found], include, exclude)
    return found


def _manual_views(path: Path, data: Any) -> list[FunctionView]:
    try:
        return views_from_manual(data)
    except SktypesError as exc:
        raise TargetError(exc.message, file=str(path), where=exc.where) from None
