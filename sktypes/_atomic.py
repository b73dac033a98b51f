"""Atomic writes that follow the user's umask: one file, or a directory tree swapped in.

``tempfile.mkstemp`` creates its file with mode 0600 and ``tempfile.mkdtemp`` its directory
with 0700, whatever the umask, and a rename keeps that mode: a generated package written
through them could not be read by another user or a container running as someone else.
Here the temporary file is created with ``0o666`` and the directory with ``0o777``, from
which the kernel takes the umask away, as ``open()`` and ``mkdir`` do for any new file.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["temporary_directory", "write_atomic"]

_ATTEMPTS = 100


def _candidate(parent: Path, prefix: str) -> Path:
    return parent / f"{prefix}{secrets.token_hex(6)}"


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it and an atomic rename.

    The parent directories are created; the file's mode is ``0o666`` less the umask.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode() if isinstance(data, str) else data
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(_ATTEMPTS):
        tmp = _candidate(path.parent, f".{path.name}.")
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
        break
    else:  # pragma: no cover - 100 collisions of 48 random bits
        raise FileExistsError(f"no free temporary name beside {path}")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def temporary_directory(parent: Path, prefix: str) -> Path:
    """A new empty directory inside ``parent``, mode ``0o777`` less the umask.

    For a tree written whole and then renamed into place; the caller removes it.
    """
    for _ in range(_ATTEMPTS):
        path = _candidate(parent, prefix)
        try:
            path.mkdir(0o777)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(f"no free temporary name in {parent}")  # pragma: no cover
