"""Results recorded by content in the per-user cache: computed once per input, read back after.

A result that depends only on its inputs and on the code computing it is stored under a
digest of both (:func:`digest`): the inputs' bytes, sktypes' own source (:func:`code_identity`,
so an edited checkout never reads a stale result) and the versions of the libraries the
result's form depends on. The directory is the one validation verdicts use
(:func:`sktypes.openapi._verdicts.cache_dir`: ``$SKTYPES_CACHE_DIR``, else
``$XDG_CACHE_HOME/sktypes``, else ``~/.cache/sktypes``; ``SKTYPES_NO_CACHE=1`` disables it).
Anything unreadable is a miss; a cache that cannot be written is skipped silently.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from sktypes.openapi._verdicts import cache_dir

__all__ = ["code_identity", "digest", "read", "write"]

_MAX_BYTES = 1 << 28
"""A cached result larger than this (256 MB) is not read (a miss)."""


@functools.cache
def code_identity(*libraries: str) -> bytes:
    """A digest of sktypes' source files and of the versions of ``libraries``."""
    h = hashlib.sha256()
    top = Path(__file__).resolve().parent
    for path in sorted(top.rglob("*.py")):
        if "__pycache__" not in path.parts:
            h.update(path.relative_to(top).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
    for name in libraries:
        try:
            h.update(f"{name} {metadata.version(name)}\n".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name} -\n".encode())
    return h.digest()


def digest(kind: str, parts: Iterable[bytes], *libraries: str) -> str:
    """The key of a ``kind`` of result computed from ``parts`` by this code."""
    h = hashlib.sha256(kind.encode() + b"\0" + code_identity(*libraries))
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def _file(kind: str, key: str) -> Path | None:
    top = cache_dir()
    return None if top is None else top / kind / key


def read(kind: str, key: str) -> bytes | None:
    """The bytes recorded under ``key``, or ``None`` (not there, unreadable, cache off)."""
    path = _file(kind, key)
    if path is None:
        return None
    try:
        with path.open("rb") as fh:
            data = fh.read(_MAX_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= _MAX_BYTES else None


def write(kind: str, key: str, data: bytes) -> None:
    """Record ``data`` under ``key`` (atomically; skipped when the cache is off or read-only)."""
    path = _file(kind, key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key[:8]}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return
