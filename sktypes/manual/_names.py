"""Provider names: each format's rule, and the reversible table of names written.

The planner, Gemini and MCP formats use ``Plugin.Function``; OpenAI and Anthropic allow only
``[A-Za-z0-9_-]{1,64}``, so they use ``Plugin-Function``. Characters a format refuses become
``_``. A name over the length limit is the function's name alone when that fits and no other
function of the manual has it (a :class:`NameTable` maps it back to its plugin); only then
does it keep its head and end with an 8-character hash of the full name, so distinct
functions keep distinct names.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from sktypes.views import FunctionView

__all__ = ["NameTable", "provider_name", "split_name"]


@dataclass(frozen=True, slots=True)
class _NameRule:
    separator: str
    invalid: re.Pattern[str]
    limit: int
    must_start: re.Pattern[str] | None = None


_OPENAI_NAMES = _NameRule("-", re.compile(r"[^A-Za-z0-9_-]"), 64)
_NAME_RULES: dict[str, _NameRule] = {
    "planner": _NameRule(".", re.compile(r"[\x00-\x1f]"), 1024),
    "text": _NameRule(".", re.compile(r"[\x00-\x1f]"), 1024),
    "openai": _OPENAI_NAMES,
    "openai-strict": _OPENAI_NAMES,
    "anthropic": _OPENAI_NAMES,
    "gemini": _NameRule(".", re.compile(r"[^A-Za-z0-9_.:-]"), 128, re.compile(r"^[A-Za-z_]")),
    "mcp": _NameRule(".", re.compile(r"[^A-Za-z0-9._-]"), 128),
    "openai-responses": _OPENAI_NAMES,
}


def provider_name(view: FunctionView, format: str) -> str:
    """Return the name ``view`` has in ``format`` (valid for that provider).

    Stateless, so a name over the limit is shortened with a hash (a :class:`NameTable`
    first tries the function's name alone, which needs the table to be unique).
    """
    rule = _NAME_RULES[format]
    full = view.qualified_name(rule.separator)
    name = _cleaned(full, rule)
    if len(name) > rule.limit:
        digest = hashlib.sha1(full.encode()).hexdigest()[:8]
        name = f"{name[: rule.limit - 9]}_{digest}"
    return name


def _cleaned(name: str, rule: _NameRule) -> str:
    name = rule.invalid.sub("_", name) or "_"
    if rule.must_start is not None and not rule.must_start.match(name):
        name = "_" + name
    return name


class NameTable:
    """The reversible map between provider names and (plugin, function) pairs.

    ``functions_manual(..., names=table)`` records every name it writes (and makes names
    that would collide distinct); ``views_from_manual(..., names=table)`` maps them back, so
    a name shortened or cleaned for a provider still resolves to the original function.
    """

    def __init__(self) -> None:
        self._by_name: dict[str, tuple[str, str]] = {}

    def assign(self, view: FunctionView, format: str) -> str:
        """Return the provider name of ``view`` in ``format``, unique within this table."""
        key = (view.plugin_name, view.name)
        rule = _NAME_RULES[format]
        name = provider_name(view, format)
        bare = _cleaned(view.name, rule)
        if (
            len(_cleaned(view.qualified_name(rule.separator), rule)) > rule.limit
            and len(bare) <= rule.limit
            and self._by_name.get(bare, key) == key
        ):
            name = bare  # readable: the function's own name, unique in this table
        n = 1
        while self._by_name.get(name, key) != key:
            rule = _NAME_RULES[format]
            digest = hashlib.sha1(f"{view.qualified_name(rule.separator)}#{n}".encode())
            name = f"{name[: rule.limit - 9]}_{digest.hexdigest()[:8]}"
            n += 1
        self._by_name[name] = key
        return name

    def lookup(self, name: str) -> tuple[str, str] | None:
        """Return ``(plugin_name, function_name)`` for a provider name, if it was written."""
        return self._by_name.get(name)

    def __len__(self) -> int:
        return len(self._by_name)


def split_name(name: str, separator: str) -> tuple[str, str]:
    """``(plugin, function)`` of a provider name (no plugin when there is no separator)."""
    plugin, sep, func = name.partition(separator)
    return (plugin, func) if sep and plugin and func else ("", name)
