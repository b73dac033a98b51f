"""Refuse package names that would shadow the standard library or an installed module.

A generated package called ``os``, ``json`` or ``httpx`` imports fine from its own folder and
breaks everything else that imports the real one (``sktypes`` itself included).
"""

from __future__ import annotations

import importlib.util
import sys
from importlib.metadata import packages_distributions
from pathlib import Path

__all__ = ["shadowed"]


def shadowed(name: str, output_dir: Path) -> str | None:
    """Why ``name`` may not be a package under ``output_dir`` (``None`` when it may).

    A module of that name that is this very package (an editable install of the project
    being regenerated) is not a clash.
    """
    if name in sys.stdlib_module_names or name in sys.builtin_module_names:
        return "shadows the standard library module of that name"
    try:  # a name nothing imports shadows nothing (and costs no scan of every distribution)
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None and name not in ("sktypes", "sktypes_codegen"):
        return None
    owners = packages_distributions().get(name)
    if owners is None and name not in ("sktypes", "sktypes_codegen"):
        return None
    if spec is not None and spec.submodule_search_locations:
        here = (output_dir / name).resolve()
        if any(Path(p).resolve() == here for p in spec.submodule_search_locations):
            return None
    by = f" (from {', '.join(sorted(set(owners)))})" if owners else ""
    return f"shadows the installed module {name}{by}"
