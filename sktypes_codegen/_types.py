"""JSON Schema (draft 2020-12, as in function views) → Python annotations and class definitions.

One :class:`TypeBuilder` per generated module. It turns each schema into an annotation
string (``list[Pet] | None``) and records the classes the annotations need, either as
pydantic models (generated plugins) or as ``TypedDict``s (stubs). Everything it emits is
built from cleaned names (:mod:`sktypes_codegen._naming`) and ``repr``-safe literals.

Mapping (what a schema becomes):

- ``$ref`` to ``#/$defs/X`` → the class (or the inlined type) of ``X``;
- ``enum``/``const`` → ``Literal[...]``; ``type`` lists, ``anyOf``/``oneOf`` → ``A | B``;
- ``string`` → ``str`` (``date-time``/``date``/``time``/``uuid`` formats → ``datetime``/``uuid``
  types; ``email`` stays ``str``, so generated code needs no ``email-validator``);
- ``integer``/``number``/``boolean``/``null`` → ``int``/``float``/``bool``/``None``;
- ``array`` → ``list[T]``; objects with ``properties`` → a class named after the place;
  objects with only ``additionalProperties`` → ``dict[str, T]``; anything else → ``Any``.
"""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import orjson
from pydantic import BaseModel

from sktypes_codegen._naming import Namespace, class_name, identifier, py_literal

__all__ = ["ClassDef", "FieldDef", "Style", "TypeBuilder"]

Style = Literal["pydantic", "typeddict"]

_MODEL_ATTRS = frozenset(n for n in dir(BaseModel) if not n.startswith("__")) | {
    "model_config",
    "model_fields",
}
_SHADOWING = frozenset({"bool", "int", "str", "float", "list", "dict", "bytes", "datetime", "uuid"})
"""Names annotations use: a field called ``bool`` would hide the type in its class body."""
_FORMATS = {
    "date-time": ("datetime.datetime", "datetime"),
    "date": ("datetime.date", "datetime"),
    "time": ("datetime.time", "datetime"),
    "uuid": ("uuid.UUID", "uuid"),
}
_SCALARS = {"integer": "int", "number": "float", "boolean": "bool", "null": "None"}
_MAX_DEPTH = 40


@dataclass(frozen=True, slots=True)
class FieldDef:
    """One property of a generated class.

    Attributes:
        name: the Python attribute name (cleaned).
        key: the JSON key on the wire (the alias when it differs from ``name``).
        annotation: the Python type, as source.
        required: the schema lists the key in ``required``.
        description: the property's description.
    """

    name: str
    key: str
    annotation: str
    required: bool
    description: str | None = None

    @property
    def aliased(self) -> bool:
        """The wire key differs from the attribute name."""
        return self.name != self.key


@dataclass(slots=True)
class ClassDef:
    """A generated class: a pydantic model or a ``TypedDict``.

    Attributes:
        name: the class name (unique in the module).
        description: the schema's description (becomes the docstring).
        fields: its properties, in schema order.
        functional: a ``TypedDict`` whose keys are not all identifiers (functional syntax).
    """

    name: str
    description: str | None = None
    fields: list[FieldDef] = field(default_factory=list)
    functional: bool = False

    @property
    def has_aliases(self) -> bool:
        """Some field is sent under another name (needs ``populate_by_name``)."""
        return any(f.aliased for f in self.fields)


class TypeBuilder:
    """Turns schemas into annotations, collecting the classes and imports they need.

    Args:
        defs: the shared definitions (``$defs``) the schemas refer to.
        style: ``"pydantic"`` (models with aliases) or ``"typeddict"`` (stubs).
        taken: names already used in the module (functions, other classes).
    """

    def __init__(self, defs: Mapping[str, Any], style: Style, taken: set[str] | None = None):
        self.defs: dict[str, Any] = dict(defs)
        self.style: Style = style
        self.classes: dict[str, ClassDef] = {}
        self.imports: set[str] = set()
        self.typing_names: set[str] = set()
        self._names = Namespace(taken or ())
        self._def_types: dict[str, str] = {}
        self._resolving: set[str] = set()
        self._pending: tuple[str, int] | None = None
        self._preset: str | None = None
        self._queue: list[tuple[str, str]] = []
        self._shapes: dict[bytes, str] = {}

    # --- public ---------------------------------------------------------------------

    def add_defs(self, defs: Mapping[str, Any]) -> None:
        """Merge more shared definitions (the first schema under a name wins)."""
        for name, schema in defs.items():
            self.defs.setdefault(name, schema)

    def annotation(self, schema: Any, hint: str) -> str:
        """Return the Python type of ``schema``; ``hint`` names any class it creates."""
        if isinstance(schema, Mapping) and schema.get("$defs"):
            schema = self._merge_defs(schema)
        annotation = self._annotation(schema, hint, 0)
        self._drain()
        return annotation

    def _drain(self) -> None:
        """Build the classes of the definitions referenced so far (a worklist, not recursion).

        A reference to an object definition names its class at once and queues the class, so
        deep chains of references (Stripe's expandable fields) never exhaust the depth budget.
        """
        while self._queue:
            key, name = self._queue.pop(0)
            self._preset = name
            try:
                self._annotation(self.defs[key], key, 0)
            finally:
                self._preset = None

    def ordered_classes(self) -> list[ClassDef]:
        """The classes in creation order (dependencies are created before their users)."""
        return list(self.classes.values())

    def _merge_defs(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """Add the schema's ``$defs``; a name already used for another schema is renamed.

        Request and response forms of one component share a name but differ (``readOnly``
        and ``writeOnly`` properties are dropped), so each form gets its own class; a
        definition referring to a renamed one is renamed too.
        """
        local: Mapping[str, Any] = schema["$defs"]
        renamed: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for name, sub in local.items():
                if name in renamed:
                    continue
                known = self.defs.get(name)
                if known is None or (known == sub and not _refers_to(sub, renamed)):
                    continue
                n = 2
                while f"{name}@{n}" in self.defs and (
                    self.defs[f"{name}@{n}"] != _rename_refs(sub, {**renamed, name: ""})
                ):
                    n += 1
                renamed[name] = f"{name}@{n}"
                changed = True
        if renamed:
            schema = _rename_refs(schema, renamed)
            local = {renamed.get(k, k): v for k, v in schema["$defs"].items()}
        for name, sub in local.items():
            self.defs.setdefault(name, sub)
        return schema

    # --- one method per kind --------------------------------------------------------

    def _annotation(self, schema: Any, hint: str, depth: int) -> str:
        if schema is False:
            return "None"
        if schema is True or not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
            return self._any()
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._ref(ref, depth)
        if "const" in schema:
            return self._literal([schema["const"]])
        if isinstance(schema.get("enum"), (list, tuple)) and schema["enum"]:
            return self._literal(list(schema["enum"]))
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, (list, tuple)) and options:
                parts = [
                    self._annotation(o, f"{hint}Option{i + 1}", depth + 1)
                    for i, o in enumerate(options)
                ]
                return self._union(parts)
        all_of = schema.get("allOf")
        if isinstance(all_of, (list, tuple)) and all_of:
            return self._all_of(schema, list(all_of), hint, depth)
        kind = schema.get("type")
        if isinstance(kind, (list, tuple)):
            parts = [self._typed({**schema, "type": k}, str(k), hint, depth) for k in kind]
            return self._union(parts)
        if isinstance(kind, str):
            return self._typed(schema, kind, hint, depth)
        if "properties" in schema:
            return self._object(schema, hint, depth)
        if "items" in schema:
            return self._typed(schema, "array", hint, depth)
        return self._any()

    def _typed(self, schema: Mapping[str, Any], kind: str, hint: str, depth: int) -> str:
        if kind == "string":
            fmt = _FORMATS.get(str(schema.get("format", "")))
            if fmt is not None:
                self.imports.add(fmt[1])
                return fmt[0]
            return "str"
        if kind in _SCALARS:
            return _SCALARS[kind]
        if kind == "array":
            items = schema.get("items")
            inner = self._annotation(items, f"{hint}Item", depth + 1) if items else self._any()
            return f"list[{inner}]"
        if kind == "object":
            return self._object(schema, hint, depth)
        return self._any()

    def _object(self, schema: Mapping[str, Any], hint: str, depth: int) -> str:
        props = schema.get("properties")
        if isinstance(props, Mapping) and props:
            return self._class(schema, props, hint, depth)
        extra = schema.get("additionalProperties")
        if isinstance(extra, Mapping) and extra:
            return f"dict[str, {self._annotation(extra, f'{hint}Value', depth + 1)}]"
        return f"dict[str, {self._any()}]"

    def _class(
        self, schema: Mapping[str, Any], props: Mapping[str, Any], hint: str, depth: int
    ) -> str:
        shape = orjson.dumps(
            {"p": props, "r": schema.get("required"), "d": schema.get("description")},
            option=orjson.OPT_SORT_KEYS,
            default=_frozen,
        )
        preset, self._preset = self._preset, None
        if preset is None and shape in self._shapes:  # an inline object seen before: one class
            return self._shapes[shape]
        name = preset or self._names.claim(f"class:{len(self.classes)}:{hint}", class_name(hint))
        self._shapes.setdefault(shape, name)
        cls = ClassDef(name=name, description=_text(schema.get("description")))
        self.classes[name] = cls  # registered first: recursive users find it
        if self._pending is not None and self._pending[1] == depth:
            self._def_types[self._pending[0]] = name
        self._pending = None
        required = set(schema.get("required") or ())
        attrs = Namespace(_MODEL_ATTRS if self.style == "pydantic" else ())
        for key, sub in props.items():
            ann = self._annotation(sub, f"{name}{class_name(key, prefix='Field')}", depth + 1)
            if self.style == "typeddict":  # TypedDict keys are the wire names themselves
                attr = str(key)
            else:
                attr = attrs.claim(key, identifier(key, prefix="field", reserved=self._reserved()))
            desc = _text(sub.get("description")) if isinstance(sub, Mapping) else None
            cls.fields.append(FieldDef(attr, str(key), ann, key in required, desc))
        cls.functional = self.style == "typeddict" and any(
            not f.key.isidentifier() or keyword.iskeyword(f.key) for f in cls.fields
        )
        # move the class after the ones its fields created (definition order = dependency order)
        self.classes.pop(name)
        self.classes[name] = cls
        return name

    def _all_of(self, schema: Mapping[str, Any], parts: list[Any], hint: str, depth: int) -> str:
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        if len(parts) == 1 and not rest.get("properties"):
            return self._annotation(parts[0], hint, depth + 1)
        merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
        for part in [*parts, rest]:
            resolved = self._resolve(part)
            if not isinstance(resolved, Mapping):
                continue
            merged["properties"].update(resolved.get("properties") or {})
            merged["required"].extend(resolved.get("required") or ())
            if resolved.get("description") and "description" not in merged:
                merged["description"] = resolved["description"]
        if not merged["properties"]:
            return self._annotation(parts[0], hint, depth + 1)
        return self._object(merged, hint, depth)

    def _ref(self, ref: str, depth: int) -> str:
        if not ref.startswith("#/$defs/"):
            return self._any()
        key = ref[len("#/$defs/") :].replace("~1", "/").replace("~0", "~")
        if key in self._def_types:
            return self._def_types[key]
        target = self.defs.get(key)
        if target is None:
            return self._any()
        if _is_class(target) and self._merges_to_object(target):
            name = self._names.claim(f"def:{key}", class_name(key))  # built from the worklist
            kind = target.get("type")
            nullable = isinstance(kind, (list, tuple)) and "null" in kind
            self._def_types[key] = f"{name} | None" if nullable else name
            self._queue.append((key, name))
            return self._def_types[key]
        if key in self._resolving:  # a cycle through a non-class definition
            return self._any()
        self._resolving.add(key)
        self._pending = (key, depth + 1)
        try:
            ann = self._annotation(target, key, depth + 1)
        finally:
            self._resolving.discard(key)
            self._pending = None
        self._def_types[key] = ann
        return ann

    def _merges_to_object(self, schema: Mapping[str, Any]) -> bool:
        """An ``allOf`` definition has properties once merged (else it is not a class)."""
        parts = schema.get("allOf")
        if not parts:
            return True
        resolved = [self._resolve(p) for p in parts]
        return bool(schema.get("properties")) or any(
            isinstance(r, Mapping) and r.get("properties") for r in resolved
        )

    def _resolve(self, schema: Any) -> Any:
        seen: set[str] = set()
        while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            if ref in seen or not ref.startswith("#/$defs/"):
                return None
            seen.add(ref)
            schema = self.defs.get(ref[len("#/$defs/") :])
        return schema

    # --- small pieces ---------------------------------------------------------------

    def _reserved(self) -> frozenset[str]:
        """Attribute names a generated class may not use (pydantic's own API)."""
        return _MODEL_ATTRS | _SHADOWING if self.style == "pydantic" else _SHADOWING

    def _any(self) -> str:
        self.typing_names.add("Any")
        return "Any"

    def _literal(self, values: list[Any]) -> str:
        simple = [v for v in values if v is None or isinstance(v, (str, int, bool))]
        if len(simple) != len(values):  # floats or objects cannot be Literal values
            present = [v for v in values if v is not None]
            numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present)
            if not numbers:
                return self._any()
            return "float | None" if len(present) < len(values) else "float"
        self.typing_names.add("Literal")
        return f"Literal[{', '.join(py_literal(v) for v in values)}]"

    @staticmethod
    def _union(parts: list[str]) -> str:
        unique: list[str] = []
        for p in parts:
            for piece in _split_union(p):
                if piece not in unique:
                    unique.append(piece)
        if "Any" in unique:
            return "Any"
        if "None" in unique:  # None last, like pydantic and ruff write it
            unique = [p for p in unique if p != "None"] + ["None"]
        return " | ".join(unique)


def _is_class(schema: Any) -> bool:
    """Whether a definition becomes a class of its own (an object with properties)."""
    if not isinstance(schema, Mapping) or "$ref" in schema or "enum" in schema:
        return False
    if any(schema.get(k) for k in ("anyOf", "oneOf", "const")):
        return False
    kind = schema.get("type")
    if (
        kind is not None
        and kind != "object"
        and not (isinstance(kind, (list, tuple)) and "object" in kind and len(kind) <= 2)
    ):
        return False
    all_of = schema.get("allOf")
    if all_of:
        return len(all_of) > 1 or bool(schema.get("properties"))
    props = schema.get("properties")
    return isinstance(props, Mapping) and bool(props)


def _refers_to(node: Any, names: Mapping[str, str]) -> bool:
    """Whether ``node`` holds a ``$ref`` to one of ``names``."""
    if not names:
        return False
    if isinstance(node, Mapping):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[8:] in names:
            return True
        return any(_refers_to(v, names) for v in node.values())
    if isinstance(node, (list, tuple)):
        return any(_refers_to(v, names) for v in node)
    return False


def _rename_refs(node: Any, names: Mapping[str, str]) -> Any:
    """A copy of ``node`` whose ``#/$defs/`` references (and ``$defs`` keys) use new names."""
    if isinstance(node, Mapping):
        out: dict[str, Any] = {}
        for k, v in node.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/$defs/"):
                out[k] = "#/$defs/" + (names.get(v[8:]) or v[8:])
            elif k == "$defs" and isinstance(v, Mapping):
                out[k] = {(names.get(n) or n): _rename_refs(s, names) for n, s in v.items()}
            else:
                out[k] = _rename_refs(v, names)
        return out
    if isinstance(node, (list, tuple)):
        return [_rename_refs(v, names) for v in node]
    return node


def _split_union(annotation: str) -> list[str]:
    """Split a top-level ``A | B`` (brackets respected)."""
    parts: list[str] = []
    depth = 0
    current = ""
    for c in annotation:
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        if c == "|" and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += c
    parts.append(current.strip())
    return parts


def _frozen(value: Any) -> Any:
    """Orjson's fallback for frozen JSON (``FrozenDict``, tuples) inside view schemas."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(type(value).__name__)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
