"""The fuzz targets: a name, the oracle, a structured input strategy and seeds.

A target module (``tests/fuzz/targets_*.py``) registers its targets with :func:`target`;
:func:`all_targets` imports every such module. A target's ``check(data)`` raises
:class:`Finding` (or lets any unexpected exception escape) when the oracle fails, and
returns normally when the input was read or refused as promised.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

__all__ = ["Finding", "Target", "all_targets", "target"]


class Finding(AssertionError):
    """The oracle failed: what was promised did not hold for this input."""


@dataclass(frozen=True)
class Target:
    """One untrusted input.

    Attributes:
        name: how the runner names it (``openapi``, ``hydrate``...).
        check: the oracle, called with the raw input bytes.
        strategy: a hypothesis strategy of structured inputs (as bytes).
        seeds: hand-written inputs the fuzzer starts from (findings of issue 13 included).
        timeout: seconds one input may take before it counts as a hang.
    """

    name: str
    check: Callable[[bytes], None]
    strategy: st.SearchStrategy[bytes]
    seeds: tuple[bytes, ...] = field(default=())
    timeout: float = 10.0


_TARGETS: dict[str, Target] = {}


def target(
    name: str,
    strategy: st.SearchStrategy[bytes],
    seeds: tuple[bytes, ...] = (),
    timeout: float = 10.0,
) -> Callable[[Callable[[bytes], None]], Callable[[bytes], None]]:
    """Register the decorated oracle as the target ``name``."""

    def register(check: Callable[[bytes], None]) -> Callable[[bytes], None]:
        if name in _TARGETS:
            raise ValueError(f"fuzz target {name!r} registered twice")
        _TARGETS[name] = Target(name, check, strategy, tuple(seeds), timeout)
        return check

    return register


def all_targets() -> dict[str, Target]:
    """Every registered target, by name (imports ``tests/fuzz/targets_*.py``)."""
    package = importlib.import_module("tests.fuzz")
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("targets_"):
            importlib.import_module(f"tests.fuzz.{info.name}")
    return dict(sorted(_TARGETS.items()))


def as_bytes(value: Any) -> bytes:
    """Text as UTF-8 (lone surrogates kept as their bytes: the input is untrusted)."""
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")
