"""Spec schemas (Swagger 2.0, OpenAPI 3.0 / 3.1) → self-contained JSON Schema draft 2020-12.

Every ``$ref`` target becomes one ``$defs`` entry, converted **once per plugin** (cached by
its absolute URI) and shared, frozen, by every view schema that needs it: a view schema is
its converted root plus the ``$defs`` its refs reach. Recursive schemas therefore stay
``$ref`` + ``$defs``; nothing is inlined.

The walk is structural (it knows which keywords hold schemas), so a *property* called
``$ref`` is a property. Conversions: ``nullable``/``x-nullable`` → a ``"null"`` type (or
``anyOf`` with ``null``; in 3.1, which has no ``nullable``, with a warning naming the
place; :mod:`sktypes.openapi._nulls`), boolean ``exclusiveMinimum``/``Maximum`` → numbers,
``example`` → ``examples``, 2.0 ``type: file`` → binary string, tuple ``items`` →
``prefixItems``; in 2.0 and 3.0 the siblings of a ``$ref`` are ignored except annotations
(as those versions say).
Keyword values the 2020-12 meta-schema would reject (``required: true`` on a property, an
invalid ``pattern``) are dropped with a warning, so every result passes ``check_schema``.
Request schemas drop ``readOnly`` properties, response schemas ``writeOnly`` ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import unquote, urldefrag

from sktypes import _pointer
from sktypes.errors import OpenApiError
from sktypes.jsondoc import FrozenDict, JsonDocument
from sktypes.openapi._nulls import ANNOTATIONS as _ANNOTATIONS
from sktypes.openapi._nulls import null_members, nullable
from sktypes.openapi._refs import Place, Refs
from sktypes.openapi._schema_keywords import KeywordRules

__all__ = ["Mode", "SchemaConverter"]

Mode = Literal["request", "response"]

_MAPS = frozenset({"properties", "patternProperties", "dependentSchemas"})
_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_ONE = frozenset(
    {
        "not",
        "additionalProperties",
        "additionalItems",
        "contains",
        "if",
        "then",
        "else",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    }
)
_DROPPED = frozenset(
    {"$defs", "definitions", "$id", "$schema", "$anchor", "$dynamicAnchor", "$dynamicRef"}
)
_FOREIGN = frozenset({"$recursiveAnchor", "$recursiveRef", "$vocabulary"})
_COMPONENT_NAME = re.compile(r"[A-Za-z0-9._-]+")
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_EMPTY = FrozenDict()


@dataclass(slots=True)
class _Def:
    name: str
    value: Any = None
    deps: set[str] = field(default_factory=set)
    sensitive: bool = False  # has readOnly/writeOnly properties: differs by mode


@dataclass(slots=True)
class _Pending:
    key: tuple[str, Mode]
    raw: Any
    place: Place


class SchemaConverter(KeywordRules):
    """Convert spec schemas to draft 2020-12, sharing converted components across views.

    Args:
        refs: the spec's ref resolver.
        version: 2 (Swagger 2.0), 30 (OpenAPI 3.0) or 31 (3.1).
        warn: called with one message per problem repaired (each names a JSON pointer).
    """

    def __init__(self, refs: Refs, version: int, warn: Callable[[str], None]) -> None:
        self._refs = refs
        self._legacy = version < 31
        self._swagger2 = version == 2
        self._warn = warn
        self._defs: dict[tuple[str, Mode], _Def] = {}
        self._names: dict[str, str] = {}
        self._by_name: dict[str, str] = {}
        self._taken: set[str] = set()
        self._flags: dict[str, tuple[bool, bool]] = {}
        self._pending: list[_Pending] = []
        self._regex_ok: dict[str, bool] = {}
        self._free: set[str] = set()
        self._ends: set[tuple[str, Mode]] = set()  # alias chains known to end in a real schema
        self._hit = False

    # -- public --------------------------------------------------------------------------
    def view_schema(self, node: Any, place: Place, mode: Mode) -> JsonDocument:
        """Return ``node`` as a self-contained schema: its refs under its own ``$defs``."""
        deps: set[str] = set()
        try:
            root = self._convert(node, place, mode, deps)
            self._drain()
        except RecursionError:
            raise self._refs.error("schema nested too deeply", place) from None
        root = _as_object(root)
        if not deps:
            return JsonDocument(root)
        defs: dict[str, Any] = {}
        seen: set[str] = set()
        todo = list(deps)
        while todo:
            uri = todo.pop()
            if uri in seen:
                continue
            seen.add(uri)
            d = self._defs.get((uri, mode)) or self._defs[(uri, _OTHER[mode])]
            defs[d.name] = d.value
            todo.extend(d.deps - seen)
        base: dict[str, Any] = dict(root) if isinstance(root, FrozenDict) else {"allOf": [root]}
        base["$defs"] = FrozenDict(dict(sorted(defs.items())))
        return JsonDocument(base)

    def sources(self) -> dict[str, str]:
        """Where each ``$defs`` name came from.

        ``#<pointer>`` in the root file, else ``<file>#<pointer>``: what a consumer names in
        a message about that definition.
        """
        out: dict[str, str] = {}
        for name, target in self._by_name.items():
            uri, fragment = urldefrag(target)
            pointer = unquote(fragment)
            prefix = "" if uri == self._refs.root_uri else self._refs.display(uri)
            out[name] = f"{prefix}#{pointer}"
        return out

    def warn(self, message: str, place: Place) -> None:
        """Record a warning naming ``place`` (file too, when it is not the root file)."""
        prefix = "" if place.uri.startswith(self._refs.root_uri) else self._refs.display(place.uri)
        pointer = place.pointer or "/"
        self._warn(f"{prefix}#{pointer}: {message}" if prefix else f"{pointer}: {message}")

    # -- refs and $defs ------------------------------------------------------------------
    def _ref(self, ref: str, place: Place, mode: Mode, deps: set[str]) -> str:
        target = self._refs.absolute(ref, place.uri)
        if "#" not in target:
            target += "#"
        known = self._defs.get((target, mode))
        if known is None:
            raw, target = self._refs.lookup(ref, place)
            if "#" not in target:
                target += "#"
            known = self._defs.get((target, mode))
        if known is None and self._mode_free(target, _OTHER[mode]):
            known = self._defs[(target, _OTHER[mode])]  # same either way: share it
            self._defs[(target, mode)] = known
        if known is None:
            name = self._names.get(target) or self._name_for(target)
            known = _Def(name)
            self._defs[(target, mode)] = known
            uri, fragment = urldefrag(target)
            if isinstance(raw, dict):
                self._flags[target] = (raw.get("readOnly") is True, raw.get("writeOnly") is True)
            self._pending.append(_Pending((target, mode), raw, Place(uri, unquote(fragment))))
        deps.add(target)
        return known.name

    def _mode_free(self, target: str, mode: Mode) -> bool:
        """Whether ``target`` converted in ``mode`` has no mode-dependent part, deps included."""
        if target in self._free:
            return True
        seen: set[str] = set()
        todo = [target]
        while todo:
            uri = todo.pop()
            if uri in seen or uri in self._free:
                continue
            seen.add(uri)
            d = self._defs.get((uri, mode))
            if d is None or d.value is None or d.sensitive:
                return False
            todo.extend(d.deps)
        self._free |= seen
        return True

    def _drain(self) -> None:
        bare: list[_Pending] = []
        while self._pending:
            job = self._pending.pop()
            d = self._defs[job.key]
            self._hit = False
            d.value = _as_object(self._convert(job.raw, job.place, job.key[1], d.deps))
            d.sensitive = self._hit
            if isinstance(d.value, FrozenDict) and len(d.value) == 1 and "$ref" in d.value:
                bare.append(job)
        for job in bare:
            self._check_alias_cycle(job)

    def _check_alias_cycle(self, job: _Pending) -> None:
        """Refuse schemas that are only ``$ref``s to each other (they describe nothing).

        Linear over all jobs: a chain found to end is remembered (``_ends``), so a long
        chain of aliases is walked once, not once per link.
        """
        target, mode = job.key
        chain = [target]
        on_chain = {target}
        while (target, mode) not in self._ends:
            value = self._defs[(target, mode)].value
            if not (isinstance(value, FrozenDict) and len(value) == 1 and "$ref" in value):
                break
            nxt = self._by_name.get(value["$ref"][len("#/$defs/") :])
            if nxt is None or (nxt, mode) not in self._defs:
                break
            if nxt in on_chain:
                cycle = [*chain[chain.index(nxt) :], nxt]
                text = " → ".join("#" + urldefrag(t)[1] for t in cycle)
                raise self._refs.error(f"$ref cycle in a schema: {text}", job.place)
            chain.append(nxt)
            on_chain.add(nxt)
            target = nxt
        self._ends.update((t, mode) for t in on_chain)

    def _name_for(self, target: str) -> str:
        uri, fragment = urldefrag(target)
        try:
            tokens = [t for t in _pointer.split("#" + fragment) if t]
        except _pointer.PointerError:
            tokens = [t for t in unquote(fragment).split("/") if t]
        stem = uri.rsplit("/", 1)[-1].split(".", 1)[0] or "Schema"
        if not tokens:
            name = stem
        elif len(tokens) >= 2 and tokens[-2] in ("schemas", "definitions", "$defs"):
            name = tokens[-1]
        else:
            name = "_".join(tokens[-2:])
        name = _NAME_UNSAFE.sub("_", name).strip("_") or "Schema"
        if name in self._taken:
            prefixed = _NAME_UNSAFE.sub("_", f"{stem}_{name}")
            if uri != self._refs.root_uri and prefixed not in self._taken:
                name = prefixed
            else:
                n = 2
                while f"{name}_{n}" in self._taken:
                    n += 1
                name = f"{name}_{n}"
        self._taken.add(name)
        self._names[target] = name
        self._by_name[name] = target
        return name

    # -- conversion ----------------------------------------------------------------------
    def _convert(self, node: Any, place: Place, mode: Mode, deps: set[str]) -> Any:
        if isinstance(node, bool):
            return node
        if not isinstance(node, dict):
            self.warn(f"a schema must be an object, not {type(node).__name__}; using {{}}", place)
            return _EMPTY
        ref = node.get("$ref")
        out: dict[str, Any] = {}
        lifted = False  # an allOf member's typeless nullable: the whole allOf or null
        if isinstance(ref, str):
            out["$ref"] = "#/$defs/" + self._ref(ref, place, mode, deps)
            if self._legacy:
                node = {k: v for k, v in node.items() if k in _ANNOTATIONS}
        for key, value in node.items():
            if key == "$ref":
                if not isinstance(value, str):
                    self.warn("$ref must be a string; dropped", place.child(key))
            elif key in _MAPS:
                self._convert_map(key, value, place, mode, deps, out)
            elif key in _LISTS:
                if isinstance(value, list) and value:
                    sub = place.child(key)
                    if key == "allOf":
                        value = null_members(value, sub, self.warn, legacy=self._legacy)
                        lifted = value is not node[key]
                    out[key] = tuple(
                        _as_object(self._convert(v, sub.child(i), mode, deps))
                        for i, v in enumerate(value)
                    )
                else:
                    self.warn(f"{key} must be a non-empty array; dropped", place.child(key))
            elif key == "items":
                if isinstance(value, list) and not value:
                    self.warn("items must not be an empty array; dropped", place.child(key))
                elif isinstance(value, list):
                    sub = place.child(key)
                    out["prefixItems"] = tuple(
                        self._convert(v, sub.child(i), mode, deps) for i, v in enumerate(value)
                    )
                else:
                    out[key] = self._convert(value, place.child(key), mode, deps)
            elif key in _ONE:
                out[key] = self._convert(value, place.child(key), mode, deps)
            elif key in _DROPPED:
                continue
            elif key == "discriminator" and isinstance(value, dict):
                mapping = value.get("mapping")
                if isinstance(mapping, dict):
                    sub = place.child(key, "mapping")
                    value = {**value, "mapping": self._mapping(mapping, sub, mode, deps)}
                self._keyword(key, value, node, place, out)
            elif key in _FOREIGN:
                self.warn(f"{key} is not a draft 2020-12 schema keyword; dropped", place.child(key))
            else:
                self._keyword(key, value, node, place, out)
        if "properties" in out:
            self._drop_by_mode(out, mode)
        flag = next((k for k in ("nullable", "x-nullable") if node.get(k) is True), None)
        if lifted and flag is None:
            out = nullable(out)
        elif flag is not None:
            if not self._legacy:  # 3.1 has no nullable: honour it as meant, and say so
                self.warn(f"{flag}: true is not OpenAPI 3.1; read as its type or null", place)
            out = nullable(out)
        return FrozenDict(out)

    def _mapping(
        self, mapping: dict[str, Any], place: Place, mode: Mode, deps: set[str]
    ) -> dict[str, Any]:
        """A discriminator's mapping, its references resolved like any ``$ref``.

        A value is a schema name (``Cat``: a schema of the root document's components, kept
        for the schema model to find by name) or a reference, local (``#/components/...``)
        or to another file (DigitalOcean's ``models/volume_action_post_attach.yml``),
        relative to the document it is written in: it becomes ``#/$defs/<name>`` of the view
        schema, as a ``$ref`` does. A reference that cannot be followed is dropped with a
        warning saying why (the option's own name or tag still discriminates it).
        """
        out: dict[str, Any] = {}
        for key, target in mapping.items():
            if not isinstance(target, str) or self._schema_name(target):
                out[key] = target
                continue
            try:
                out[key] = "#/$defs/" + self._ref(target, place, mode, deps)
            except OpenApiError as exc:
                self.warn(f"{exc.message}; the mapping of {key!r} dropped", place.child(key))
        return out

    def _schema_name(self, target: str) -> bool:
        """Whether ``target`` names a schema of the root document's components."""
        if not _COMPONENT_NAME.fullmatch(target):
            return False
        root = self._refs.document(self._refs.root_uri)
        data = root.data if root is not None else None
        components = data.get("components") if isinstance(data, dict) else None
        schemas = components.get("schemas") if isinstance(components, dict) else None
        return isinstance(schemas, dict) and target in schemas

    def _convert_map(
        self, key: str, value: Any, place: Place, mode: Mode, deps: set[str], out: dict[str, Any]
    ) -> None:
        sub = place.child(key)
        if isinstance(value, dict) and isinstance(value.get("$ref"), str):
            # a $ref'd map of properties (DigitalOcean); a property *named* $ref has an
            # object as its value (Kubernetes), never a string
            self.warn(f"$ref in place of the {key} object (not allowed); followed", sub)
            value, sub = self._refs.follow(value, sub, key)
        if not isinstance(value, dict):
            self.warn(f"{key} must be an object; dropped", place.child(key))
            return
        out[key] = FrozenDict(
            {name: self._convert(v, sub.child(name), mode, deps) for name, v in value.items()}
        )

    def _drop_by_mode(self, out: dict[str, Any], mode: Mode) -> None:
        flag = "readOnly" if mode == "request" else "writeOnly"
        index = 0 if mode == "request" else 1
        props: FrozenDict = out["properties"]
        drop = []
        for name, sub in props.items():
            if not isinstance(sub, FrozenDict):
                continue
            flags = (sub.get("readOnly") is True, sub.get("writeOnly") is True)
            ref = sub.get("$ref")
            if isinstance(ref, str) and len(sub) == 1:
                target = self._by_name.get(ref[len("#/$defs/") :])
                if target is not None:
                    flags = self._flags.get(target, (False, False))
            if flags[0] or flags[1]:
                self._hit = True
            if flags[index] or sub.get(flag) is True:
                drop.append(name)
        if not drop:
            return
        out["properties"] = FrozenDict({k: v for k, v in props.items() if k not in drop})
        if "required" in out:
            out["required"] = tuple(r for r in out["required"] if r not in drop)


_OTHER: dict[Mode, Mode] = {"request": "response", "response": "request"}


def _as_object(schema: Any) -> Any:
    """Write ``true``/``false`` as ``{}``/``{"not": {}}``.

    Same meaning; readers of views (type detection, dialects) expect objects where a schema
    stands alone.
    """
    if isinstance(schema, bool):
        return _EMPTY if schema else FrozenDict({"not": _EMPTY})
    return schema
