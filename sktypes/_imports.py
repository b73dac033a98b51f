"""Importing what a target names: a module (``pkg.mod``, ``path/to/file.py``) or an object in it.

Below the command line and the MCP server, which both load targets: a target that cannot be
imported is a :class:`TargetError` naming it (and the importing module's own error).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

from sktypes.errors import SktypesError

__all__ = ["TargetError", "import_file", "import_named", "load_module", "load_object"]


class TargetError(SktypesError):
    """A command-line target cannot be loaded."""


def load_object(target: str) -> Any:
    """Import ``pkg.mod:attr.sub`` (or ``file.py:attr``) and return the object."""
    module_name, sep, attr = target.partition(":")
    if not sep or not attr:
        raise TargetError("expected 'pkg.module:Name'", where=target)
    path = Path(module_name)
    module = import_file(path) if path.suffix == ".py" else import_named(module_name, target)
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise TargetError(f"{module_name} has no attribute {attr!r}", where=target) from None
    return obj


def load_module(target: str) -> types.ModuleType:
    """Import ``path/to/file.py`` or ``pkg.mod`` (the module a target names)."""
    path = Path(target)
    return import_file(path) if path.suffix == ".py" else import_named(target, target)


def import_named(name: str, target: str) -> types.ModuleType:
    """Import the module ``name`` (from the working directory too) for ``target``."""
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise TargetError(f"cannot import {name!r}: {exc}", where=target) from None
    except Exception as exc:  # the module itself failed while importing
        raise TargetError(
            f"importing {name!r} failed: {type(exc).__name__}: {exc}", where=target
        ) from None


def import_file(path: Path) -> types.ModuleType:
    """Import the Python file at ``path`` (once per process: the module is kept)."""
    if not path.is_file():
        raise TargetError("no such file", file=str(path))
    name = f"_sktypes_target_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError("cannot import this file", file=str(path))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise TargetError(
            f"importing failed: {type(exc).__name__}: {exc}", file=str(path)
        ) from None
    return module
