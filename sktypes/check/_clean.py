"""Specs that loaded clean, recorded by content: ``check`` of an unchanged spec loads nothing.

Loading a big spec (its views built, its verdict looked up) takes seconds; its outcome
depends only on the bytes of the spec and of every file its ``$ref``s reach, on where it
lies (relative ``$ref``s), on sktypes' code and on the validator. A spec that loaded clean
is recorded in the per-user cache (:mod:`sktypes._cache`) under a digest of the spec, its
folder, the code and the validator, with the digest of each file its ``$ref``s reached.
While those files are unchanged, the next check of the same spec finds it recorded and
loads nothing; anything else (a changed file, a record that cannot be read, a file that is
no longer a regular one) is a miss, and the spec is loaded as always. Findings are not
recorded: a spec with findings is loaded each time, and says them each time.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import orjson

from sktypes import _cache
from sktypes._files import read_file
from sktypes.errors import SktypesError
from sktypes.limits import DEFAULT_LIMITS
from sktypes.openapi._refs import Refs
from sktypes.openapi._source import Document
from sktypes.openapi._verdicts import validator_identity

__all__ = ["known_clean", "record_clean"]

_KIND = "check-clean"


def _key(path: Path, raw: bytes) -> str:
    folder = str(path.resolve().parent).encode()
    return _cache.digest(_KIND, [raw, folder, validator_identity().encode()])


def known_clean(path: Path, raw: bytes) -> bool:
    """Whether the spec at ``path`` (its bytes ``raw``) is recorded clean, its files unchanged."""
    record = _cache.read(_KIND, _key(path, raw))
    if record is None:
        return False
    try:
        files = orjson.loads(record)["files"]
        for name, digest in files.items():
            data = read_file(name, name, DEFAULT_LIMITS, SktypesError, regular_only=True)
            if hashlib.sha256(data).hexdigest() != digest:
                return False
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError, OSError, SktypesError):
        return False
    return True


def record_clean(path: Path, raw: bytes, doc: Document) -> None:
    """Record that ``doc`` (read from ``path`` as ``raw``) loaded clean."""
    refs = Refs(doc, allow_remote=False, limits=DEFAULT_LIMITS, ref_roots=[])
    try:
        refs.admit_all(lenient=True)
        spec = path.resolve()
        files = {
            str(p): hashlib.sha256(
                read_file(p, str(p), DEFAULT_LIMITS, SktypesError, regular_only=True)
            ).hexdigest()
            for p in refs.local_files()
            if p != spec  # its bytes are in the key
        }
    except (OSError, SktypesError):
        return  # not recorded: checked again next time
    _cache.write(_KIND, _key(path, raw), orjson.dumps({"files": files}))
