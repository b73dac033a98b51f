"""Schemas as a functions manual shows them: ``full`` (exact, shortest form) or ``compact``.

Both read the schema through the schema model and write it back with an emitter, then write
every definition used once (and not recursive) where it is used:

- ``full`` says exactly what the schema says, in its shortest form: ``"X or null"`` as a
  type list, ``null`` as one more listed value, bare types as one type list. Writing a
  full schema again gives the same schema (the manual's round trip rests on it).
- ``compact`` keeps every keyword a validator enforces and the facts a model needs to call
  correctly (types, ``required``, ``enum``, ``format``, ``default``, ``deprecated``,
  ``readOnly``/``writeOnly``, the first sentence of each description), and drops what
  repeats or does not help: ``title``, ``examples``, ``$comment``, ``x-`` extensions, a
  ``type`` that listed values already imply, a description that repeats one above it, and
  every sentence of a description after the first.

What a compact schema no longer says is still enforced when a call arrives: calls are
checked against the full view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from sktypes._identity import IdentityCache, ValueCache
from sktypes.jsondoc import JsonDocument, thaw
from sktypes.schema._emit import Emitter
from sktypes.schema._inline import inline_refs, unused_definitions_dropped
from sktypes.schema._model import SchemaModel
from sktypes.schema._nodes import ConstNode, EnumNode, Node

__all__ = ["ONE_LINE", "compact_schema", "first_sentence", "full_schema"]

Json = dict[str, Any]

ONE_LINE = 160
"""The most characters a first sentence keeps (longer ones end with ``…``)."""

_DROPPED_EXTRA = frozenset({"$comment", "example", "externalDocs", "xml", "$schema", "$id"})
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "no", "fig", "eg", "ie"})
_END = re.compile(r"[.!?](?=\s|$)")
_MARKUP = re.compile(r"^\s*(?:#+\s*|[*_]{2}(?=\w))")
_LINK = re.compile(r"\[([^\]\n]+)\]\((?:[^()\s]|\([^()\s]*\))+\)")  # [text](url) -> text
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


def first_sentence(text: str | None, limit: int = ONE_LINE) -> str:
    """The first sentence of ``text`` on one line (at most ``limit`` characters).

    The first paragraph, whitespace collapsed, Markdown links as their text and HTML tags
    left out, up to the first ``.``, ``!`` or ``?`` that ends a sentence (not one closing
    ``e.g.``, ``i.e.``, an initial or a number). Longer than ``limit``: cut at a word and
    ended with ``…``.
    """
    if not text:
        return ""
    paragraph = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0]
    paragraph = _TAG.sub("", _LINK.sub(r"\1", paragraph))
    flat = " ".join(paragraph.split())
    flat = _MARKUP.sub("", flat)
    for match in _END.finditer(flat):
        word = flat[: match.start()].rsplit(" ", 1)[-1].lower().lstrip("(")
        if word in _ABBREVIATIONS or len(word) == 1 or word.replace(".", "").isdigit():
            continue
        flat = flat[: match.end()]
        break
    if len(flat) > limit:
        cut = flat[: limit - 1].rsplit(" ", 1)[0] if " " in flat[: limit - 1] else flat[: limit - 1]
        flat = cut.rstrip(",;:") + "…"
    return flat


class _Compact(Emitter):
    """Every enforced keyword; annotations trimmed to what a model needs to call."""

    describes = True

    def __init__(self, model: SchemaModel) -> None:
        super().__init__(model)
        self._said: list[str] = []

    def emit(self, node: Node) -> Json:
        text = first_sentence(node.description) if self.describes else ""
        if text in self._said:
            text = ""  # said already, by a schema this one is part of
        self._said.append(text)
        try:
            out = self._kinds[type(node)](node)
        finally:
            self._said.pop()
        return self._annotate(node, out, text)

    def _annotate(self, node: Node, out: Json, text: str) -> Json:
        if text:
            note = out.get("description")
            out["description"] = f"{text} {note}" if note else text
        if node.has_default:
            out["default"] = thaw(node.default)
        if node.deprecated:
            out["deprecated"] = True
        if node.read_only:
            out["readOnly"] = True
        if node.write_only:
            out["writeOnly"] = True
        for key, value in node.extra.items():
            if key not in _DROPPED_EXTRA and not key.startswith("x-"):
                out.setdefault(key, thaw(value))
        return out

    def enum(self, node: EnumNode) -> Json:
        return {"enum": thaw(node.values)}  # the values say their type

    def const(self, node: ConstNode) -> Json:
        return {"const": thaw(node.value)}


class _CompactResult(_Compact):
    """A compact return schema: its shape and constraints, no descriptions.

    A model needs descriptions to call a function; the values it gets back speak for
    themselves, and their schema's shape is what code written against them needs.
    """

    describes = False


_FULL: IdentityCache[object, JsonDocument] = IdentityCache(4096)
_COMPACT: IdentityCache[object, JsonDocument] = IdentityCache(4096)
_COMPACT_RESULT: IdentityCache[object, JsonDocument] = IdentityCache(4096)
_WRITTEN: ValueCache[tuple[type[Emitter], str], JsonDocument] = ValueCache(4096)
"""Written schemas by emitter and by the exact text of the schema written.

Many functions of one API take or return a schema equal to another's (GitHub's 1,223
operations: 930 return schemas, 465 different) built as separate objects: written once.
The written form depends only on the schema's value, which its text (key order and number
forms kept) says exactly.
"""


def full_schema(schema: JsonDocument | Mapping[str, Any]) -> Json:
    """``schema`` exactly, in its shortest form (a new dict; remembered for frozen schemas)."""
    return _shown(schema, Emitter, _FULL)


def compact_schema(schema: JsonDocument | Mapping[str, Any], *, result: bool = False) -> Json:
    """``schema`` with every enforced keyword and only the annotations a model needs.

    ``result``: the schema of a return value (descriptions left out as well).
    """
    if result:
        return _shown(schema, _CompactResult, _COMPACT_RESULT)
    return _shown(schema, _Compact, _COMPACT)


def _write(schema: Mapping[str, Any], emitter: type[Emitter]) -> Json:
    """Definitions used once written in place, then the whole written by ``emitter``."""
    from sktypes.schema import parse

    out: Json = thaw(schema)
    for _ in range(32):  # to the fixpoint: what the model reads back from it, it writes again
        inlined = inline_refs(unused_definitions_dropped(out), single_use=True)
        written: Json = emitter(parse(inlined)).document()
        if written == out:
            break
        out = written
    return out


def _shown(
    schema: JsonDocument | Mapping[str, Any],
    emitter: type[Emitter],
    cache: IdentityCache[object, JsonDocument],
) -> Json:
    if not isinstance(schema, JsonDocument):
        return _write(schema, emitter)
    hit = cache.get(schema)
    if hit is None:
        key = (emitter, schema.to_json())
        hit = _WRITTEN.get(key)
        if hit is None:
            hit = _WRITTEN.put(key, JsonDocument.from_value(_write(schema.value, emitter)))
        cache.put(schema, hit)
    copied: Json = thaw(hit.value)
    return copied
