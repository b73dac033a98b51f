"""The checkers behind ``sktypes check``, one per kind of file.

Specs, JSON Schemas, functions manuals and prompt template configs; generated packages are
checked in ``_packages``.
"""

from __future__ import annotations

import difflib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError as JsonSchemaError
from jsonschema.validators import validator_for

from sktypes import _pointer
from sktypes._documents import read_document
from sktypes.check._findings import Finding
from sktypes.errors import SktypesError

__all__ = ["check_file", "kind_of"]


def kind_of(path: Path, data: Any) -> str | None:
    """What a parsed JSON/YAML file is: ``spec``, ``schema``, ``manual``, ``prompt``, or None."""
    if isinstance(data, dict) and ("openapi" in data or "swagger" in data):
        return "spec"
    if isinstance(data, dict) and ("$schema" in data or path.name.endswith(".schema.json")):
        return "schema"
    if isinstance(data, list) and (path.name.endswith("manual.json") or _looks_like_manual(data)):
        return "manual"
    if isinstance(data, dict) and isinstance(data.get("template"), str):
        from sktypes.templates import looks_like_prompt_template_config  # jinja2: when needed

        if looks_like_prompt_template_config(data):
            return "prompt"
    if isinstance(data, dict) and _typo_of_version_key(data) is not None:
        return "spec"
    return None


def check_file(path: Path) -> tuple[str | None, list[Finding]]:
    """Check one JSON/YAML file by what it holds; return its kind and the findings."""
    try:
        raw, data = read_document(path, str(path), SktypesError)
    except SktypesError as exc:
        unreadable = SktypesError(f"cannot be parsed: {exc.message}", **exc.location()._asdict())
        return "file", [Finding.of(unreadable, str(path))]
    kind = kind_of(path, data)
    if kind == "spec":
        typo = _typo_of_version_key(data)
        if typo is not None:
            key, meant = typo
            pointer = _pointer.join("", key)
            guess = f"unknown top-level key {key!r}: did you mean {meant!r}?"
            return kind, [Finding.of(SktypesError(guess, where=pointer), str(path))]
        return kind, _check_openapi(path, raw, data)
    if kind == "schema":
        return kind, _check_schema(path, data)
    if kind == "manual":
        return kind, _check_manual(path, data)
    if kind == "prompt":
        return kind, _check_prompt_template(path, data)
    return None, []


_VERSION_KEYS = ("openapi", "swagger")
_SPEC_KEYS = {"paths", "info", "components", "webhooks", "definitions"}


def _typo_of_version_key(data: dict[Any, Any]) -> tuple[str, str] | None:
    """A key that looks like a misspelt ``openapi``/``swagger`` in a document without one."""
    if any(k in data for k in _VERSION_KEYS):
        return None
    keys = [k for k in data if isinstance(k, str)]
    for key in keys:
        close = difflib.get_close_matches(key.lower(), _VERSION_KEYS, n=1, cutoff=0.7)
        if close:
            return key, close[0]
    if len(_SPEC_KEYS & set(keys)) >= 2 and "paths" in keys:
        return "paths", "openapi"
    return None


def _check_prompt_template(path: Path, data: Any) -> list[Finding]:
    """A prompt template config: it must validate and its template must parse."""
    from sktypes.templates import load_prompt_template

    try:
        load_prompt_template(path)
    except SktypesError as exc:
        return [Finding.of(exc, str(path))]
    return []


def _check_openapi(path: Path, raw: bytes, data: Any) -> list[Finding]:
    """The spec loads (validated) from what was read: it is not parsed again."""
    from sktypes.check._clean import known_clean, record_clean
    from sktypes.openapi._load import load_document
    from sktypes.openapi._source import Document, digest_of

    if known_clean(path, raw):  # loaded clean before, and nothing it reads has changed
        return []
    doc = Document(data, str(path), path.resolve().as_uri(), path=path, digest=digest_of(raw))
    try:
        load_document(doc)
    except SktypesError as exc:
        return [Finding.of(exc, str(path))]
    record_clean(path, raw, doc)
    return []


def _check_schema(path: Path, data: Any) -> list[Finding]:
    cls = validator_for(data, default=Draft202012Validator)
    try:
        cls.check_schema(data)
    except JsonSchemaError as exc:
        pointer = _pointer.join("", *exc.absolute_path) or "/"
        return [Finding.of(SktypesError(exc.message, where=pointer), str(path))]
    return []


@cache
def _manual_validator() -> Draft202012Validator:
    schema = resources.files("sktypes").joinpath("schemas", "function-manual.schema.json")
    return Draft202012Validator(orjson.loads(schema.read_bytes()))


def _looks_like_manual(data: list[Any]) -> bool:
    return bool(data) and all(isinstance(e, dict) and "parameters" in e for e in data)


def _check_manual(path: Path, data: Any) -> list[Finding]:
    out = []
    for error in sorted(_manual_validator().iter_errors(data), key=lambda e: list(e.path)):
        pointer = _pointer.join("", *error.absolute_path) or "/"
        out.append(Finding.of(SktypesError(error.message, where=pointer), str(path)))
    return out
