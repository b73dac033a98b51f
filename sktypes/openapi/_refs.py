"""``$ref`` resolution across a spec's files with ``referencing``.

Every file is an opaque ``referencing`` resource (an OpenAPI document is not a JSON Schema,
and a schema *property* named ``$ref``, as in Kubernetes, must not be taken for a
reference). Relative refs load sibling files on first use (size-limited, parsed like the
root); ``http(s)`` refs only with ``allow_remote_refs=True`` and a timeout; anything else is
refused. Non-schema objects (parameters, responses, path items) are followed ref by ref with
cycle detection; schemas never are (see ``_schemas``): they become ``$defs``.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import Any
from urllib.parse import urldefrag, urljoin, urlsplit

import httpx
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable, Unretrievable

from sktypes import _pointer
from sktypes.errors import OpenApiError
from sktypes.openapi._source import Document, parse_bytes, path_of_uri, read_path

__all__ = ["MEMORY_URI", "Place", "Refs"]

MEMORY_URI = "sktypes-memory:spec"
"""Base URI of a spec given as text or a dict: relative file refs cannot be resolved."""

_REMOTE_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class Place:
    """A location in the spec for messages: the document URI and a JSON pointer."""

    uri: str
    pointer: str

    def child(self, *tokens: str | int) -> Place:
        """The place one or more levels down."""
        return Place(self.uri, _pointer.join(self.pointer, *tokens))


class _Refused(Exception):
    """Raised inside ``retrieve`` for a ref sktypes will not follow."""


class Refs:
    """Resolve ``$ref`` strings relative to a document URI; remember every loaded file."""

    def __init__(self, root: Document, *, allow_remote: bool, max_bytes: int) -> None:
        self.root_uri = root.uri or MEMORY_URI
        self._allow_remote = allow_remote
        self._max_bytes = max_bytes
        self._display: dict[str, str] = {self.root_uri: root.display}
        self._docs: dict[str, Document] = {self.root_uri: root}
        self._resources: dict[str, Resource[Any]] = {}
        self._registry: Registry[Any] = Registry(retrieve=self._retrieve).with_resource(  # type: ignore[call-arg]
            self.root_uri, Resource.opaque(root.data)
        )
        self._resolvers: dict[str, Any] = {}

    # -- messages ------------------------------------------------------------------------
    def display(self, uri: str) -> str:
        """How messages name the document at ``uri``."""
        doc_uri = urldefrag(uri)[0]
        known = self._display.get(doc_uri)
        if known is not None:
            return known
        if doc_uri.startswith("file:"):
            root = self._docs[self.root_uri]
            path = str(path_of_uri(doc_uri))
            if root.uri is not None:
                base = posixpath.dirname(str(path_of_uri(root.uri)))
                rel = posixpath.relpath(path, base)
                root_dir = posixpath.dirname(root.display)
                return posixpath.join(root_dir, rel) if root_dir else rel
            return path
        return doc_uri

    def error(self, message: str, place: Place) -> OpenApiError:
        """An :class:`OpenApiError` naming the file and the pointer of ``place``."""
        return OpenApiError(message, file=self.display(place.uri), where=place.pointer or "/")

    def documents(self) -> list[tuple[str, Document]]:
        """Every document loaded so far, the root first."""
        return list(self._docs.items())

    def document(self, uri: str) -> Document | None:
        """The parsed document at ``uri`` (only files already loaded)."""
        return self._docs.get(urldefrag(uri)[0])

    # -- resolution ----------------------------------------------------------------------
    def absolute(self, ref: str, base: str) -> str:
        """The absolute URI of ``ref`` written in the document at ``base``."""
        if ref.startswith("#"):
            return urldefrag(base)[0] + ref
        if urlsplit(base).scheme in ("file", "http", "https"):
            return urljoin(base, ref)
        return ref

    def lookup(self, ref: str, place: Place) -> tuple[Any, str]:
        """Return the value ``ref`` (written at ``place``) points to, and its absolute URI."""
        if not isinstance(ref, str):
            raise self.error(f"$ref must be a string, not {type(ref).__name__}", place)
        target = self.absolute(ref, place.uri)
        doc_uri, fragment = urldefrag(target)
        if not doc_uri:
            doc_uri = urldefrag(place.uri)[0]
            target = doc_uri + "#" + fragment
        if doc_uri not in self._docs:
            try:  # load it here: referencing would hide why a document cannot be retrieved
                self._retrieve(doc_uri)
            except _Refused as exc:
                raise self.error(str(exc), place) from None
        resolver = self._resolvers.get(doc_uri)
        if resolver is None:
            resolver = self._registry.resolver(base_uri=doc_uri)
            self._resolvers[doc_uri] = resolver
        try:
            resolved = resolver.lookup("#" + fragment if fragment else doc_uri)
        except _Refused as exc:
            raise self.error(str(exc), place) from None
        except Unretrievable as exc:
            cause = exc.__cause__
            if isinstance(cause, _Refused):
                raise self.error(str(cause), place) from None
            if isinstance(cause, OpenApiError):
                raise cause from None
            raise self.error(f"$ref {ref!r} cannot be loaded: {cause or exc}", place) from None
        except (Unresolvable, NoSuchResource, ValueError, TypeError):
            raise self.error(f"$ref {ref!r} points to nothing", place) from None
        return resolved.contents, target

    def follow(self, node: Any, place: Place, kind: str) -> tuple[Any, Place]:
        """Follow a chain of refs on a non-schema object (parameter, response, path item).

        Returns the final object and its place; a cycle raises an :class:`OpenApiError`.
        Keys written beside a ``$ref`` (``operationId`` next to a ref'd operation in Google
        Maps' spec) are merged over the target.
        """
        seen: list[str] = []
        origin = place
        siblings: dict[str, Any] = {}
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            siblings = {**{k: v for k, v in node.items() if k != "$ref"}, **siblings}
            node, target = self.lookup(ref, place)
            if target in seen:
                chain = " → ".join(self._short(t) for t in [*seen, target])
                raise self.error(f"$ref cycle in a {kind}: {chain}", origin)
            seen.append(target)
            uri, fragment = urldefrag(target)
            place = Place(uri, fragment)
        if siblings and isinstance(node, dict):
            node = {**node, **siblings}  # siblings of a $ref (forbidden, but common) win
        return node, place

    def _short(self, target: str) -> str:
        uri, fragment = urldefrag(target)
        return ("" if uri == self.root_uri else self.display(uri)) + "#" + fragment

    def _retrieve(self, uri: str) -> Resource[Any]:
        cached = self._resources.get(uri)
        if cached is not None:
            return cached
        scheme = urlsplit(uri).scheme
        if scheme == "file":
            path = path_of_uri(uri)
            doc = read_path(path, self.display(uri), self._max_bytes)
        elif scheme in ("http", "https"):
            if not self._allow_remote:
                raise _Refused(
                    f"remote $ref {uri!r} refused (pass allow_remote_refs=True to fetch it)"
                )
            doc = self._fetch(uri)
        elif self.root_uri == MEMORY_URI:
            raise _Refused(
                f"$ref {uri!r} is relative to a spec given in memory; load the spec from its "
                "file to resolve it"
            )
        else:
            raise _Refused(f"$ref {uri!r} uses an unsupported URI scheme")
        self._docs[uri] = doc
        self._display.setdefault(uri, doc.display)
        resource: Resource[Any] = Resource.opaque(doc.data)
        self._resources[uri] = resource
        return resource

    def _fetch(self, uri: str) -> Document:
        try:
            with httpx.stream("GET", uri, timeout=_REMOTE_TIMEOUT, follow_redirects=True) as r:
                r.raise_for_status()
                chunks: list[bytes] = []
                total = 0
                for chunk in r.iter_bytes():
                    total += len(chunk)
                    if total > self._max_bytes:
                        raise OpenApiError(
                            f"remote document is over the {self._max_bytes}-byte limit", file=uri
                        )
                    chunks.append(chunk)
        except httpx.HTTPError as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise _Refused(f"remote $ref {uri!r} cannot be fetched: {reason}") from None
        raw = b"".join(chunks)
        return Document(parse_bytes(raw, uri, self._max_bytes), uri, uri)
