"""Retries: which requests may be sent again, on what, and after how long.

A request is retried only when sending it twice cannot do harm: its method is idempotent
(GET, HEAD, OPTIONS, PUT, DELETE, TRACE), or the operation declares an idempotency-key
header, which then carries the same key on every attempt. It is retried on the statuses of
:attr:`Retry.statuses` and on connection failures (refused, reset, timed out). The wait is
the server's ``Retry-After`` (seconds or an HTTP date) when it gives one, else exponential
backoff with jitter; both are capped by :attr:`Retry.max_delay`.
"""

from __future__ import annotations

import email.utils
import random
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import httpx

__all__ = [
    "IDEMPOTENT_METHODS",
    "RETRY_ERRORS",
    "RETRY_STATUSES",
    "Retry",
    "idempotency_header",
    "retry_after",
    "retry_policy",
]

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"})
"""Methods RFC 9110 §9.2.2 makes idempotent: sent again without an idempotency key."""

RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
"""The statuses retried by default."""

RETRY_ERRORS: tuple[type[Exception], ...] = (
    httpx.NetworkError,  # connect, read, write, close errors: refused, reset
    httpx.TimeoutException,
    httpx.RemoteProtocolError,  # the server closed the connection without an answer
)
"""The transport failures retried: the request may not have reached the server, or the
server dropped it without answering."""


@dataclass(frozen=True, slots=True)
class Retry:
    """How a client retries.

    Args:
        max_retries: attempts after the first (``0``: never retry).
        statuses: the statuses that are retried.
        backoff: the first wait, in seconds, without ``Retry-After``; it doubles on each
            attempt (with jitter: each wait is between half and all of it).
        max_delay: the longest wait, in seconds, ``Retry-After`` included.
    """

    max_retries: int = 2
    statuses: frozenset[int] = field(default=RETRY_STATUSES)
    backoff: float = 0.5
    max_delay: float = 8.0

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if self.backoff < 0 or self.max_delay < 0:
            raise ValueError("backoff and max_delay must be 0 or more")
        object.__setattr__(self, "statuses", frozenset(self.statuses))

    def delay(self, attempt: int, headers: Mapping[str, str] | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (1, 2, ...).

        The server's ``Retry-After`` when it gives one, else ``backoff * 2**(attempt-1)``
        with jitter; never more than :attr:`max_delay`.
        """
        asked = retry_after(headers) if headers is not None else None
        if asked is not None:
            return min(asked, self.max_delay)
        base: float = min(self.backoff * 2.0 ** (attempt - 1), self.max_delay)
        return base * random.uniform(0.5, 1.0)


def retry_policy(retries: int | Retry | None) -> Retry:
    """The policy for a ``retries=`` argument: an int is ``Retry(max_retries=n)``."""
    if retries is None:
        return Retry()
    if isinstance(retries, Retry):
        return retries
    if isinstance(retries, bool) or not isinstance(retries, int):
        raise TypeError(f"retries must be an int or a Retry, not {type(retries).__name__}")
    return Retry(max_retries=retries)


def retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for, in seconds (``None``: none or unreadable).

    RFC 9110 §10.2.3: a number of seconds or an HTTP date (a date in the past is ``0``).
    """
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", value):
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    return max(when.timestamp() - (time.time() if now is None else now), 0.0)


_IDEMPOTENCY = re.compile(r"^(x-)?idempotency[-_]?key$", re.IGNORECASE)


def idempotency_header(names: Iterable[str]) -> str | None:
    """The header, among an operation's header parameters, that carries an idempotency key.

    ``Idempotency-Key`` (IETF draft-ietf-httpapi-idempotency-key-header, Stripe),
    ``X-Idempotency-Key`` and their ``_`` spellings.
    """
    return next((n for n in names if _IDEMPOTENCY.match(n)), None)
