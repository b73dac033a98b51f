"""Names: plugin names from titles, function names from ``operationId`` or method + path.

A function name is an identifier (``[A-Za-z_][A-Za-z0-9_]*``) of at most 64 characters, so
it is valid in every provider's tool format; an over-long name drops small words, then words
before its last (:func:`readable`), and only when that name is taken keeps its head and ends
with an 8-character hash of the original, so distinct operations keep distinct names. Clashes
inside one plugin fall back to the method + path name (a namespace the spec guarantees
unique), and only then to a numeric suffix.
"""

from __future__ import annotations

import hashlib
import re

__all__ = [
    "TITLE_WORDS",
    "NameRegistry",
    "identifier",
    "package_identifier",
    "plugin_identifier",
    "readable",
    "title_words",
]

MAX_NAME = 64
_NOT_IDENT = re.compile(r"[^A-Za-z0-9_]+")
_WORDS = re.compile(r"[A-Za-z0-9]+")


def identifier(text: str, limit: int = MAX_NAME) -> str:
    """Return ``text`` as an identifier: invalid runs become ``_``, no leading digit."""
    name = _NOT_IDENT.sub("_", text).strip("_") or "_"
    if name[0].isdigit():
        name = "_" + name
    if len(name) > limit:
        digest = hashlib.sha1(text.encode()).hexdigest()[:8]
        name = name[: limit - 9].rstrip("_") + "_" + digest
    return name


_FILLER = frozenset(
    [
        "a",
        "an",
        "and",
        "api",
        "apis",
        "definition",
        "definitions",
        "doc",
        "docs",
        "documentation",
        "for",
        "http",
        "https",
        "json",
        "of",
        "official",
        "openapi",
        "reference",
        "rest",
        "restful",
        "spec",
        "specification",
        "specs",
        "the",
        "to",
        "v",
        "with",
    ]
)
_VERSION = re.compile(r"v?\d+")
_DOMAIN = re.compile(r"\.(?:io|com|org|net|dev|ai|co|app)\b", re.IGNORECASE)
_POSSESSIVE = re.compile(r"[A-Za-z0-9]+(?:['\u2019]s\b)?")
TITLE_WORDS = 3
"""At most this many words of a title make a default name."""


def title_words(title: str) -> list[str]:
    """The words of ``info.title`` that name the API, as a short readable default name.

    The owner of a possessive is the name (``GitHub's official OpenAPI spec + Octokit
    extension`` → ``GitHub``, ``Netlify's API documentation`` → ``Netlify``); words that say
    what every spec is (``API``, ``OpenAPI``, ``spec``, ``documentation``, ``REST``,
    ``official``...), version numbers and small words are dropped, a domain loses its
    suffix (``Blockfrost.io``), and at most :data:`TITLE_WORDS` words remain (``ShipEngine
    API`` → ``ShipEngine``, ``Swagger Petstore`` as it is). A title of filler only keeps its
    words (``API Reference``).
    """
    tokens = _POSSESSIVE.findall(_DOMAIN.sub("", title))
    for i, token in enumerate(tokens):
        if token[-2:] in ("'s", "\u2019s"):
            tokens = [*tokens[:i], token[:-2]]
            break
    words = [t for t in tokens if t.lower() not in _FILLER and not _VERSION.fullmatch(t.lower())]
    return (words or _WORDS.findall(title))[:TITLE_WORDS]


_SMALL = frozenset(
    ["a", "an", "and", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"]
)


def readable(text: str, limit: int = MAX_NAME) -> str | None:
    """``text`` as an identifier of at most ``limit`` characters without a hash, if one reads.

    Over the limit, small words go first (``for``, ``in``, ``or``...), then the words before
    the last one, last first (the last word often tells operations apart: ``..._organization``
    and ``..._repository``): ``copilot/list-copilot-coding-agent-selected-repositories-for-
    organization`` → ``copilot_list_copilot_coding_agent_selected_organization``. ``None`` when
    even the first and last words do not fit. The caller checks that the name is unique.
    """
    name = identifier(text, limit=len(text) + 2)  # no hash
    if len(name) <= limit:
        return name
    words = name.split("_")
    words = [w for i, w in enumerate(words) if i == 0 or w.lower() not in _SMALL]
    while len("_".join(words)) > limit and len(words) > 2:
        del words[-2]
    short = "_".join(words)
    return short if len(short) <= limit else None


def plugin_identifier(title: str) -> str:
    """Return a plugin name from ``info.title``: its :func:`title_words` in CamelCase.

    ``DatePluginSimpleComplex`` stays as it is; ``Swagger Petstore`` → ``SwaggerPetstore``,
    ``GitHub's official OpenAPI spec + Octokit extension`` → ``GitHub``.
    """
    name = "".join(w[:1].upper() + w[1:] for w in title_words(title))
    if not name:
        return "OpenApiPlugin"
    return identifier(name)


def package_identifier(title: str) -> str:
    """A package name from ``info.title``: its :func:`title_words`, lower case, with ``_``.

    ``GitHub's official OpenAPI spec + Octokit extension`` → ``github``, ``Swagger
    Petstore`` → ``swagger_petstore`` (``""`` for a title without words).
    """
    name = "_".join(_snake(w) for w in title_words(title))
    return f"api_{name}" if name[:1].isdigit() else name


_HUMPS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def _snake(word: str) -> str:
    """One title word in snake case.

    A brand of two humps is one word (``GitHub`` → ``github``, ``OpenAI`` → ``openai``); a
    longer run of them is words (``DatePluginSimpleComplex`` → ``date_plugin_simple_complex``).
    """
    humps = _HUMPS.findall(word)
    return "_".join(h.lower() for h in humps) if len(humps) > 2 else word.lower()


def method_path_name(method: str, path: str) -> str:
    """A name from method and path: ``GET /pets/{petId}`` → ``get_pets_petId``."""
    return identifier(re.sub(r"[^A-Za-z0-9]+", "_", f"{method}_{path}"))


class NameRegistry:
    """Hands out unique function names within one plugin."""

    def __init__(self) -> None:
        self._taken: set[str] = set()

    def take(self, operation_id: str | None, method: str, path: str) -> str:
        """The name for an operation: its cleaned ``operationId``, else method + path.

        A name over the length limit is shortened readably (:func:`readable`) when that
        name is free, else it keeps its head and ends with a hash.
        """
        found: list[str | None] = []
        if isinstance(operation_id, str) and operation_id.strip():
            found += [readable(operation_id), identifier(operation_id)]
        path_name = re.sub(r"[^A-Za-z0-9]+", "_", f"{method}_{path}")
        found += [readable(path_name), method_path_name(method, path)]
        candidates = [c for c in dict.fromkeys(found) if c is not None]
        for name in candidates:
            if name not in self._taken:
                self._taken.add(name)
                return name
        base = candidates[0]
        n = 2
        while f"{base}_{n}" in self._taken:
            n += 1
        name = f"{base}_{n}"
        self._taken.add(name)
        return name
