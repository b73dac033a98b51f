"""Parameters on the wire: OpenAPI's path, query, header and cookie serialization.

Path parameters by ``style`` (``simple``, ``label``, ``matrix``) and ``explode``,
percent-encoded, dot segments encoded; query and cookie parameters by ``style`` (``form``,
``spaceDelimited``, ``pipeDelimited``, ``deepObject``) and ``explode``; headers in
``simple`` style; ``style`` ``"json"`` sends compact JSON. Header and cookie names must be
tokens and header values printable ASCII.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

import pydantic

from sktypes.errors import RemoteRequestError
from sktypes.generated import MISSING

__all__ = [
    "Pairs",
    "Param",
    "cookie_pairs",
    "header_value",
    "path_value",
    "query_pairs",
    "to_json",
]

Param = tuple[str, Any, str, bool]
"""A parameter on the wire: (name, value, style, explode); ``style`` ``"json"`` sends JSON."""

Pairs = list[tuple[str, str | int | float | bool | None]]
"""Serialized query parameters, in order (a name may repeat)."""


_ANY: pydantic.TypeAdapter[Any] = pydantic.TypeAdapter(Any)
_PLAIN = (str, int, float, bool, type(None))


def to_json(value: Any) -> Any:
    """Return ``value`` as JSON data (models by alias, unset fields left out).

    ``bytes`` are base64 text (OpenAPI's ``format: byte``): JSON and parameters carry
    text, and bytes that are not UTF-8 (or hold control characters) must still arrive.
    """
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items() if v is not MISSING}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return _ANY.dump_python(value, mode="json", by_alias=True)


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _text(text: str) -> str:
    """``text`` if it can be sent (encoded as UTF-8); a lone surrogate is refused."""
    if _SURROGATE.search(text) is not None:
        raise RemoteRequestError(
            f"{text!r} holds a lone surrogate: it is not text and cannot be sent"
        )
    return text


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return _text(_compact(value))
    return _text(str(value))


_DELIMITERS = {"form": ",", "simple": ",", "spaceDelimited": " ", "pipeDelimited": "|"}


def _pairs(params: Sequence[Param], scalar: Callable[[Any], str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name, raw, style, explode in params:
        if raw is None or raw is MISSING:
            continue
        value = to_json(raw)
        if style == "json":
            out.append((name, scalar(_compact(value))))
        elif value == [] or value == {}:
            continue  # RFC 6570 §2.3: an empty list or map is undefined, so left out
        elif isinstance(value, list):
            if explode and style == "form":
                out.extend((name, scalar(v)) for v in value)
            else:
                out.append((name, _DELIMITERS.get(style, ",").join(scalar(v) for v in value)))
        elif isinstance(value, dict):
            if style == "deepObject":
                out.extend((f"{name}[{k}]", scalar(v)) for k, v in value.items())
            elif explode:
                out.extend((k, scalar(v)) for k, v in value.items())
            else:
                out.append((name, ",".join(f"{scalar(k)},{scalar(v)}" for k, v in value.items())))
        else:
            out.append((name, scalar(value)))
    return out


def query_pairs(params: Sequence[Param]) -> Pairs:
    """Serialize query parameters by their OpenAPI style and explode.

    ``None`` values are left out (an optional parameter the caller did not pass), and so
    are empty lists and objects: RFC 6570 (which OpenAPI's styles follow) treats them as
    undefined, and ``ids=`` would read back as ``[""]``.
    """
    return list(_pairs(params, _scalar))


# RFC 6265 cookie-octet, less "%" (the escape character itself)
_COOKIE_SAFE = "".join(
    chr(c) for c in range(0x21, 0x7F) if chr(c) not in '"%,;\\'
)  # fmt: skip
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def _cookie_scalar(value: Any) -> str:
    return quote(_scalar(value), safe=_COOKIE_SAFE)


def cookie_pairs(params: Sequence[Param], operation: str = "") -> list[tuple[str, str]]:
    """Serialize cookie parameters like query parameters, each value cookie-safe.

    Every character outside RFC 6265's ``cookie-octet`` is percent-encoded inside each
    value (the style's own ``,`` delimiters stay), so ``abc; apikey=X`` stays one cookie.

    Raises:
        RemoteRequestError: a cookie name is not an HTTP token.
    """
    out = _pairs(params, _cookie_scalar)
    for name, _ in out:
        _check_token(name, "cookie", operation)
    return out


def _dot_segment(segment: str) -> str:
    """``.`` and ``..`` spelled ``%2E``/``%2E%2E``: the server must not remove them."""
    return segment.replace(".", "%2E") if segment in (".", "..") else segment


def path_value(name: str, raw: Any, style: str, explode: bool) -> str:
    """Serialize one path parameter (``simple``, ``label`` or ``matrix`` style), URL-encoded.

    A whole value of ``.`` or ``..`` is encoded as ``%2E``/``%2E%2E``.
    """
    value = to_json(raw)
    if style == "json":
        return quote(_text(_compact(value)), safe="")
    if isinstance(value, dict):
        pairs = [(_quote_path(_text(str(k))), _quote_path(_scalar(v))) for k, v in value.items()]
        items = [f"{k}={v}" for k, v in pairs] if explode else [x for kv in pairs for x in kv]
    elif isinstance(value, list):
        items = [_quote_path(_scalar(v)) for v in value]
    else:
        items = [_quote_path(_scalar(value))]
    if style == "label":
        return _dot_segment("." + ("." if explode else ",").join(items))
    if style == "matrix":
        if explode and isinstance(value, list):
            return "".join(f";{name}={v}" for v in items)
        if explode and isinstance(value, dict):
            return "".join(f";{v}" for v in items)
        return f";{name}=" + ",".join(items)
    return ",".join(items)


def _quote_path(text: str) -> str:
    return _dot_segment(quote(text, safe=""))


def _fill_path(template: str, params: Sequence[Param]) -> str:
    """The path with every ``{name}`` replaced; no segment can be ``.`` or ``..``.

    Values are substituted in one pass, so a value cannot itself contain a placeholder
    that a later parameter fills (and every value is percent-encoded anyway).
    """
    values = {name: path_value(name, raw, style, explode) for name, raw, style, explode in params}
    path = re.sub(r"\{([^{}]+)\}", lambda m: values.get(m[1], m[0]), template)
    return "/".join(_dot_segment(s) for s in path.split("/"))


def header_value(raw: Any, explode: bool, style: str = "simple") -> str:
    """Serialize one header parameter (``simple`` style, or ``"json"``)."""
    value = to_json(raw)
    if style == "json":
        return _text(_compact(value))
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    if isinstance(value, dict):
        sep = "=" if explode else ","
        return ",".join(f"{_text(str(k))}{sep}{_scalar(v)}" for k, v in value.items())
    return _scalar(value)


_BAD_HEADER_VALUE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _check_token(name: str, kind: str, operation: str) -> None:
    if not _TOKEN.match(name):
        raise RemoteRequestError(f"{kind} name {name!r} is not an HTTP token", where=operation)


def _check_header(name: str, value: str, operation: str) -> str:
    _check_token(name, "header", operation)
    if _BAD_HEADER_VALUE.search(value):
        raise RemoteRequestError(
            f"header {name!r}: the value holds a line break or a control character",
            where=operation,
        )
    if not value.isascii():
        raise RemoteRequestError(
            f"header {name!r}: the value is not ASCII (HTTP headers cannot carry it as is)",
            where=operation,
        )
    return value
