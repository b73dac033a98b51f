"""What a fuzzed input must never make sktypes do, watched through Python's audit hooks.

While :func:`watching` is active, opening a file under a *forbidden* directory, or any
network connection other than to an allowed local address, is recorded; the oracle then
fails. Audit hooks see every ``open`` and ``socket.connect`` made by Python code and by the
libraries sktypes uses (httpx, urllib), without replacing any of them.
"""

from __future__ import annotations

import mimetypes
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.fuzz._registry import Finding

__all__ = ["Hang", "time_limit", "watching"]

_state = threading.local()
_installed = False
# read by the standard library whatever the input (mimetypes' type map)
_BENIGN = frozenset(os.path.realpath(p) for p in mimetypes.knownfiles)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    watch = getattr(_state, "watch", None)
    if watch is None:
        return
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        path = os.path.realpath(os.fsdecode(args[0]))
        if path in _BENIGN:
            return
        if any(path == d or path.startswith(d + os.sep) for d in watch["forbidden"]):
            watch["events"].append(f"opened {path}")
    elif event == "socket.getaddrinfo":
        watch["events"].append(f"resolved {args[0]!r}")
    elif event == "socket.connect" and len(args) > 1:
        address = args[1]
        if not (isinstance(address, tuple) and address[:2] in watch["allowed_hosts"]):
            watch["events"].append(f"connected to {address!r}")


@contextmanager
def watching(
    forbidden: list[Path], allowed_hosts: tuple[tuple[str, int], ...] = ()
) -> Iterator[list[str]]:
    """Record forbidden opens and connections made inside the block (yields the list)."""
    global _installed
    if not _installed:
        sys.addaudithook(_hook)
        _installed = True
    events: list[str] = []
    _state.watch = {
        "forbidden": [os.path.realpath(p) for p in forbidden],
        "allowed_hosts": allowed_hosts,
        "events": events,
    }
    try:
        yield events
    finally:
        _state.watch = None
    if events:
        raise Finding("forbidden access: " + "; ".join(events[:5]))


class Hang(Finding):
    """An input took longer than its target's time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread when the block runs past ``seconds``."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"no answer after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
