"""What ``sktypes check`` may read: regular files inside the repository, nothing else.

``check`` runs on repository content (the pre-commit hook), so what it reads is decided from
the file system, never from the content: every path is ``lstat``-ed before it is opened; a
file that is not regular (a FIFO, a device, a socket) is never opened, a symlink is followed
only to a regular file inside the repository, and a path a link record names (an input, the
spec, a ``ref_root``) must resolve inside the repository. Each refusal is a finding naming the
path and the reason. Reading itself goes through the one loader (:mod:`sktypes._documents`:
regular files only, non-blocking, within the byte limit).

The repository of a path is the git work tree holding it (the nearest directory above with a
``.git``); outside one, the working directory when it holds the path, else ``fallback`` (for
a generated package, the directory above its output folder).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["describe", "entry_problem", "inside", "repository_of", "resolved"]

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def describe(mode: int) -> str:
    """What a file of this ``st_mode`` is, for messages (``a FIFO``...)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def resolved(path: Path) -> Path:
    """``path`` with its symlinks resolved; a loop is left unresolved (made absolute)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        return Path(os.path.abspath(path))


def inside(path: Path, tree: Path) -> bool:
    """Whether ``path`` (resolved) lies in ``tree`` (resolved)."""
    return path == tree or tree in path.parents


def repository_of(path: Path, fallback: Path | None = None) -> Path:
    """The repository ``path`` belongs to (see the module docstring), resolved.

    Decided from where ``path`` lies, never from where it leads: a symlink's folder.
    """
    here = resolved(path if path.is_dir() and not path.is_symlink() else path.parent)
    for folder in (here, *here.parents):
        try:
            os.lstat(folder / ".git")
        except OSError:
            continue
        return folder
    cwd = Path.cwd().resolve()
    if inside(here, cwd):
        return cwd
    return resolved(fallback or here)


def entry_problem(path: Path, tree: Path) -> str | None:
    """Why ``path`` must not be read, or ``None`` when it is a regular file ``check`` may read.

    ``lstat`` first: a symlink is followed only when it leads to a regular file inside
    ``tree``; anything else that is not a regular file is refused without being opened.
    """
    try:
        info = os.lstat(path)
    except OSError:
        return None  # gone or unreadable: the reader reports it
    if stat.S_ISREG(info.st_mode):
        return None
    if not stat.S_ISLNK(info.st_mode):
        return f"not a regular file ({describe(info.st_mode)}): not read"
    target = os.readlink(path)
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop
        return f"a symlink to {target}, which cannot be resolved: not read"
    if not inside(resolved, tree):
        return f"a symlink to {target}, outside the repository ({tree}): not read"
    try:
        mode = os.stat(resolved).st_mode
    except OSError:  # removed meanwhile
        return f"a symlink to {target}, which cannot be resolved: not read"
    if not stat.S_ISREG(mode):
        return f"a symlink to {target} ({describe(mode)}): not read"
    return None
