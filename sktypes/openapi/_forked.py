"""Work done by a forked child on the second core while the parent goes on.

:func:`run_forked` forks; the child calls the function on its copy of the parent's memory
(the documents already parsed are not read or parsed again), sends the picklable result
back through a pipe and leaves with ``os._exit`` (no ``atexit`` handler, no flush of the
parent's buffers). :meth:`Forked.result` waits for it; ``None`` means no result (the child
raised, died or sent something unreadable): the caller then does the work itself.

Nothing is forked where it is not safe or possible: without ``os.fork`` (Windows), while
other threads run in the process (a lock one of them holds would stay held in the child),
or with ``SKTYPES_VALIDATE_INLINE=1``.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["INLINE_ENV", "Forked", "fork_allowed", "run_forked"]

INLINE_ENV = "SKTYPES_VALIDATE_INLINE"
"""Set to ``1`` (or ``true``/``yes``/``on``) to validate in the process, one step after another."""

_READ = 1 << 16


def fork_allowed() -> bool:
    """Whether :func:`run_forked` may fork here and now."""
    if os.environ.get(INLINE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return False
    return hasattr(os, "fork") and threading.active_count() == 1


class Forked:
    """A forked child computing a result; :meth:`result` joins it, :meth:`cancel` ends it."""

    def __init__(self, pid: int, fd: int) -> None:
        self._pid = pid
        self._fd = fd
        self._done = False

    def result(self) -> Any | None:
        """The child's result (waiting for it), or ``None`` if it sent none."""
        if self._done:
            return None
        chunks: list[bytes] = []
        try:
            while True:
                chunk = os.read(self._fd, _READ)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError:
            chunks = []
        finally:
            self._close()
        try:
            status, value = pickle.loads(b"".join(chunks))
        except Exception:
            return None
        return value if status == "ok" else None

    def cancel(self) -> None:
        """End the child if it still runs (the parent will not need its result)."""
        if self._done:
            return
        with contextlib.suppress(OSError):
            os.kill(self._pid, signal.SIGKILL)
        self._close()

    def _close(self) -> None:
        self._done = True
        with contextlib.suppress(OSError):
            os.close(self._fd)
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(self._pid, 0)


def run_forked(work: Callable[[], Any]) -> Forked | None:
    """``work()`` in a forked child; ``None`` when nothing is forked (see the module)."""
    if not fork_allowed():
        return None
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
        _child(work, read, write)
    os.close(write)
    return Forked(pid, read)


def _child(work: Callable[[], Any], read: int, write: int) -> None:  # pragma: no cover
    """Run ``work``, send its result, and leave without running the parent's exit code."""
    status = 0
    try:
        os.close(read)
        gc.freeze()  # the parent's objects are not traversed (nor copied) by collections here
        try:
            payload = pickle.dumps(("ok", work()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException:
            payload = pickle.dumps(("failed", None))
        view = memoryview(payload)
        while view:
            view = view[os.write(write, view) :]
    except BaseException:
        status = 1
    finally:
        os._exit(status)
