"""``tools/list`` results recorded by content: a big spec's listing is worked out once.

Writing each tool's schemas in their shortest form (:func:`sktypes.manual._shown.shown`)
is most of the work of serving a big spec (GitHub's 1,223 operations: seconds). The result
depends only on what each tool shows (its name, description, arguments and return schemas,
HTTP method, media type), the detail level, the protocol era and the code: the listing is
recorded in the per-user cache (:mod:`sktypes._cache`) under a digest of exactly those, and
read back by the next server of the same tools. A miss builds it the one way it is always
built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import mcp.types as types
import orjson
import pydantic

from sktypes import _cache
from sktypes._arguments_schema import parameters_document

if TYPE_CHECKING:
    from sktypes.integrations.mcp._tools import Served

__all__ = ["cached_listing"]

_KIND = "mcp-listing"
_LIBRARIES = ("mcp", "pydantic", "pydantic-core")
"""What the form of a listing depends on besides sktypes' own code."""


def cached_listing(
    tools: Sequence[tuple[str, Served]],
    detail: str,
    modern: bool,
    build: Callable[[], types.ListToolsResult],
) -> dict[str, Any]:
    """The listing of ``tools`` (name, served) as JSON data: recorded, else ``build()``'s.

    A record that is not a listing (written by something else) is a miss.
    """
    key = _cache.digest(_KIND, _parts(tools, detail, modern), *_LIBRARIES)
    raw = _cache.read(_KIND, key)
    if raw is not None:
        try:
            data = orjson.loads(raw)
            types.ListToolsResult.model_validate(data)  # the form sent, checked once
        except (orjson.JSONDecodeError, pydantic.ValidationError):
            pass
        else:
            if isinstance(data, dict):
                return data
    built: dict[str, Any] = build().model_dump(mode="json", by_alias=True, exclude_none=True)
    _cache.write(_KIND, key, orjson.dumps(built))
    return built


def _parts(tools: Sequence[tuple[str, Served]], detail: str, modern: bool) -> Iterable[bytes]:
    yield f"{detail}\n{modern}\n{len(tools)}".encode()
    for name, served in tools:
        view = served.view
        ret = view.return_parameter
        head: dict[str, Any] = {
            "name": name,
            "description": view.description,
            "method": served.method,
            "media_type": served.media_type,
            "streaming": ret.is_streaming,
        }
        yield orjson.dumps(head)
        yield parameters_document(view).to_json(sort_keys=True).encode()
        yield b"-" if ret.schema is None else ret.schema.to_json(sort_keys=True).encode()
