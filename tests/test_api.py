"""The public API is exactly the documented one, every name resolves and is documented.

Documented means: a docstring, and rendered by a page of the API reference
(``docs/reference/api/*.md``); tests/test_docs_site.py checks the built site holds each one.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import textwrap
from pathlib import Path

import griffe
import yaml

import sktypes
from tests.docs_examples import public_modules

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


# --- every public name is documented -------------------------------------------------------------

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "api"
_DIRECTIVE = re.compile(r"^::: (?P<target>[\w.]+)[ \t]*\n(?P<options>(?:[ \t]+.*\n|\n)*)", re.M)


def _exports(module_name: str) -> list[str]:
    """A module's ``__all__``, read without importing it (a framework's extra may be absent)."""
    spec = importlib.util.find_spec(module_name)
    assert spec is not None and spec.origin is not None, module_name
    for node in ast.parse(Path(spec.origin).read_text()).body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                assert node.value is not None
                return [str(name) for name in ast.literal_eval(node.value)]
    return []


def _public_names() -> list[tuple[str, str]]:
    """``(module, name)`` for every name a public module lists in ``__all__``."""
    return [
        (module_name, name)
        for module_name in public_modules()
        for name in _exports(module_name)
        if name != "__version__"
    ]


def _rendered() -> dict[str, set[str] | None]:
    """What the reference pages render: target -> its listed members (``None``: all public)."""
    rendered: dict[str, set[str] | None] = {}
    for page in sorted(REFERENCE.glob("*.md")):
        for match in _DIRECTIVE.finditer(page.read_text()):
            options = yaml.safe_load(textwrap.dedent(match["options"])) or {}
            members = (options.get("options") or {}).get("members")
            rendered[match["target"]] = None if members is None else set(members)
    return rendered


def _renders(rendered: dict[str, set[str] | None], module_name: str, name: str) -> bool:
    def lists(members: set[str] | None) -> bool:
        return members is None or name in members

    if f"{module_name}.{name}" in rendered or lists(rendered.get(module_name, set())):
        return True
    try:
        obj = getattr(importlib.import_module(module_name), name)
    except ImportError:  # not importable here: only its own module's page can render it
        return False
    for target, members in rendered.items():  # another module's page, same object
        if not lists(members):
            continue
        try:
            parent = importlib.import_module(target)
        except ImportError:  # an object's path, or a module behind an absent extra
            continue
        if name in getattr(parent, "__all__", ()) and getattr(parent, name, None) is obj:
            return True
    return False


def test_every_public_name_is_rendered_by_a_reference_page() -> None:
    rendered = _rendered()
    assert "sktypes" in rendered
    missing = [f"{m}.{n}" for m, n in _public_names() if not _renders(rendered, m, n)]
    assert missing == [], (
        "public names missing from the API reference: add each to the `members` of its "
        "module's `::: module` block in docs/reference/api/*.md"
    )


def test_every_public_name_has_a_docstring() -> None:
    loaded = {
        package: griffe.load(package, search_paths=[str(Path(__file__).resolve().parents[1])])
        for package in ("sktypes", "sktypes_codegen")
    }
    undocumented = []
    for module_name, name in _public_names():
        package, _, rest = module_name.partition(".")
        module = loaded[package]
        for part in filter(None, rest.split(".")):
            module = module.members[part]
        member = module.members.get(name)
        docstring = None
        if member is not None:
            try:
                docstring = member.docstring
            except griffe.AliasResolutionError:
                docstring = None
        if docstring is None or not docstring.value.strip():
            undocumented.append(f"{module_name}.{name}")
    assert undocumented == [], "give these public names a docstring (constants: a string below)"
