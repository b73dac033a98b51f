"""``$ref`` resolution across a spec's files with ``referencing``, under one admission policy.

Every file is an opaque ``referencing`` resource (an OpenAPI document is not a JSON Schema,
and a schema *property* named ``$ref``, as in Kubernetes, must not be taken for a
reference). A ``$ref`` is parsed once, as a URL parser reads it (scheme in any case, spaces
and control characters around it stripped, tabs and newlines inside removed), and its
*parsed* scheme decides:

- a local file (a relative ref, an absolute path, ``file:`` without a host) is read only
  when it resolves — symlinks followed — inside the spec's own directory or a directory
  of ``ref_roots``, only from a local document, and only if it is a regular file (devices,
  FIFOs and sockets are refused before they are opened); every read is size-limited;
- ``http(s)`` only with ``allow_remote_refs=True``, with a timeout and the size limit;
- anything else (another host's ``file:``, ``ftp:``, ``data:``...) is refused.

Only :meth:`Refs.lookup` and :meth:`Refs.admit_all` load documents; the validator is handed
the documents already admitted and nothing else (:mod:`._validate`). Non-schema objects
(parameters, responses, path items) are followed ref by ref with cycle detection; schemas
never are (see ``_schemas``): they become ``$defs``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit, urlunsplit

import httpx
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable, Unretrievable

from sktypes import _pointer
from sktypes.errors import OpenApiError
from sktypes.limits import DocumentLimits
from sktypes.openapi._source import Document, digest_of, parse_bytes, path_of_uri, read_path

__all__ = ["MEMORY_URI", "Place", "Refs", "clean_ref"]

MEMORY_URI = "sktypes-memory:spec"
"""Base URI of a spec given as text or a dict: relative file refs cannot be resolved."""

_REMOTE_TIMEOUT = 10.0
_REMOTE = ("http", "https")


def clean_ref(ref: str) -> str:
    """A ``$ref`` as URL parsers read it: ``HTTP://x`` → ``http://x``, `` #/a`` → ``#/a``."""
    return urlunsplit(urlsplit(ref.strip()))


def _scheme(uri: str) -> str:
    return urlsplit(uri).scheme


@dataclass(frozen=True, slots=True)
class Place:
    """A location in the spec for messages: the document URI and a JSON pointer."""

    uri: str
    pointer: str

    def child(self, *tokens: str | int) -> Place:
        """The place one or more levels down."""
        return Place(self.uri, _pointer.join(self.pointer, *tokens))


class Refs:
    """Resolve ``$ref`` strings relative to a document URI; remember every admitted file.

    Args:
        root: the spec.
        allow_remote: fetch ``http(s)`` refs.
        limits: size and shape limits for every file read.
        ref_roots: directories local refs may read besides the spec's own directory.
    """

    def __init__(
        self,
        root: Document,
        *,
        allow_remote: bool,
        limits: DocumentLimits,
        ref_roots: Iterable[Path] = (),
    ) -> None:
        self.root_uri = root.uri or MEMORY_URI
        self._allow_remote = allow_remote
        self._limits = limits
        roots = [Path(r).resolve() for r in ref_roots]
        if root.path is not None:
            roots.insert(0, root.path.resolve().parent)
        self.roots: tuple[Path, ...] = tuple(roots)
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
        """Every document admitted so far, the root first."""
        return list(self._docs.items())

    def document(self, uri: str) -> Document | None:
        """The parsed document at ``uri`` (only files already admitted)."""
        return self._docs.get(urldefrag(uri)[0])

    # -- resolution ----------------------------------------------------------------------
    def absolute(self, ref: str, base: str) -> str:
        """The absolute URI of ``ref`` written in the document at ``base``."""
        ref = clean_ref(ref)
        if ref.startswith("#") or not ref:
            return urldefrag(base)[0] + ref
        if _scheme(base) in ("file", *_REMOTE):
            return clean_ref(urljoin(base, ref))
        return ref

    def lookup(self, ref: str, place: Place, *, admit: bool = True) -> tuple[Any, str]:
        """Return the value ``ref`` (written at ``place``) points to, and its absolute URI.

        With ``admit=False`` only documents already admitted are searched.
        """
        if not isinstance(ref, str):
            raise self.error(f"$ref must be a string, not {type(ref).__name__}", place)
        target = self.absolute(ref, place.uri)
        doc_uri, fragment = urldefrag(target)
        if not doc_uri:
            doc_uri = urldefrag(place.uri)[0]
            target = doc_uri + "#" + fragment
        if doc_uri not in self._docs:
            if not admit:
                raise self.error(f"$ref {ref!r}: its document was not admitted", place)
            try:  # load it here: referencing would hide why a document cannot be retrieved
                self._admit(doc_uri, place.uri, ref)
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
        seen: set[str] = set()
        chain: list[str] = []
        origin = place
        siblings: dict[str, Any] = {}
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            siblings = {**{k: v for k, v in node.items() if k != "$ref"}, **siblings}
            node, target = self.lookup(ref, place)
            chain.append(target)
            if target in seen:
                text = " → ".join(self._short(t) for t in chain)
                raise self.error(f"$ref cycle in a {kind}: {text}", origin)
            seen.add(target)
            uri, fragment = urldefrag(target)
            place = Place(uri, fragment)
        if siblings and isinstance(node, dict):
            node = {**node, **siblings}  # siblings of a $ref (forbidden, but common) win
        return node, place

    def admit_all(self, *, lenient: bool = False) -> None:
        """Admit every document any admitted document refers to, in any place.

        Run before validation, so that the validator, which is handed only admitted
        documents, finds every file it needs; a ref the policy refuses is an error naming
        its place even when no operation uses it. A file that does not exist is left to
        the validator to report (it may be a ``$ref`` inside an example). ``lenient``
        skips what is refused or unreadable instead (to list a spec's files).
        """
        todo = [uri for uri, _ in self.documents()]
        seen = set(todo)
        while todo:
            uri = todo.pop()
            doc = self._docs[uri]
            for ref, pointer in _refs_in(doc.data):
                target = urldefrag(self.absolute(ref, uri))[0] or uri
                if target in seen:
                    continue
                seen.add(target)
                try:
                    self._admit(target, uri, ref)
                except _Missing:
                    continue
                except (_Refused, OpenApiError) as exc:
                    if lenient:
                        continue
                    if not isinstance(exc, _Refused):
                        raise
                    place = Place(uri, pointer).child("$ref")
                    if exc.remote:
                        message = "remote $ref refused (pass allow_remote_refs=True to fetch it)"
                        raise self.error(message, place) from None
                    raise self.error(str(exc), place) from None
                todo.append(target)

    def first_unresolvable(self) -> OpenApiError | None:
        """The error of the first ``$ref`` (in any admitted document) that cannot be followed.

        For the error path only (a walk over every ``$ref``): when a validator fails on a
        reference, this names the reference and its place in its file. No URL is fetched
        here (a remote document the loader did not admit is named as such); a local file is
        admitted as the loader admits one (inside the roots, a regular file), to say why it
        cannot be read.
        """
        for uri, doc in self.documents():
            for ref, pointer in _refs_in(doc.data):
                local = not isinstance(ref, str) or _scheme(self.absolute(ref, uri)) not in _REMOTE
                try:
                    self.lookup(ref, Place(uri, pointer), admit=local)
                except OpenApiError as exc:
                    return exc
        return None

    def local_files(self) -> list[Path]:
        """The local files admitted so far (the root first, then sorted)."""
        paths = [path_of_uri(uri) for uri in self._docs if _scheme(uri) == "file"]
        root = paths[:1] if self.root_uri.startswith("file:") else []
        return root + sorted(p for p in paths if p not in root)

    def _short(self, target: str) -> str:
        uri, fragment = urldefrag(target)
        return ("" if uri == self.root_uri else self.display(uri)) + "#" + fragment

    # -- admission -----------------------------------------------------------------------
    def _admit(self, uri: str, referrer: str, written: str | None = None) -> None:
        """Load the document at ``uri`` (named in ``referrer``) if the policy allows it.

        Messages show the ``$ref`` as ``written`` (``./schemas/pet.yaml``), not resolved.
        """
        shown = repr(written) if written is not None else repr(uri)
        if uri in self._docs:
            return
        scheme = _scheme(uri)
        if scheme == "file":
            if _scheme(referrer) in _REMOTE:
                raise _Refused(f"$ref {shown}: a remote document cannot refer to local files")
            path = self._local_path(uri, shown)
            try:
                found = path.exists()
            except OSError as exc:  # a name too long for the file system
                raise _Missing(f"$ref {shown} cannot be loaded: {exc.strerror}") from None
            if not found:
                raise _Missing(f"$ref {shown} cannot be loaded: no such file")
            doc = read_path(path, self.display(uri), self._limits, regular_only=True)
        elif scheme in _REMOTE:
            if not self._allow_remote:
                raise _Refused(
                    f"remote $ref {shown} refused (pass allow_remote_refs=True to fetch it)",
                    remote=True,
                )
            doc = self._fetch(uri)
        elif self.root_uri == MEMORY_URI and not scheme:
            raise _Refused(
                f"$ref {shown} is relative to a spec given in memory; load the spec from its "
                "file to resolve it"
            )
        else:
            raise _Refused(f"$ref {shown} uses an unsupported URI scheme")
        self._docs[uri] = doc
        self._display.setdefault(uri, doc.display)
        self._resources[uri] = Resource.opaque(doc.data)

    def _local_path(self, uri: str, shown: str) -> Path:
        parts = urlsplit(uri)
        if parts.netloc not in ("", "localhost"):
            raise _Refused(f"$ref {shown} names a file on another host; refused")
        text = unquote(parts.path)
        if "\x00" in text:
            raise _Refused(f"$ref {shown} names a path with a NUL byte; refused")
        path = Path(text).resolve()  # symlinks and .. resolved
        if not any(path.is_relative_to(root) for root in self.roots):
            root = self._docs[self.root_uri]
            spec_dir = posixpath.dirname(root.display) or "." if root.path else None
            where = (
                f"outside the spec's directory {spec_dir or self.roots[0]}"
                if self.roots
                else "a local file, and the spec was given in memory"
            )
            raise _Refused(
                f"$ref {shown} is {where}; refused (list its directory in ref_roots to allow it)"
            )
        return path

    def _retrieve(self, uri: str) -> Resource[Any]:
        """``referencing``'s hook: only documents already admitted (never a new read)."""
        resource = self._resources.get(uri)
        if resource is None:
            raise _Refused(f"$ref {uri!r} was not admitted")
        return resource

    def _fetch(self, uri: str) -> Document:
        limit = self._limits.max_bytes
        try:
            with httpx.stream("GET", uri, timeout=_REMOTE_TIMEOUT, follow_redirects=True) as r:
                r.raise_for_status()
                chunks: list[bytes] = []
                total = 0
                for chunk in r.iter_bytes():
                    total += len(chunk)
                    if total > limit:
                        raise OpenApiError(
                            f"remote document is over the {limit}-byte limit", file=uri
                        )
                    chunks.append(chunk)
        except httpx.HTTPError as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise _Refused(f"remote $ref {uri!r} cannot be fetched: {reason}") from None
        raw = b"".join(chunks)
        return Document(parse_bytes(raw, uri, self._limits), uri, uri, raw, digest=digest_of(raw))


class _Refused(Exception):
    """Raised for a ref sktypes will not follow."""

    def __init__(self, message: str, *, remote: bool = False) -> None:
        super().__init__(message)
        self.remote = remote


class _Missing(_Refused):
    """A local file the policy allows but that does not exist."""


def _refs_in(data: Any) -> list[tuple[str, str]]:
    """Every string ``$ref`` in a document with the JSON pointer of its object."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                found.append((ref, pointer))
            for key, value in node.items():
                if isinstance(value, (dict, list)):
                    stack.append((value, _pointer.join(pointer, key)))
        elif isinstance(node, list):
            stack.extend(
                (v, f"{pointer}/{i}") for i, v in enumerate(node) if isinstance(v, (dict, list))
            )
    found.reverse()
    return found
