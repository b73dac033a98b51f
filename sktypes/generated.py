"""What packages written by ``sktypes generate`` import at run time (besides ``sktypes.remote``).

- :data:`MISSING`: pydantic's sentinel for "absent", distinct from ``None`` ("null"). A
  property or parameter the spec lets a caller leave out, but does not make nullable, is typed
  ``T | MISSING = MISSING``: left out, it stays out of the model dump and of the request.
  It is ``pydantic.MISSING`` on pydantic 2.14 and later and
  ``pydantic.experimental.missing_sentinel.MISSING`` on 2.12-2.13 (Semantic Kernel pins
  ``pydantic<2.14``); both are the same object, so generated code works on either.
- Validators for what pydantic's own constraints do not say: :func:`discriminated_by`
  (OpenAPI's ``discriminator`` with its ``mapping``), :func:`unique_items`, :func:`one_of`
  (``enum``/``const`` values that are not ``Literal`` material) and :func:`text` (string
  constraints on a value parsed into another type, or a ``pattern`` pydantic's regex engine
  does not support). Values are compared the way JSON compares them (``1`` is not ``true``).
- :data:`Base64`: ``format: byte``, bytes in Python and base64 text in JSON (pydantic's
  ``Base64Bytes`` would decode the bytes a caller gives it).
- :class:`PackageViews`: a generated plugin carries the function views ``load_openapi`` builds
  for its spec (``views.json``, definitions stored once) and hands them to
  :func:`sktypes.plugin_views` and the kernel, bound to the plugin's methods and typed with the
  generated models. ``plugin_views(Plugin())`` therefore equals ``load_openapi(spec).views``.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import importlib.resources
import inspect
import re
import threading
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import orjson
import pydantic
import pydantic_core
from pydantic_core import core_schema

from sktypes._base64 import Base64
from sktypes.errors import SktypesError
from sktypes.jsondoc import FrozenDict, JsonDocument, freeze
from sktypes.views import FunctionView, ReturnParameterView

# MISSING is pydantic's own object, re-exported explicitly (``import ... as MISSING``) for
# generated code; it is documented in the module docstring, not in ``__all__`` (it is not
# defined here).
if TYPE_CHECKING:  # the one sentinel both import paths give
    from pydantic_core import MISSING as MISSING
else:
    try:
        from pydantic import MISSING as MISSING
    except ImportError:  # pydantic 2.12-2.13
        from pydantic.experimental.missing_sentinel import MISSING as MISSING

__all__ = [
    "VIEWS_FILE",
    "Base64",
    "VIEWS_FORMAT",
    "Binding",
    "Discriminated",
    "PackageViews",
    "basic_auth",
    "discriminated_by",
    "dump_views",
    "load_views",
    "one_of",
    "text",
    "unique_items",
]

VIEWS_FILE = "views.json"
"""The file of a generated package that holds its views."""

VIEWS_FORMAT = "sktypes-views/1"
"""The ``format`` member of that file (a reader refuses others)."""


# --- validators generated models use -------------------------------------------------


def discriminated_by(member: str, mapping: Mapping[str, str] | None = None) -> Discriminated:
    """A discriminator reading the wire member ``member`` (OpenAPI's ``propertyName``).

    The options of the union carry ``Tag(<definition name>)``; ``mapping`` maps member values
    to those names (OpenAPI's ``mapping``); a value it does not list is taken as the name
    itself (OpenAPI's implicit mapping), and a value naming no option is refused. Where the
    member is left out (or is not a string), nothing names an option: the value is matched
    against each option, as the union without its discriminator would (GitHub's ``/user``
    is discriminated by a ``user_view_type`` no option requires). Works on JSON data and on
    model instances (their field with that alias, or an extra member).
    """
    return Discriminated(member, FrozenDict(mapping or {}))


_EACH_OPTION = "(none: each option)"
"""The fallback's tag (no definition name, which the generator's tags are, has parentheses)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Discriminated:
    """What :func:`discriminated_by` returns: ``Annotated`` metadata for a tagged union.

    A pydantic tagged union whose options are the union's tagged options plus one more,
    taken when the member names no option: the plain union of them all.
    """

    member: str
    mapping: Mapping[str, str]

    def tag(self, value: Any) -> str:
        """The tag of ``value``'s option (the fallback's when its member is not a string)."""
        if isinstance(value, Mapping):
            found = value.get(self.member)
        elif isinstance(value, pydantic.BaseModel):
            found = _member(value, self.member)
        else:
            found = None
        if not isinstance(found, str):
            return _EACH_OPTION
        return self.mapping.get(found, found)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: pydantic.GetCoreSchemaHandler
    ) -> pydantic_core.CoreSchema:
        schema = handler(source)
        if schema["type"] != "union":
            return schema  # one option: nothing to tell apart
        choices: dict[str, pydantic_core.CoreSchema] = {}
        for choice in schema["choices"]:
            if not isinstance(choice, tuple):
                raise pydantic.PydanticSchemaGenerationError(
                    f"discriminated_by({self.member!r}): every option needs a Tag"
                )
            option, tag = choice
            choices[str(tag)] = option
        choices[_EACH_OPTION] = core_schema.union_schema(list(choices.values()))
        return core_schema.tagged_union_schema(
            choices,
            self.tag,
            ref=schema.get("ref"),
            metadata=schema.get("metadata"),
            serialization=schema.get("serialization"),
        )

    def __get_pydantic_json_schema__(
        self, schema: pydantic_core.CoreSchema, handler: pydantic.GetJsonSchemaHandler
    ) -> Any:
        """The options' ``oneOf`` (the fallback is no option of its own)."""
        if schema["type"] != "tagged-union":
            return handler(schema)
        options = {k: v for k, v in schema["choices"].items() if k != _EACH_OPTION}
        return handler(core_schema.tagged_union_schema(options, self.tag))


def _member(model: pydantic.BaseModel, member: str) -> Any:
    for name, info in type(model).model_fields.items():
        if (info.alias or name) == member:
            return getattr(model, name)
    extra = model.__pydantic_extra__ or {}
    return extra.get(member)


def _canonical(value: Any) -> bytes:
    """JSON text that tells ``1`` from ``true`` and ignores key order (numbers as numbers)."""
    return orjson.dumps(_jsonish(value), option=orjson.OPT_SORT_KEYS)


def _jsonish(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, float) and value.is_integer():
        return int(value)  # JSON Schema: 1.0 is the integer 1
    if isinstance(value, Mapping):
        return {str(k): _jsonish(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonish(v) for v in value]
    return value


def _unique(value: list[Any]) -> list[Any]:
    seen: set[bytes] = set()
    for item in value:
        key = _canonical(item)
        if key in seen:
            raise ValueError("items must be unique (uniqueItems)")
        seen.add(key)
    return value


unique_items = pydantic.AfterValidator(_unique)
"""``uniqueItems: true``: no two items are the same JSON value."""


def one_of(*values: Any) -> pydantic.AfterValidator:
    """``enum``/``const`` values ``Literal`` cannot hold (floats, arrays, objects)."""
    allowed = {_canonical(v) for v in values}
    shown = ", ".join(orjson.dumps(v).decode() for v in values)

    def check(value: Any) -> Any:
        if _canonical(value) not in allowed:
            raise ValueError(f"must be one of {shown}")
        return value

    return pydantic.AfterValidator(check)


def text(
    *, min_length: int | None = None, max_length: int | None = None, pattern: str | None = None
) -> pydantic.BeforeValidator:
    """String constraints checked on the text before it is parsed into another type.

    For a ``date-time`` with ``maxLength``, or a ``pattern`` pydantic's regex engine cannot
    compile (lookarounds, backreferences): searched with Python's ``re`` like JSON Schema
    validators do. Values that are not strings pass through to the type's own validation.
    """
    compiled = re.compile(pattern) if pattern is not None else None

    def check(value: Any) -> Any:
        if isinstance(value, str):
            length = len(value)
            if min_length is not None and length < min_length:
                raise ValueError(f"must have at least {min_length} characters")
            if max_length is not None and length > max_length:
                raise ValueError(f"must have at most {max_length} characters")
            if compiled is not None and compiled.search(value) is None:
                raise ValueError(f"must match {pattern!r}")
        return value

    return pydantic.BeforeValidator(check)


def basic_auth(username: str | None, password: str | None) -> str:
    """The ``Authorization`` value of HTTP basic authentication (``""``: none given)."""
    if username is None and password is None:
        return ""
    token = base64.b64encode(f"{username or ''}:{password or ''}".encode()).decode("ascii")
    return f"Basic {token}"


# --- views ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Binding:
    """How one view maps onto a generated method.

    Attributes:
        method: the method's attribute name on the plugin class.
        arguments: view parameter name → Python argument name, where they differ.
        features: how the call pages or streams, as recognised from the spec
            (``{"pagination": {...}}``, ``{"stream": {...}}``; view parameter names).
    """

    method: str
    arguments: Mapping[str, str] = dataclasses.field(default_factory=dict)
    features: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def dump_views(
    plugin_name: str, views: list[FunctionView], bindings: list[Binding], *, indent: bool = False
) -> str:
    """Serialize ``views`` with their bindings, every shared ``$defs`` entry written once.

    Each schema's ``$defs`` object is replaced by the list of its names; the definitions go
    to one top-level ``defs`` object. The schemas are written from their frozen values,
    never copied whole.
    """
    defs: dict[str, Any] = {}
    functions = []
    for view, binding in zip(views, bindings, strict=True):
        params = [dataclasses.replace(p, schema=None, type=p.type) for p in view.parameters]
        ret = view.return_parameter
        bare = dataclasses.replace(
            view,
            parameters=tuple(params),
            return_parameter=dataclasses.replace(ret, schema=None, type=ret.type),
        )
        data = bare.to_dict()
        schemas = [*(p.schema for p in view.parameters), ret.schema]
        holders = [*data["parameters"], data["return_parameter"]]
        for holder, schema in zip(holders, schemas, strict=True):
            if schema is not None:
                holder["schema"] = _shared(schema.value, defs)
        entry: dict[str, Any] = {"view": data, "method": binding.method}
        if binding.arguments:
            entry["arguments"] = dict(binding.arguments)
        entry.update(binding.features)
        functions.append(entry)
    document = {
        "format": VIEWS_FORMAT,
        "plugin": plugin_name,
        "functions": functions,
        "defs": dict(sorted(defs.items())),
    }
    option = orjson.OPT_INDENT_2 if indent else 0
    return orjson.dumps(document, option=option, default=_plain).decode() + "\n"


def _shared(schema: Any, defs: dict[str, Any]) -> Any:
    """``schema`` with its ``$defs`` replaced by references into ``defs``.

    Each entry is the definition's name, or ``[name, key]`` when another schema already
    holds that name in ``defs`` (the request and response forms of one component differ
    when it has ``readOnly`` or ``writeOnly`` properties): it is stored as ``name@2``.
    """
    local = schema.get("$defs") if isinstance(schema, Mapping) else None
    if not isinstance(local, Mapping):
        return schema
    names: list[Any] = []
    for name, sub in local.items():
        key, n = name, 1
        while key in defs and defs[key] is not sub and defs[key] != sub:
            n += 1
            key = f"{name}@{n}"
        defs[key] = sub
        names.append(name if key == name else [name, key])
    return {**schema, "$defs": names}


def _plain(value: Any) -> Any:
    """Orjson's fallback: frozen JSON objects are written as objects."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(type(value).__name__)


_FEATURES = ("pagination", "stream")
"""What a views file records per function besides its view and binding."""


def load_views(text: str | bytes) -> tuple[list[FunctionView], list[Binding]]:
    """Read :func:`dump_views` output: the views (no native types yet) and their bindings.

    Every definition is frozen once and shared by the schemas that use it.

    Raises:
        SktypesError: the text is not a views file of this format.
    """
    try:
        document = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise SktypesError(f"not a views file: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != VIEWS_FORMAT:
        raise SktypesError(f"not a views file of format {VIEWS_FORMAT!r}")
    frozen = {name: freeze(sub) for name, sub in document.get("defs", {}).items()}
    views: list[FunctionView] = []
    bindings: list[Binding] = []
    for entry in document.get("functions", ()):
        data = entry["view"]
        for holder in [*data.get("parameters", ()), data.get("return_parameter") or {}]:
            schema = holder.get("schema")
            if isinstance(schema, dict) and isinstance(schema.get("$defs"), list):
                pairs = [(n, n) if isinstance(n, str) else n for n in schema["$defs"]]
                schema["$defs"] = FrozenDict({n: frozen[key] for n, key in pairs})
        views.append(FunctionView.from_dict(data))
        features = {k: entry[k] for k in _FEATURES if k in entry}
        bindings.append(Binding(entry["method"], entry.get("arguments") or {}, features))
    return views, bindings


class PackageViews:
    """The views of a generated plugin class, read once from its package's ``views.json``.

    Set as the class attribute ``__function_views__``: ``plugin.__function_views__()``
    returns the views bound to ``plugin``'s methods (each parameter's and the return's
    ``native_type`` taken from the method's annotations); on the class itself, the views
    hold the plain functions (bind an instance to call them), as ``plugin_views`` does.

    Args:
        package: the generated package (``__package__`` of the module that sets it).
        resource: the file name inside the package.
    """

    def __init__(self, package: str | None, resource: str = VIEWS_FILE) -> None:
        if not package:
            raise SktypesError("PackageViews needs the package of a generated plugin")
        self._package = package
        self._resource = resource
        self._lock = threading.Lock()
        self._loaded: tuple[list[FunctionView], list[Binding]] | None = None
        self._typed: dict[type, list[_Typed]] = {}

    def __get__(self, instance: object, owner: type) -> Callable[[], list[FunctionView]]:
        return functools.partial(self._views, instance, owner)

    def _load(self) -> tuple[list[FunctionView], list[Binding]]:
        if self._loaded is None:
            with self._lock:
                if self._loaded is None:
                    files = importlib.resources.files(self._package)
                    self._loaded = load_views((files / self._resource).read_bytes())
        return self._loaded

    def return_schema(self, name: str) -> JsonDocument | None:
        """The declared response schema of the function called ``name`` (``None``: none).

        What the runtime checks a response against for drift (:mod:`sktypes.remote`).
        """
        for view in self._load()[0]:
            if view.name == name:
                return view.return_parameter.schema
        return None

    def _typed_views(self, owner: type) -> list[_Typed]:
        found = self._typed.get(owner)
        if found is None:
            views, bindings = self._load()
            found = [_typed(view, b, owner) for view, b in zip(views, bindings, strict=True)]
            self._typed[owner] = found
        return found

    def _views(self, instance: object, owner: type) -> list[FunctionView]:
        out = []
        for typed in self._typed_views(owner):
            target = getattr(owner if instance is None else instance, typed.binding.method)
            if typed.binding.arguments or typed.absent_if_none:
                target = _calling(target, typed.binding.arguments, typed.absent_if_none)
            out.append(dataclasses.replace(typed.view, native_function=target))
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class _Typed:
    """A view with its native types, how it binds, and which ``None`` means "not given"."""

    view: FunctionView
    binding: Binding
    absent_if_none: frozenset[str]


def _typed(view: FunctionView, binding: Binding, owner: type) -> _Typed:
    """``view`` with the native types of the method's annotations."""
    method = getattr(owner, binding.method)
    hints = typing.get_type_hints(method, include_extras=True)
    params = []
    absent = set()
    for p in view.parameters:
        hint = hints.get(binding.arguments.get(p.name, p.name))
        params.append(dataclasses.replace(p, native_type=hint))
        if not p.is_required and not _admits_none(hint):
            absent.add(p.name)
    ret: ReturnParameterView = view.return_parameter
    if ret.schema is not None and "return" in hints:
        native = hints["return"]
        if ret.is_streaming and typing.get_args(native):  # AsyncIterator[T]: its items are T
            native = typing.get_args(native)[0]
        ret = dataclasses.replace(ret, native_type=native)
    typed = dataclasses.replace(view, parameters=tuple(params), return_parameter=ret)
    return _Typed(typed, binding, frozenset(absent))


def _admits_none(hint: Any) -> bool:
    if hint is None or hint is type(None) or hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        return _admits_none(typing.get_args(hint)[0])
    if origin is typing.Union or origin is types.UnionType:
        return any(_admits_none(a) for a in typing.get_args(hint))
    return False


def _calling(
    method: Callable[..., Any], names: Mapping[str, str], absent_if_none: frozenset[str]
) -> Callable[..., Any]:
    """``method`` called with the view's parameter names (``X-Request-Id`` → ``x_request_id``).

    A ``None`` for an optional parameter that cannot be null is what a caller that fills
    in view defaults (``default_value`` is ``None`` when the spec gives none) sends for "not
    given": it is left out, so the method's ``MISSING`` default applies.
    """

    def arguments_of(arguments: dict[str, Any]) -> dict[str, Any]:
        return {
            names.get(k, k): v
            for k, v in arguments.items()
            if not (v is None and k in absent_if_none)
        }

    if inspect.iscoroutinefunction(method):

        async def call_async(*args: Any, **arguments: Any) -> Any:
            return await method(*args, **arguments_of(arguments))

        call_async.__wrapped__ = method  # type: ignore[attr-defined]
        return call_async

    def call(*args: Any, **arguments: Any) -> Any:
        return method(*args, **arguments_of(arguments))

    call.__wrapped__ = method  # type: ignore[attr-defined]
    return call
