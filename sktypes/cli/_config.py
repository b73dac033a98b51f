"""The repository's settings: ``[tool.sktypes]`` generation targets and the formatter width.

``pyproject.toml``::

    [tool.sktypes]
    line-length = 88            # optional; default: ruff's, else black's, else 88

    [[tool.sktypes.generate]]
    spec = "api/v1/openapi.yaml"
    output = "src/plugins"
    name = "petstore_v1"
    sync = true                 # optional, like every key below
    split = false               # default: by the spec's size and tags
    validate = true
    include = ["tag:pets"]
    exclude = ["DELETE /pets/*"]

    [[tool.sktypes.budget]]     # sktypes check holds a manual or a served spec to tokens
    source = "api/v1/openapi.yaml"   # or a manual (tools.json, counted as written)
    tokens = 20000
    format = "mcp"              # optional: the manual's format (default mcp)
    detail = "compact"          # optional: full (default), compact or names

Paths are relative to the ``pyproject.toml`` that holds them. The file is the nearest one
at or above the working directory.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sktypes._documents import decode_utf8, read_file
from sktypes.errors import SktypesError
from sktypes.limits import DEFAULT_LIMITS

__all__ = [
    "DEFAULT_LINE_LENGTH",
    "Budget",
    "ConfigError",
    "Target",
    "find_pyproject",
    "formatter_line_length",
    "read_budgets",
    "read_targets",
]

DEFAULT_LINE_LENGTH = 88
"""The width when no ruff or black setting is found (both formatters' default)."""

_TARGET_KEYS = {
    "spec", "output", "name", "sync", "split", "validate", "include", "exclude", "ref_roots",
}  # fmt: skip


class ConfigError(SktypesError):
    """``[tool.sktypes]`` (or a formatter setting) cannot be read."""


@dataclass(frozen=True, slots=True)
class Target:
    """One ``[[tool.sktypes.generate]]`` entry, paths resolved against its pyproject.toml."""

    spec: Path
    output: Path
    name: str | None
    sync: bool = False
    split: bool | None = None
    validate: bool = True
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    ref_roots: tuple[Path, ...] = ()

    @property
    def package(self) -> Path | None:
        """The package directory (known when ``name`` is given)."""
        return self.output / self.name if self.name else None


def find_pyproject(start: Path | None = None) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` (the working directory)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _toml(path: Path) -> dict[str, Any]:
    # the one loader's reader: a regular file only, never past the byte limit
    raw = read_file(path, str(path), DEFAULT_LIMITS, ConfigError, regular_only=True)
    try:
        return tomllib.loads(decode_utf8(raw, str(path), ConfigError))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"not valid TOML: {exc}", file=str(path)) from None


def _table(data: Mapping[str, Any], *keys: str) -> Any:
    node: Any = data
    for key in keys:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def read_targets(pyproject: Path) -> list[Target]:
    """The generation targets ``[tool.sktypes]`` lists (none when there is no table).

    Raises:
        ConfigError: a target misses ``spec``/``output``, or has an unknown or mistyped key
            (named with its ``tool.sktypes.generate[i]`` place).
    """
    entries = _table(_toml(pyproject), "tool", "sktypes", "generate")
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ConfigError("tool.sktypes.generate must be an array of tables", file=str(pyproject))
    base = pyproject.parent
    targets = []
    for i, entry in enumerate(entries):
        where = f"tool.sktypes.generate[{i}]"
        if not isinstance(entry, Mapping):
            raise ConfigError("not a table", file=str(pyproject), where=where)
        unknown = sorted(set(entry) - _TARGET_KEYS)
        if unknown:
            raise ConfigError(
                f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_TARGET_KEYS))})",
                file=str(pyproject),
                where=where,
            )
        try:
            targets.append(
                Target(
                    spec=base / _str(entry, "spec", required=True),
                    output=base / _str(entry, "output", required=True),
                    name=_str(entry, "name"),
                    sync=_flag(entry, "sync", False),
                    split=entry["split"] if isinstance(entry.get("split"), bool) else None,
                    validate=_flag(entry, "validate", True),
                    include=_patterns(entry, "include"),
                    exclude=_patterns(entry, "exclude"),
                    ref_roots=tuple(base / p for p in _patterns(entry, "ref_roots")),
                )
            )
        except (TypeError, KeyError) as exc:
            raise ConfigError(str(exc).strip("'\""), file=str(pyproject), where=where) from None
    return targets


def _str(entry: Mapping[str, Any], key: str, *, required: bool = False) -> Any:
    value = entry.get(key)
    if value is None and required:
        raise KeyError(f"{key!r} is required")
    if value is not None and not isinstance(value, str):
        raise TypeError(f"{key!r} must be a string")
    return value


def _flag(entry: Mapping[str, Any], key: str, default: bool) -> bool:
    value = entry.get(key, default)
    if not isinstance(value, bool):
        raise TypeError(f"{key!r} must be true or false")
    return value


def _patterns(entry: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{key!r} must be a list of patterns")
    return tuple(value)


def formatter_line_length(start: Path) -> int:
    """The line length the repository's formatter uses for code written under ``start``.

    The nearest ``ruff.toml``/``.ruff.toml``/``pyproject.toml`` at or above ``start`` that
    sets one decides: ``[tool.sktypes] line-length``, then ruff's ``line-length``, then
    black's; else :data:`DEFAULT_LINE_LENGTH`.
    """
    here = start.resolve()
    while not here.exists():
        here = here.parent
    for folder in (here, *here.parents):
        for name in ("ruff.toml", ".ruff.toml"):
            if (folder / name).is_file():
                width = _table(_toml(folder / name), "line-length")
                if isinstance(width, int):
                    return width
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            data = _toml(pyproject)
            for keys in (
                ("tool", "sktypes", "line-length"),
                ("tool", "ruff", "line-length"),
                ("tool", "black", "line-length"),
            ):
                width = _table(data, *keys)
                if isinstance(width, int):
                    return width
    return DEFAULT_LINE_LENGTH


_BUDGET_KEYS = {"source", "tokens", "format", "detail", "include", "exclude"}


@dataclass(frozen=True, slots=True)
class Budget:
    """One ``[[tool.sktypes.budget]]`` entry: a manual, or what a source serves, held to tokens.

    ``source`` is a functions manual (a JSON tool list, counted as written) or anything
    ``sktypes manual`` reads (a spec, a plugin, a package: its manual in ``format`` at
    ``detail`` is counted, as ``sktypes serve --detail`` would list it for ``mcp``).
    """

    source: Path
    tokens: int
    format: str = "mcp"
    detail: str = "full"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()


def read_budgets(pyproject: Path) -> list[Budget]:
    """The token budgets ``[tool.sktypes]`` lists (``[[tool.sktypes.budget]]``).

    Raises:
        ConfigError: an entry misses ``source``/``tokens`` or has an unknown or mistyped key
            (named with its ``tool.sktypes.budget[i]`` place).
    """
    from sktypes.manual import DETAILS, FORMATS

    entries = _table(_toml(pyproject), "tool", "sktypes", "budget")
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise ConfigError("tool.sktypes.budget must be an array of tables", file=str(pyproject))
    budgets = []
    for i, entry in enumerate(entries):
        where = f"tool.sktypes.budget[{i}]"
        if not isinstance(entry, Mapping):
            raise ConfigError("not a table", file=str(pyproject), where=where)
        unknown = sorted(set(entry) - _BUDGET_KEYS)
        if unknown:
            raise ConfigError(
                f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_BUDGET_KEYS))})",
                file=str(pyproject),
                where=where,
            )
        try:
            tokens = entry.get("tokens")
            if not isinstance(tokens, int) or isinstance(tokens, bool) or tokens < 1:
                raise TypeError("'tokens' must be a positive integer")
            fmt = _str(entry, "format") or "mcp"
            if fmt not in FORMATS:
                raise TypeError(f"'format' must be one of {', '.join(FORMATS)}")
            detail = _str(entry, "detail") or "full"
            if detail not in DETAILS:
                raise TypeError(f"'detail' must be one of {', '.join(DETAILS)}")
            budgets.append(
                Budget(
                    source=pyproject.parent / _str(entry, "source", required=True),
                    tokens=tokens,
                    format=fmt,
                    detail=detail,
                    include=_patterns(entry, "include"),
                    exclude=_patterns(entry, "exclude"),
                )
            )
        except (TypeError, KeyError) as exc:
            raise ConfigError(str(exc).strip("'\""), file=str(pyproject), where=where) from None
    return budgets
