"""Validation verdicts, recorded by content: a document is validated once per content.

The verdict of openapi-spec-validator on a spec depends only on the bytes of the spec and
of every document its ``$ref``s admitted, on the OpenAPI version, and on the validator (its
version and those of the libraries it runs on). Its digest over those (:func:`verdict_key`)
names the verdict, which is recorded

- in the per-user cache directory: ``$SKTYPES_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/sktypes``, else ``~/.cache/sktypes`` (one small JSON file per verdict
  under ``validation/``); ``SKTYPES_NO_CACHE=1`` (or ``sktypes --no-cache``) neither reads
  nor writes it;
- in a generated package's link record (``sktypes.json``, ``"validation"``), from which
  ``sktypes check`` and ``sktypes serve`` take it (:func:`remember`) on a machine whose
  cache is empty.

A verdict found either way is used as the validator's own: the same error (message and
pointer) is raised for an invalid spec, nothing for a valid one. Anything unreadable in
the cache is a miss; a cache that cannot be written is skipped silently.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import posixpath
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urldefrag

import orjson

from sktypes.errors import OpenApiError

if TYPE_CHECKING:
    from sktypes.openapi._refs import Refs
    from sktypes.openapi._source import Document

__all__ = [
    "NO_CACHE_ENV",
    "Outcome",
    "Verdict",
    "cache_dir",
    "outcome_of",
    "recall",
    "recorded",
    "remember",
    "settle",
    "validate_once",
    "validator_identity",
    "verdict_key",
]

NO_CACHE_ENV = "SKTYPES_NO_CACHE"
"""Set to ``1`` (or ``true``/``yes``) to neither read nor write the per-user cache."""
CACHE_DIR_ENV = "SKTYPES_CACHE_DIR"
"""Where the per-user cache lives instead of ``$XDG_CACHE_HOME/sktypes``."""

_FORMAT = "sktypes-validation/1"
_LIBRARIES = (
    "openapi-spec-validator",
    "openapi-schema-validator",
    "jsonschema",
    "jsonschema-path",
    "jsonschema-rs",
    "referencing",
)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The validator's verdict on one content.

    Attributes:
        key: the digest naming the content and the validator (:func:`verdict_key`).
        validator: the validator and its version (``openapi-spec-validator 0.8.5``).
        message: the first error's message; ``None`` for a valid spec.
        where: the first error's place (pointer and line), if it has one.
        file: the file of the first error when it is not the spec itself (a ``$ref``'d
            document), relative to the spec's folder (``schemas/pet.yaml``).
        problems: reported as warnings (``strict=False``): every problem, one line each
            (``<pointer> (line N): <message>``); empty for a valid spec.
    """

    key: str
    validator: str
    message: str | None = None
    where: str | None = None
    problems: tuple[str, ...] = ()
    file: str | None = None

    @property
    def valid(self) -> bool:
        """Whether the spec passed."""
        return self.message is None and not self.problems

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the link record's ``"validation"`` and a cache file)."""
        out: dict[str, Any] = {"digest": self.key, "validator": self.validator}
        out["valid"] = self.valid
        if self.message is not None:
            out["error"] = {"message": self.message, "where": self.where}
            if self.file is not None:
                out["error"]["file"] = self.file
        if self.problems:
            out["problems"] = list(self.problems)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Verdict | None:
        """Read the JSON form back; ``None`` when it is not one."""
        if not isinstance(data, Mapping):
            return None
        key, validator = data.get("digest"), data.get("validator")
        if not isinstance(key, str) or not isinstance(validator, str):
            return None
        error, problems = data.get("error"), data.get("problems")
        if data.get("valid") is True and error is None and problems is None:
            return cls(key, validator)
        if (
            data.get("valid") is False
            and error is None
            and isinstance(problems, list)
            and problems
            and all(isinstance(p, str) for p in problems)
        ):
            return cls(key, validator, problems=tuple(problems))
        if data.get("valid") is False and isinstance(error, Mapping):
            message, where, file = error.get("message"), error.get("where"), error.get("file")
            if (
                isinstance(message, str)
                and (where is None or isinstance(where, str))
                and (file is None or isinstance(file, str))
            ):
                return cls(key, validator, message, where, file=file)
        return None

    def check(self, display: str) -> None:
        """Raise the recorded error, naming ``display`` (or the file beside it); none if valid."""
        if self.message is not None:
            file = display
            if self.file is not None:
                file = posixpath.normpath(posixpath.join(posixpath.dirname(display), self.file))
            raise OpenApiError(self.message, file=file, where=self.where)


@cache
def validator_identity() -> str:
    """The validator and the libraries its verdicts depend on, with their versions."""
    versions = []
    for name in _LIBRARIES:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} -")
    return ", ".join(versions)


def _validator_name() -> str:
    return validator_identity().split(",", 1)[0]


def verdict_key(refs: Refs, version: int) -> str | None:
    """The digest of every admitted document (bytes and place), the version and validator.

    Places are URIs relative to the spec's directory, so a moved checkout keeps its
    verdicts. ``None`` when a document has no digest (a spec given as a dict that is not
    plain JSON).
    """
    head = f"{_FORMAT}\n{validator_identity()}\nopenapi {version}\n"
    h = hashlib.sha256(head.encode())
    base = posixpath.dirname(refs.root_uri)
    for uri, doc in sorted(refs.documents(), key=lambda item: item[0]):
        digest = doc.digest or _tree_digest(doc.data)
        if digest is None:
            return None
        where = uri if uri == refs.root_uri else _relative(uri, base)
        h.update(f"{'<root>' if uri == refs.root_uri else where}\n{digest}\n".encode())
    return h.hexdigest()


def _relative(uri: str, base: str) -> str:
    if uri.startswith("file:") and base.startswith("file:"):
        return posixpath.relpath(urldefrag(uri)[0][5:], base[5:])
    return uri


def _tree_digest(data: Any) -> str | None:
    try:
        raw = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return None
    return hashlib.sha256(raw).hexdigest()


# --- where verdicts are kept ------------------------------------------------------------

_REMEMBERED: dict[str, Verdict] = {}


def remember(verdict: Verdict) -> None:
    """Keep ``verdict`` for this process (from a link record: its spec is not re-validated)."""
    if verdict.validator == _validator_name():
        _REMEMBERED[verdict.key] = verdict


def cache_dir() -> Path | None:
    """The per-user cache directory, or ``None`` when ``SKTYPES_NO_CACHE`` disables it."""
    if os.environ.get(NO_CACHE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return None
    explicit = os.environ.get(CACHE_DIR_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "sktypes"


def _file(key: str) -> Path | None:
    top = cache_dir()
    return None if top is None else top / "validation" / f"{key}.json"


def recall(key: str) -> Verdict | None:
    """The verdict recorded for ``key`` in this process or the per-user cache, if any."""
    known = _REMEMBERED.get(key)
    if known is not None:
        return known
    path = _file(key)
    if path is None:
        return None
    try:
        with path.open("rb") as fh:
            raw = fh.read(1 << 20)
        verdict = Verdict.from_dict(orjson.loads(raw))
    except (OSError, orjson.JSONDecodeError):
        return None
    if verdict is None or verdict.key != key:
        return None
    _REMEMBERED[key] = verdict
    return verdict


def _store(verdict: Verdict) -> None:
    _REMEMBERED[verdict.key] = verdict
    path = _file(verdict.key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".verdict.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(orjson.dumps(verdict.to_dict()))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return  # a read-only home, a full disk: the verdict is only not kept


Outcome = tuple[str, ...] | tuple[str, str | None, str | None, str | None]
"""What one run of the validator said: ``("lines", line...)`` (the problems reported, none for
a valid spec) or ``("error", message, file, where)`` (the error raised): plain data, which a
forked child sends back (:mod:`._forked`)."""


def validate_once(
    doc: Document,
    version: int,
    refs: Refs,
    validate: Callable[[], tuple[str, ...] | None],
    *,
    report: bool = False,
) -> Verdict:
    """The verdict on ``doc`` (with what ``refs`` admitted): recorded, else ``validate()``'s.

    ``validate`` raises :class:`OpenApiError` for an invalid spec (its message and place
    are what is recorded; the file name is not: it is the caller's), or, with ``report``,
    returns every problem as a line.
    """
    key = verdict_key(refs, version)
    known = recorded(key, report=report)
    if known is not None:
        return known
    return settle(doc, key, outcome_of(validate), report=report)


def recorded(key: str | None, *, report: bool) -> Verdict | None:
    """The verdict recorded for ``key`` (:func:`verdict_key`), for this way of reporting."""
    if key is None:
        return None
    # "valid" is one verdict for both ways of reporting; problems are recorded per way
    valid = recall(key)
    return valid if valid is not None and valid.valid else recall(f"{key}-{_mode(report)}")


def outcome_of(validate: Callable[[], tuple[str, ...] | None]) -> Outcome:
    """Run ``validate`` (see :func:`validate_once`) and say what it found."""
    try:
        return ("lines", *(validate() or ()))
    except OpenApiError as exc:
        return ("error", exc.message, exc.file, exc.where)


def settle(doc: Document, key: str | None, outcome: Outcome, *, report: bool) -> Verdict:
    """The verdict of one run's ``outcome`` on ``doc``, recorded under ``key`` (if any)."""
    if outcome[0] == "error":
        message, raised_in, where = outcome[1] or "", outcome[2], outcome[3]
        file = None  # the spec itself; a $ref'd document: its path from the spec's folder
        if raised_in is not None and raised_in != doc.display and "://" not in raised_in:
            file = posixpath.relpath(raised_in, posixpath.dirname(doc.display) or ".")
        verdict = Verdict(key or "", _validator_name(), message, where, file=file)
    else:
        lines = tuple(line for line in outcome[1:] if line is not None)
        verdict = Verdict(key or "", _validator_name(), problems=lines)
    if key is not None and not verdict.valid:
        verdict = dataclasses.replace(verdict, key=f"{key}-{_mode(report)}")
    if key is not None:
        _store(verdict)
    return verdict


def _mode(report: bool) -> str:
    return "report" if report else "strict"
