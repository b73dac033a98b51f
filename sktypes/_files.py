"""Reading files for every loader: regular files only where asked, never past a byte limit.

The reading half of the one document loader (:mod:`sktypes._documents` parses): a device
such as ``/dev/zero`` or a FIFO is refused without being opened when ``regular_only``, the
open itself cannot block, and the byte limit holds while reading (a file that grows, a pipe).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from sktypes.errors import SktypesError
from sktypes.limits import DocumentLimits

__all__ = ["decode_utf8", "read_file", "same_bytes", "size_error"]


def size_error(error: type[SktypesError], display: str | None, size: int | None, limit: int) -> Any:
    what = f"document is {size} bytes" if size is not None else "document is larger than that"
    return error(
        f"{what}, over the {limit}-byte limit (pass a larger max_bytes to load it)", file=display
    )


def read_file(
    path: str | os.PathLike[str],
    display: str,
    limits: DocumentLimits,
    error: type[SktypesError],
    *,
    regular_only: bool = False,
) -> bytes:
    """Read at most ``limits.max_bytes`` from ``path``; larger files are refused.

    Args:
        path: the file.
        display: how messages name it.
        limits: the byte limit.
        error: the error class to raise.
        regular_only: refuse anything but a regular file (devices such as ``/dev/zero``,
            FIFOs, sockets) without opening it; used for files a document names.
    """
    limit = limits.max_bytes
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise error("is a directory, not a file", file=display)
        special = not stat.S_ISREG(info.st_mode)
        if special and regular_only:
            raise error("not a regular file (a device, FIFO or socket); refused", file=display)
        if not special and info.st_size > limit:
            raise size_error(error, display, info.st_size, limit)
        # O_NONBLOCK: a FIFO swapped in after the check cannot block the open
        flags = os.O_RDONLY | (getattr(os, "O_NONBLOCK", 0) if regular_only else 0)
        fd = os.open(path, flags)
        with os.fdopen(fd, "rb") as fh:
            if regular_only and not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise error("not a regular file (a device, FIFO or socket); refused", file=display)
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"cannot read the file: {exc.strerror or exc}", file=display) from None
    except ValueError:  # a NUL byte in the path
        raise error("cannot read the file: not a valid path", file=display) from None
    if len(raw) > limit:
        raise size_error(error, display, None, limit)
    return raw


def same_bytes(path: Path, data: bytes) -> bool | None:
    """Whether a regular file holds exactly ``data`` (``None``: it cannot be read).

    Its size is compared first, so at most ``len(data)`` bytes are ever read, without
    blocking (the one loader's reader, regular files only).
    """
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    if info.st_size != len(data):
        return False
    limits = DocumentLimits(max_bytes=len(data))
    try:
        return read_file(path, str(path), limits, SktypesError, regular_only=True) == data
    except SktypesError:
        return None


def decode_utf8(raw: bytes, display: str, error: type[SktypesError]) -> str:
    """``raw`` as text; invalid UTF-8 is an error naming the line and byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)  # in bytes, 1-based
        raise error(
            f"not UTF-8 text: byte #x{raw[exc.start]:02x} at offset {exc.start}",
            file=display,
            line=line,
            column=column,
        ) from None
