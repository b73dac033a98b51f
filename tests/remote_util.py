"""Helpers for the remote-client tests: generated packages imported, inline specs loaded."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import yaml

import sktypes as sk
from sktypes_codegen import generate_plugin

ROOT = Path(__file__).resolve().parents[1]
REMOTE_SPEC = ROOT / "tests" / "specs" / "remote_api.yaml"


def import_generated(spec: Path, out: Path, name: str) -> Any:
    """Generate ``spec`` (with ``_sync`` methods) as package ``name`` under ``out``; import it."""
    generate_plugin(spec, out, name=name, sync=True)
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(out))


def operation_spec(
    path: str = "/things",
    *,
    method: str = "get",
    parameters: list[dict[str, Any]] | None = None,
    response: dict[str, Any] | None = None,
    headers: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
    media: str = "application/json",
    version: str = "3.1.0",
    root: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A one-operation spec (``op``) with the given query parameters and 2xx body schema."""
    ok: dict[str, Any] = {"description": "ok"}
    if response is not None:
        ok["content"] = {media: {"schema": response}}
    if headers:
        ok["headers"] = headers
    op: dict[str, Any] = {
        "operationId": "op",
        "parameters": parameters or [],
        "responses": {"200": ok},
        **(extra or {}),
    }
    return {
        "openapi": version,
        "info": {"title": "T", "version": "1"},
        "paths": {path: {method: op}},
        **(root or {}),
    }


def query(name: str, kind: str = "string", **schema: Any) -> dict[str, Any]:
    """A query parameter ``name`` of JSON type ``kind``."""
    return {"name": name, "in": "query", "schema": {"type": kind, **schema}}


def load(spec: dict[str, Any]) -> Any:
    """``load_openapi`` of a spec given as data (through YAML text, as a file would be)."""
    return sk.load_openapi(yaml.safe_dump(spec, sort_keys=False))
