"""Credential values this process sends, kept so no message, result or log line shows one.

Every credential the runtime sends is registered here (with its encoded forms: the base64 of
HTTP basic, the percent-encoding of a query value); :func:`redact` replaces each in a text
with ``[redacted]``. Error messages, warnings, the MCP server's error results and httpx's
log records go through it. Values shorter than 4 characters are not registered: replacing
them would garble ordinary text and they are no secret worth the name.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any
from urllib.parse import quote

__all__ = ["REDACTED", "redact", "redact_value", "register_secret", "secret_header"]

REDACTED = "[redacted]"
_MIN = 4
_lock = threading.Lock()
_values: frozenset[str] = frozenset()


def register_secret(value: str) -> None:
    """Remember ``value`` (and its percent-encoded form) as a secret to hide."""
    global _values
    forms = {value, quote(value, safe=""), quote(value, safe="-._~!$&'()*+,;=:@")}
    new = {f for f in forms if len(f) >= _MIN} - _values
    if new:
        with _lock:
            _values = _values | new


def redact(text: str) -> str:
    """``text`` with every registered secret replaced by ``[redacted]`` (longest first)."""
    values = _values
    if not values or not text:
        return text
    for value in sorted((v for v in values if v in text), key=len, reverse=True):
        text = text.replace(value, REDACTED)
    return text


def redact_value(value: Any) -> Any:
    """A JSON value with every registered secret inside its strings (and keys) redacted."""
    if not _values:
        return value
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {redact(str(k)): redact_value(v) for k, v in value.items()}
    return value


_SECRET_NAME = re.compile(r"auth|key|token|secret|passw|cookie|session|signature", re.IGNORECASE)


def secret_header(name: str) -> bool:
    """Whether a header of this name carries a credential (``Authorization``, ``X-API-Key``)."""
    return _SECRET_NAME.search(name) is not None


class _RedactLog(logging.Filter):
    """Rewrites log records that would show a registered secret (httpx logs every URL)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not _values:
            return True
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True


logging.getLogger("httpx").addFilter(_RedactLog())
