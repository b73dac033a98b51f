"""openapi-spec-validator, configured through its own extension points to do its walk faster.

The validator of record stays openapi-spec-validator: its classes, its keyword walk, its
errors. Two things make the same walk cheaper, and none of them can change a verdict:

- **A compiled first answer for the meta-schema passes.** The whole document against the
  OpenAPI meta-schema (the class attribute ``schema_validator``), and each schema object
  against its dialect's meta-schema (``_get_schema_checker``, the hook the validator's
  schema keyword defines for its subclasses), are first asked of jsonschema-rs. Only
  "valid" is taken from it; anything else — invalid, or a value it cannot read — goes to
  the same jsonschema validator as before, so every error, its message and its pointer are
  jsonschema's, exactly as without this module. (openapi-spec-validator's own jsonschema-rs
  backend would report jsonschema-rs's errors instead; it is not used.) Formats are checked
  by the same ``FormatChecker`` as the jsonschema pass, called from jsonschema-rs.
- **Sets where the walk keeps lists.** The schema keyword remembers the schemas it has
  visited (and meta-checked) in lists and asks ``id in list`` at every schema: quadratic in
  the number of schemas (6 of GitHub's 13 seconds). The same ids are kept in a list that
  answers membership from a set.

``tests/test_openapi_validator.py`` proves the verdicts equal the stock validator's on the
corpus, on every invalid spec of the suite and on generated mutations.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import jsonschema_rs
from jsonschema.exceptions import ValidationError
from jsonschema.validators import validator_for
from openapi_spec_validator import (
    OpenAPIV2SpecValidator,
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
)
from openapi_spec_validator.validation import keywords
from openapi_spec_validator.validation.validators import SpecValidator

__all__ = ["checks_ref_files", "spec_validator", "supports"]


class _IdList(list[Any]):
    """A list whose ``in`` is a set lookup (the walk only appends and asks membership)."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: set[Any] = set()

    def __contains__(self, item: object) -> bool:
        return item in self._seen

    def append(self, item: Any) -> None:
        """Append ``item`` and remember it."""
        self._seen.add(item)
        super().append(item)


_REGISTRIES = ("visited_schema_ids", "meta_checked_schema_ids", "schema_ids_registry")


def _with_sets(obj: object, names: Iterable[str]) -> None:
    for name in names:
        if isinstance(getattr(obj, name, None), list):
            setattr(obj, name, _IdList())


def _compiled(schema: Any, format_checker: Any = None) -> Any:
    """jsonschema-rs's validator for ``schema`` (formats: ``format_checker``'s), or ``None``.

    jsonschema-rs carries its own copies of the JSON Schema meta-schemas, and they differ
    from jsonschema's (its draft-04 ``enum`` admits ``[]``). So the meta-schemas jsonschema
    reads are what it reads here too: ``schema`` itself is compiled (not its ``id``), and
    each ``$ref`` into a published meta-schema is pointed at jsonschema's own copy.
    """
    options: dict[str, Any] = {"validate_formats": False}
    if format_checker is not None:
        options = {
            "validate_formats": True,
            "ignore_unknown_formats": True,
            "formats": {
                name: functools.partial(_conforms, format_checker, name)
                for name in format_checker.checkers
            },
        }
    try:
        resources: dict[str, str] = {}
        root = _local(_without_meta_id(schema), resources)
        registry = jsonschema_rs.Registry(
            [
                (
                    urn,
                    _local(
                        _without_meta_id(_meta_schema(uri) or _meta_schema(uri + "#")),
                        resources,
                        nested=True,
                    ),
                )
                for uri, urn in list(resources.items())
            ]
        )
        return jsonschema_rs.validator_for(root, registry=registry, retriever=_refuse, **options)
    except Exception:  # a meta-schema it cannot read as jsonschema does: jsonschema alone
        return None


_NOT_PUBLISHED: Any = object()


class _Unsupported(Exception):
    """A meta-schema this module does not compile (jsonschema alone answers for it)."""


def _without_meta_id(schema: Any) -> Any:
    """``schema`` without its ``id``/``$id`` when that names a published meta-schema."""
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for key in ("id", "$id"):
        uri = out.get(key)
        if isinstance(uri, str) and _published(uri):
            del out[key]
    return out


def _meta_schema(uri: str) -> dict[str, Any] | None:
    """The meta-schema jsonschema knows by ``uri`` (its validator class's), if any."""
    cls = validator_for({"$schema": uri}, default=_NOT_PUBLISHED)
    return None if cls is _NOT_PUBLISHED else dict(cls.META_SCHEMA)


def _published_copy(uri: str) -> dict[str, Any] | None:
    """Jsonschema's copy of the published meta-schema ``uri`` (with or without ``#``)."""
    return _meta_schema(uri) or _meta_schema(uri + "#")


def _published(uri: str) -> bool:
    return _published_copy(uri) is not None


def _local(node: Any, resources: dict[str, str], *, nested: bool = False) -> Any:
    """A copy of ``node`` whose ``$ref``s into published meta-schemas name local copies."""
    if isinstance(node, list):
        return [_local(v, resources, nested=nested) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$dynamicRef", "$recursiveRef") and (nested or not str(value).startswith("#")):
            raise _Unsupported(key)
        if key == "$ref" and isinstance(value, str) and not value.startswith("#"):
            base, _, fragment = value.partition("#")
            if nested or not _published(base):
                raise _Unsupported(value)  # a reference to a document not at hand
            urn = resources.setdefault(base, f"urn:sktypes:meta-schema:{len(resources)}")
            value = f"{urn}#{fragment}"
        out[key] = _local(value, resources, nested=nested)
    return out


def _refuse(uri: str) -> Any:
    """jsonschema-rs's retriever: nothing is fetched (a meta-schema needing it is not compiled)."""
    raise ValueError(f"not retrieved: {uri}")


def _conforms(checker: Any, name: str, value: Any) -> bool:
    return bool(checker.conforms(value, name))


def _surely_valid(compiled: Any, instance: Any) -> bool:
    """Whether jsonschema-rs finds ``instance`` valid (``False`` when it cannot tell)."""
    if compiled is None:
        return False
    try:
        return bool(compiled.is_valid(instance))
    except Exception:  # a value it cannot read (a YAML date, a big float): ask jsonschema
        return False


class _MetaSchemaPass:
    """The document-against-meta-schema pass: jsonschema-rs first, jsonschema for errors."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self._python = validator_for(dict(schema))(schema)
        self._compiled = _compiled(schema)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        """The errors of ``instance`` (jsonschema's), none when jsonschema-rs finds none."""
        if _surely_valid(self._compiled, instance):
            return iter(())
        return iter(self._python.iter_errors(instance))


class _CompiledCheck:
    """A schema checker (``check_schema``) answered by jsonschema-rs when the schema is valid."""

    def __init__(self, python: Callable[[Any], None], compiled: Any) -> None:
        self._python = python
        self._compiled = compiled

    def __call__(self, schema: Any) -> None:
        if not _surely_valid(self._compiled, schema):
            self._python(schema)


def _check_for(cls: Any, checker: Callable[[Any], None], key: Any, cache: dict[Any, Any]) -> Any:
    """The compiled form of ``checker`` (a ``check_schema``), cached per meta-schema."""
    hit = cache.get(key)
    if hit is None:
        meta = getattr(cls, "META_SCHEMA", None)
        fmt = getattr(checker, "keywords", {}).get("format_checker", cls.FORMAT_CHECKER)
        compiled = _compiled(meta, fmt) if isinstance(meta, dict) else None
        hit = cache[key] = compiled
    return _CompiledCheck(checker, hit)


def _schema_keyword(base: type[Any]) -> type[Any]:
    """``base`` (a schema keyword validator) with set-backed registries and compiled checks."""

    class Schema(base):  # type: ignore[misc]
        def __init__(self, registry: Any) -> None:
            super().__init__(registry)
            _with_sets(self, _REGISTRIES)
            self._compiled_checks: dict[Any, Any] = {}

        def _get_schema_checker(self, schema: Any, schema_value: Any) -> Callable[[Any], None]:
            checker: Callable[[Any], None] = super()._get_schema_checker(schema, schema_value)
            cls = getattr(checker, "__self__", None) or getattr(
                getattr(checker, "func", None), "__self__", None
            )
            if cls is None:  # pragma: no cover - a checker of an unknown shape
                return checker
            compiled: Callable[[Any], None] = _check_for(cls, checker, cls, self._compiled_checks)
            return compiled

    Schema.__name__ = Schema.__qualname__ = f"Fast{base.__name__}"
    return Schema


class _Operation(keywords.OperationValidator):
    def __init__(self, registry: Any) -> None:
        super().__init__(registry)
        _with_sets(self, ("operation_ids_registry",))


def _fast(base: type[SpecValidator], schema: Any) -> type[SpecValidator]:
    kinds = dict(base.keyword_validators)
    kinds["schema"] = _schema_keyword(kinds["schema"])
    kinds["operation"] = _Operation
    attrs = {"schema_validator": _MetaSchemaPass(schema), "keyword_validators": kinds}
    return type(f"Fast{base.__name__}", (base,), attrs)


def supports(version: int) -> bool:
    """Whether the installed openapi-spec-validator knows OpenAPI ``version``.

    0.8 has a 3.2 validator; 0.7 (what semantic-kernel's venv resolves) has none.
    """
    if version != 32:
        return True
    try:
        from openapi_spec_validator import OpenAPIV32SpecValidator  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the installed validator
        return False
    return True


@functools.cache
def checks_ref_files() -> tuple[bool, str]:
    """Whether the installed openapi-spec-validator checks schemas in ``$ref``'d files.

    Below 0.8.1 it does not: an invalid schema in another file passes (0.7 is what
    semantic-kernel's venv resolves). Also its version, to say so.
    """
    from importlib.metadata import version

    installed = version("openapi-spec-validator")
    parts = tuple(int(p) for p in installed.split(".")[:3] if p.isdigit())
    return parts >= (0, 8, 1), installed


@functools.cache
def spec_validator(version: int) -> type[SpecValidator]:
    """The validator class for OpenAPI ``version`` (2, 30, 31 or 32), built once."""
    from openapi_spec_validator.schemas import schema_v2, schema_v30, schema_v31

    if version == 32:
        from openapi_spec_validator import OpenAPIV32SpecValidator
        from openapi_spec_validator.schemas import schema_v32

        return _fast(OpenAPIV32SpecValidator, schema_v32)
    base, schema = {
        2: (OpenAPIV2SpecValidator, schema_v2),
        30: (OpenAPIV30SpecValidator, schema_v30),
        31: (OpenAPIV31SpecValidator, schema_v31),
    }[version]
    return _fast(base, schema)
