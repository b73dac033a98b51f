"""Generation runs with Python's cyclic garbage collector paused.

Loading a large spec makes millions of long-lived objects (the parsed document, its
frozen schemas, the views), and generating allocates many more small ones; each automatic
full collection then walks all of them although almost none is garbage. On GitHub's 13 MB
spec that was a fifth of the CPU time of ``generate_plugin`` (six full collections), on
Stripe's as much. Generation makes few reference cycles (about 17 MB of them on GitHub's
spec), so the collector is paused for the call and its previous state restored after:
whatever cycles were made are collected by the next automatic collection. Reference
counting frees everything else as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause automatic cyclic garbage collection inside the block (restored after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
