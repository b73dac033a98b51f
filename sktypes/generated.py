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

import dataclasses
import functools
import importlib.resources
import inspect
import threading
import types
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from sktypes._base64 import Base64
from sktypes._model_checks import (
    Checked,
    Discriminated,
    basic_auth,
    discriminated_by,
    one_of,
    text,
    unique_items,
)
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
    "Checked",
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


# --- views ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class Binding:
    """One function of a generated plugin: its view and the method it is bound to.

    Attributes:
        view: the function's view (as ``load_openapi`` builds it for the operation).
        method: the method's attribute name on the plugin class.
        arguments: view parameter name → Python argument name, where they differ.
        features: how the call pages or streams, as recognised from the spec
            (``{"pagination": {...}}``, ``{"stream": {...}}``; view parameter names).
    """

    view: FunctionView
    method: str
    arguments: Mapping[str, str] = dataclasses.field(default_factory=dict)
    features: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def dump_views(
    plugin_name: str,
    bindings: list[Binding],
    *,
    indent: bool = False,
    spec: Mapping[str, Any] | None = None,
) -> str:
    """Serialize the bindings' views and methods, every shared ``$defs`` entry written once.

    ``spec`` is what the file records of the spec itself (its ``spec`` member).

    Each schema's ``$defs`` object is replaced by the list of its names; the definitions go
    to one top-level ``defs`` object. The schemas are written from their frozen values,
    never copied whole.
    """
    defs: dict[str, Any] = {}
    functions = []
    for binding in bindings:
        view = binding.view
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
        **({"spec": spec} if spec is not None else {}),
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


_FEATURES = ("pagination", "stream", "operation")
"""What a views file records per function besides its view and binding."""


def load_views(text: str | bytes) -> tuple[list[Binding], Mapping[str, Any]]:
    """Read :func:`dump_views` output: the bindings, and the spec record.

    Each binding holds its view (no native types yet) and its method; the spec record is
    empty for a file that records none.

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
    bindings: list[Binding] = []
    for entry in document.get("functions", ()):
        data = entry["view"]
        for holder in [*data.get("parameters", ()), data.get("return_parameter") or {}]:
            schema = holder.get("schema")
            if isinstance(schema, dict) and isinstance(schema.get("$defs"), list):
                pairs = [(n, n) if isinstance(n, str) else n for n in schema["$defs"]]
                schema["$defs"] = FrozenDict({n: frozen[key] for n, key in pairs})
        view = FunctionView.from_dict(data)
        features = {k: entry[k] for k in _FEATURES if k in entry}
        bindings.append(Binding(view, entry["method"], entry.get("arguments") or {}, features))
    return bindings, document.get("spec") or {}


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
        self._loaded: tuple[list[Binding], Mapping[str, Any]] | None = None
        self._typed: dict[type, list[_Typed]] = {}

    def __get__(self, instance: object, owner: type) -> Callable[[], list[FunctionView]]:
        return functools.partial(self._views, instance, owner)

    def recorded(self) -> tuple[list[Binding], Mapping[str, Any]]:
        """The file as :func:`load_views` reads it (read once; what ``sktypes serve`` uses)."""
        return self._load()

    def _load(self) -> tuple[list[Binding], Mapping[str, Any]]:
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
        for binding in self._load()[0]:
            if binding.view.name == name:
                return binding.view.return_parameter.schema
        return None

    def _typed_views(self, owner: type) -> list[_Typed]:
        found = self._typed.get(owner)
        if found is None:
            found = [_typed(binding, owner) for binding in self._load()[0]]
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


def _typed(binding: Binding, owner: type) -> _Typed:
    """The binding's view with the native types of its method's annotations."""
    view = binding.view
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
