"""Random JSON Schemas from the keywords the schema model represents, and values to try.

Shared by the property tests of the model's consumers (the compiled check, hydration,
merging): each draws a schema here, then values, and compares with jsonschema.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from([0.0, 1.0, 1.5, -2.5, 4.0]),
    st.sampled_from(["", "a", "ab", "abc", "2024-01-02", "x@y.z", "07:30:00", "1", "true"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "c", "x1"]), inner, max_size=3),
    ),
    max_leaves=8,
)
types = st.sampled_from(["string", "integer", "number", "boolean", "null", "array", "object"])
REFS = ("#/$defs/A", "#/$defs/B")


def keywords(
    inner: st.SearchStrategy[Any], *, refs: tuple[str, ...] = ()
) -> st.SearchStrategy[Any]:
    """One schema object: one to three keyword groups, subschemas from ``inner``."""
    keyword = st.one_of(
        st.builds(lambda t: {"type": t}, st.one_of(types, st.lists(types, min_size=1, max_size=3))),
        st.builds(
            lambda e: {"enum": e}, st.lists(st.one_of(scalars, values), min_size=1, max_size=3)
        ),
        st.builds(lambda c: {"const": c}, st.one_of(scalars, values)),
        st.builds(
            lambda k, n: {k: n},
            st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]),
            st.sampled_from([-1, 0, 1, 1.5]),
        ),
        st.builds(lambda n: {"multipleOf": n}, st.sampled_from([1, 2, 3, 0.5, 1.5])),
        st.builds(
            lambda k, n: {k: n},
            st.sampled_from(
                ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]
            ),
            st.integers(0, 3),
        ),
        st.builds(lambda p: {"pattern": p}, st.sampled_from(["^a", "b$", "[0-9]"])),
        st.builds(lambda f: {"format": f}, st.sampled_from(["date", "time", "email", "unknown"])),
        st.builds(lambda s: {"items": s}, inner),
        st.builds(
            lambda p, i: {"prefixItems": p, **({} if i is None else {"items": i})},
            st.lists(inner, min_size=1, max_size=2),
            st.one_of(st.none(), st.booleans(), inner),
        ),
        st.just({"uniqueItems": True}),
        st.builds(
            lambda c, lo, hi: {
                "contains": c,
                **({} if lo is None else {"minContains": lo}),
                **({} if hi is None else {"maxContains": hi}),
            },
            inner,
            st.one_of(st.none(), st.integers(0, 2)),
            st.one_of(st.none(), st.integers(0, 2)),
        ),
        st.builds(
            lambda props, req, extra: {
                "properties": props,
                "required": req,
                **({} if extra is None else {"additionalProperties": extra}),
            },
            st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
            st.lists(st.sampled_from(["a", "b", "c"]), max_size=2, unique=True),
            st.one_of(st.none(), st.booleans(), inner),
        ),
        st.builds(lambda s: {"additionalProperties": s}, st.one_of(st.booleans(), inner)),
        st.builds(
            lambda p: {"patternProperties": p},
            st.dictionaries(st.sampled_from(["^a", "[0-9]", "^x"]), inner, min_size=1, max_size=2),
        ),
        st.builds(lambda s: {"propertyNames": s}, inner),
        st.builds(lambda ss: {"anyOf": ss}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda ss: {"oneOf": ss}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda ss: {"allOf": ss}, st.lists(inner, min_size=1, max_size=3)),
        st.just({"not": {}}),
        st.just({"description": "annotations only", "default": 1, "x-extension": [1]}),
        *([st.builds(lambda r: {"$ref": r}, st.sampled_from(refs))] if refs else []),
    )
    return st.lists(keyword, min_size=1, max_size=3).map(
        lambda parts: {k: v for part in parts for k, v in part.items()}
    )


def _leaf(refs: tuple[str, ...]) -> st.SearchStrategy[Any]:
    leaves: list[st.SearchStrategy[Any]] = [st.just(True), st.just(False), st.just({})]
    if refs:
        leaves.append(st.builds(lambda r: {"$ref": r}, st.sampled_from(refs)))
    return st.one_of(*leaves)


def _tree(refs: tuple[str, ...]) -> st.SearchStrategy[Any]:
    return st.recursive(_leaf(refs), lambda inner: keywords(inner, refs=refs), max_leaves=6)


_PLAIN = _tree(())
_TO_A = _tree(REFS[:1])
_ROOT = keywords(_tree(REFS), refs=REFS)


def documents() -> st.SearchStrategy[dict[str, Any]]:
    """A schema with ``$defs`` (``A`` plain, ``B`` may refer to ``A``) the root may use.

    No definition reaches itself, so jsonschema terminates on every value.
    """
    return st.builds(lambda root, a, b: {**root, "$defs": {"A": a, "B": b}}, _ROOT, _PLAIN, _TO_A)
