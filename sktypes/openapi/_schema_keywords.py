"""The non-schema keywords of a spec schema, converted to draft 2020-12 and checked.

:class:`~sktypes.openapi._schemas.SchemaConverter` walks the keywords that hold schemas;
every other keyword's value goes through :meth:`KeywordRules._keyword`: ``type`` (2.0's
``file`` → binary string), boolean ``exclusiveMinimum``/``Maximum`` → numbers, ``example``
→ ``examples``, and a value the 2020-12 meta-schema would reject is dropped with a warning
naming its place.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Any

from sktypes.errors import SktypesError
from sktypes.jsondoc import freeze
from sktypes.openapi._refs import Place

__all__ = ["KeywordRules"]

_NUMBER = frozenset({"multipleOf", "maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"})
_COUNT = frozenset(
    {
        "maxLength",
        "minLength",
        "maxItems",
        "minItems",
        "maxProperties",
        "minProperties",
        "maxContains",
        "minContains",
    }
)
_BOOL = frozenset({"uniqueItems", "readOnly", "writeOnly", "deprecated"})
_TEXT = frozenset(
    {"title", "description", "format", "contentEncoding", "contentMediaType", "$comment"}
)
_TYPES = frozenset({"string", "number", "integer", "boolean", "null", "object", "array"})


class KeywordRules(ABC):
    """The keyword rules of :class:`~sktypes.openapi._schemas.SchemaConverter` (its base)."""

    _legacy: bool
    _swagger2: bool
    _regex_ok: dict[str, bool]

    @abstractmethod
    def warn(self, message: str, place: Place) -> None:
        """Report ``message`` at ``place`` (the converter's warning sink)."""

    def _keyword(
        self, key: str, value: Any, node: dict[str, Any], place: Place, out: dict[str, Any]
    ) -> None:
        """Copy one non-schema keyword, converted to 2020-12 and checked against its meta-schema."""
        problem: str | None = None
        if key == "type":
            problem = self._type(value, out)
        elif key in ("nullable", "x-nullable") and (self._legacy or value is True):
            return  # read in _convert
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            if not self._legacy:
                self.warn(f"{key} is a boolean (an OpenAPI 3.0 form); converted", place.child(key))
            if value and _is_number(node.get(bound)):
                out[key] = node[bound]
                out.pop(bound, None)
            return
        elif key in ("minimum", "maximum") and node.get("exclusive" + key.title()) is True:
            return  # folded into the exclusive bound above
        elif key == "example" and self._legacy:
            if "examples" not in node:
                out["examples"] = (self._freeze(value, place.child(key)),)
            return
        elif key in _NUMBER:
            if not _is_number(value) or (key == "multipleOf" and value <= 0):
                problem = "must be a number" + (" > 0" if key == "multipleOf" else "")
        elif key in _COUNT:
            if not _is_number(value) or value < 0 or value != int(value):
                problem = "must be a non-negative integer"
            else:
                value = int(value)
        elif key in _BOOL:
            if not isinstance(value, bool):
                problem = "must be a boolean"
        elif key in _TEXT:
            if not isinstance(value, str):
                problem = "must be a string"
        elif key == "pattern":
            if not isinstance(value, str) or not self._regex(value):
                problem = "is not a valid regular expression"
        elif key == "required":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problem = "must be an array of property names"
            elif len(set(value)) != len(value):
                self.warn("required names a property twice; deduplicated", place.child(key))
                value = list(dict.fromkeys(value))
        elif key in ("enum", "examples") and not isinstance(value, list):
            problem = "must be an array"
        if problem is not None:
            self.warn(f"{key} {problem}; dropped", place.child(key))
            return
        if key == "type" or (key.startswith("x-") and _has_ref(value)):
            return  # an extension holding $refs would look like a dangling reference
        frozen = self._freeze(value, place.child(key))
        if frozen is not _UNFREEZABLE:
            out[key] = frozen

    def _type(self, value: Any, out: dict[str, Any]) -> str | None:
        names = value if isinstance(value, list) else [value]
        kept: list[str] = []
        for t in names:
            if t == "file" and self._swagger2:
                kept.append("string")
                out.setdefault("format", "binary")
            elif isinstance(t, str) and t in _TYPES:
                kept.append(t)
            else:
                return f"has an unknown type {t!r}"
        kept = list(dict.fromkeys(kept))
        if not kept:
            return "is empty"
        out["type"] = kept[0] if len(kept) == 1 else tuple(kept)
        return None

    def _regex(self, pattern: str) -> bool:
        ok = self._regex_ok.get(pattern)
        if ok is None:
            try:
                re.compile(pattern)
                ok = True
            except (re.error, RecursionError, OverflowError):
                ok = False
            self._regex_ok[pattern] = ok
        return ok

    def _freeze(self, value: Any, place: Place) -> Any:
        try:
            return freeze(value)
        except SktypesError:
            self.warn("value is not JSON; dropped", place)
            return _UNFREEZABLE


_UNFREEZABLE = object()


def _has_ref(value: Any) -> bool:
    if isinstance(value, dict):
        return "$ref" in value or any(_has_ref(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_ref(v) for v in value)
    return False


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
