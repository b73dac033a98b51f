"""OpenAPI 2.0/3.0's ``nullable``/``x-nullable`` in converted (draft 2020-12) schemas.

``nullable: true`` makes a schema also admit ``null``: a ``"null"`` type beside its type,
else ``anyOf`` with ``null``. An ``allOf`` member that says only ``nullable: true`` (no type,
nothing else asserted: ``allOf: [{$ref: File}, {nullable: true}]``) is how documents say "File
or null": alone the member admits anything, so read to the letter the flag changes nothing;
read as meant, it makes the whole ``allOf`` nullable, with a warning naming the member.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sktypes.jsondoc import FrozenDict
from sktypes.openapi._refs import Place

__all__ = ["ANNOTATIONS", "null_members", "nullable"]

ANNOTATIONS = frozenset(
    {"description", "title", "default", "example", "examples", "readOnly", "writeOnly"}
    | {"deprecated", "nullable", "x-nullable"}
)
"""Schema Object keywords that assert nothing."""

_NULL = FrozenDict({"type": "null"})
_FLAGS = ("nullable", "x-nullable")
_T = TypeVar("_T")


def nullable(out: dict[str, Any]) -> dict[str, Any]:
    """Make a converted schema also admit ``null`` (OpenAPI 3.0 ``nullable: true``)."""
    t = out.get("type")
    if isinstance(t, str):
        out["type"] = (t, "null") if t != "null" else t
    elif isinstance(t, tuple):
        if "null" not in t:
            out["type"] = (*t, "null")
    elif all(k in ANNOTATIONS or k.startswith("x-") for k in out):
        return out  # admits anything already, null included
    else:
        annotations: dict[str, Any] = {
            k: out.pop(k) for k in ("description", "title", "default") if k in out
        }
        return {"anyOf": (FrozenDict(out), _NULL), **annotations}
    enum = out.get("enum")
    if isinstance(enum, tuple) and None not in enum:
        out["enum"] = (*enum, None)
    return out


def null_members(
    members: list[_T], place: Place, warn: Callable[[str, Place], None], *, legacy: bool
) -> list[_T]:
    """``members`` (an ``allOf``) without the ``nullable: true`` of a member with no type.

    The caller makes the whole ``allOf`` nullable when the list returned is not ``members``
    itself (OpenAI's ``Upload.file``: the generated ``File`` refused every null the server
    sent). ``warn`` is called once per such member; ``legacy``: a 2.0/3.0 document (3.1 has
    no ``nullable`` at all, which the warning says).
    """
    out: list[Any] = list(members)
    for i, member in enumerate(members):
        if not isinstance(member, dict) or "type" in member or "$ref" in member:
            continue
        flags = [k for k in _FLAGS if member.get(k) is True]
        if flags and all(k in ANNOTATIONS or k.startswith("x-") for k in member):
            out[i] = {k: v for k, v in member.items() if k not in flags}
            warn(
                f"{flags[0]}: true in an allOf member without a type: read as the allOf's "
                "schemas or null" + ("" if legacy else " (nullable is not OpenAPI 3.1)"),
                place.child(i),
            )
    return out if out != members else members
