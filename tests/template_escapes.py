"""Known escape paths out of a template's data, and a catalogue of objects reachable from values.

A template reads data. Any chain of attributes that reaches a frame, code, a module, a
function, a generator or a class leads on to a module's globals, ``sys.modules`` and
``os.environ``: a template could copy secrets into the prompt. :data:`ESCAPES` lists the
known paths (Jinja2's sandbox documents most of them); :func:`catalogue` walks the
attributes of common values — what a template may be given — with plain ``getattr``, and
yields every path that reaches such an object. The tests and the ``template_attributes``
fuzz target render those paths in every engine: each must print nothing (or fail), never the
object or a secret.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import types
import warnings
from collections import namedtuple
from collections.abc import AsyncIterator, Iterator
from typing import Any

from pydantic import BaseModel

from sktypes.errors import TemplateError
from sktypes.templates import PromptTemplateConfig, TemplateLimits, create_prompt_template
from sktypes.templates._attributes import DATA_METHODS

__all__ = [
    "CANARY",
    "DANGEROUS",
    "ENGINE_NAMES",
    "ESCAPES",
    "LEAKS",
    "callable_by_design",
    "catalogue",
    "engine_escape_templates",
    "escape_templates",
    "printed_leak",
    "render_path",
    "roots",
]

CANARY = "SKTYPES-CANARY-c4f1e2"
"""A secret in ``os.environ`` and in this module's globals: no template may print it."""
os.environ["SKTYPES_TEST_CANARY"] = CANARY
SECRET_GLOBAL = CANARY

LEAKS = ("<frame", "<module", "<code", "<function", "<generator", "<coroutine", "<async_gen",
         "<built-in", "<bound method", "<class", "<cell", "<traceback", "environ(",
         "<method", "<slot wrapper", "<member", "<getset", "mappingproxy", CANARY)  # fmt: skip
"""Text that only an escaped object (or the secret) prints."""

DANGEROUS: tuple[type, ...] = (
    types.FrameType,
    types.CodeType,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.GeneratorType,
    types.CoroutineType,
    types.AsyncGeneratorType,
    types.TracebackType,
    types.CellType,
    types.MappingProxyType,
    types.WrapperDescriptorType,
    types.MethodWrapperType,
    types.MethodDescriptorType,
    types.GetSetDescriptorType,
    types.MemberDescriptorType,
    type,
)
"""Kinds of objects a template must never reach through an attribute."""


class Person(BaseModel):
    name: str
    tags: list[str] = []


@dataclasses.dataclass
class Point:
    x: int
    y: int


Pair = namedtuple("Pair", ["left", "right"])


class Service:
    """A plain object: its attributes are not data (a client, a key)."""

    def __init__(self) -> None:
        self.api_key = CANARY
        self.name = "svc"

    def call(self) -> str:
        return CANARY


def _generator() -> Iterator[int]:
    yield 1


async def _coroutine() -> int:
    return 1


async def _async_generator() -> AsyncIterator[int]:
    yield 1


def _failure() -> BaseException:
    try:
        raise ValueError("boom")
    except ValueError as exc:
        return exc


def roots() -> dict[str, Any]:
    """Values a template may be given (fresh ones: generators are consumed by nothing)."""
    coroutine = _coroutine()
    coroutine.close()  # never awaited: closed, so no warning; its attributes stay
    return {
        "gen": _generator(),
        "coro": coroutine,
        "agen": _async_generator(),
        "fn": _generator,
        "lam": lambda: CANARY,
        "method": Service().call,
        "builtin": len,
        "cls": Service,
        "mod": os,
        "exc": _failure(),
        "obj": Service(),
        "text": "abc",
        "number": 7,
        "person": Person(name="ann", tags=["a"]),
        "point": Point(1, 2),
        "pair": Pair("l", "r"),
        "mapping": {"k": "v"},
        "items": ["a", "b"],
    }


ESCAPES: list[tuple[str, str]] = [
    ("gen", "gi_frame.f_globals.os.environ"),
    ("gen", "gi_frame.f_globals.SECRET_GLOBAL"),
    ("gen", "gi_frame.f_back"),
    ("gen", "gi_frame.f_locals"),
    ("gen", "gi_frame.f_builtins"),
    ("gen", "gi_code.co_consts"),
    ("gen", "gi_yieldfrom"),
    ("coro", "cr_frame.f_globals"),
    ("coro", "cr_code.co_names"),
    ("coro", "cr_await"),
    ("agen", "ag_frame.f_globals.os.environ"),
    ("agen", "ag_code"),
    ("fn", "__globals__.os.environ"),
    ("fn", "func_globals"),
    ("fn", "__code__"),
    ("fn", "__closure__"),
    ("fn", "__builtins__"),
    ("fn", "__module__"),
    ("lam", "__globals__.SECRET_GLOBAL"),
    ("method", "__self__.api_key"),
    ("method", "__func__.__globals__"),
    ("method", "__globals__"),
    ("builtin", "__self__"),
    ("cls", "mro"),
    ("cls", "__mro__"),
    ("cls", "__subclasses__"),
    ("cls", "__init__.__globals__"),
    ("cls", "__dict__"),
    ("cls", "call"),
    ("mod", "environ"),
    ("mod", "sys.modules"),
    ("mod", "path.os.environ"),
    ("exc", "__traceback__.tb_frame.f_globals"),
    ("exc", "__traceback__.tb_next"),
    ("exc", "__context__"),
    ("exc", "args"),
    ("exc", "with_traceback"),
    ("obj", "api_key"),
    ("obj", "call"),
    ("obj", "__class__.__init__.__globals__"),
    ("obj", "__dict__"),
    ("obj", "__reduce_ex__"),
    ("text", "__class__.__mro__"),
    ("text", "__class__.__base__.__subclasses__"),
    ("text", "format"),
    ("text", "format_map"),
    ("text", "translate"),
    ("number", "to_bytes"),
    ("number", "__class__"),
    ("person", "model_config"),
    ("person", "model_fields"),
    ("person", "model_dump"),
    ("person", "__pydantic_validator__"),
    ("person", "__class__.model_fields"),
    ("point", "__dataclass_fields__"),
    ("point", "__class__"),
    ("pair", "_asdict"),
    ("pair", "_make.__globals__"),
    ("mapping", "clear"),
    ("mapping", "fromkeys"),
    ("items", "append"),
]
"""``(root, path)``: known ways out of a template's data, each of which must print nothing."""


ENGINE_NAMES: list[str] = [
    "__globals__", "__init__.__globals__", "__call__.__globals__", "func_globals", "__code__",
    "__closure__", "__builtins__", "__module__", "__self__", "__func__", "__wrapped__",
    "__dict__", "__class__", "__class__.__mro__", "mro", "__class__.__base__.__subclasses__",
    "__subclasses__", "__init__", "__reduce__", "__getattribute__", "__import__", "__loader__",
    "__spec__", "gi_frame", "f_globals", "environment", "_environment", "_context", "_func",
    "_TemplateReference__context", "_Namespace__attrs", "keys", "values", "get", "pop",
    "setdefault", "update", "clear", "copy", "constructor", "prototype",
]  # fmt: skip
"""Attribute names tried on each engine's own objects (the classic template-injection paths)."""

_JINJA2_OWN = {  # each engine global and object a template can name, and how it is named
    "lipsum": "{0}", "cycler": "{0}", "joiner": "{0}", "namespace": "{0}", "range": "{0}",
    "self": "{0}", "loop": "{{% for _ in [1] %}}{0}{{% endfor %}}",
    "m": "{{% macro m() %}}x{{% endmacro %}}{0}",
    "varargs": "{{% macro m() %}}{0}{{% endmacro %}}{{{{ m() }}}}",
    "caller": "{{% macro m() %}}{{{{ caller() }}}}{{% endmacro %}}"
    "{{% call m() %}}{0}{{% endcall %}}",
    "ns": "{{% set ns = namespace(a=1) %}}{0}", "cyc": "{{% set cyc = cycler(1) %}}{0}",
    "jn": "{{% set jn = joiner() %}}{0}",
}  # fmt: skip
_HANDLEBARS_OWN = {  # the context itself, however a template names it
    "this": "{0}", "@root": "{0}", "../this": "{{{{#with person}}}}{0}{{{{/with}}}}",
    "@root.mapping": "{0}", "@root.person": "{0}",
}  # fmt: skip


def engine_escape_templates(fmt: str) -> Iterator[str]:
    """Templates following :data:`ENGINE_NAMES` from the engine's own objects, every spelling.

    Jinja2: its globals (``lipsum``, ``cycler``... ``self``), ``loop``, macros, ``caller``,
    ``varargs``, namespace and cycler objects, as ``.name``, ``|attr('name')`` and
    ``['name']``; Handlebars: ``this``, ``@root``, ``../`` and the context's entries, as
    ``.name``, ``lookup`` and ``#with``. Each must print nothing (or be refused).
    """
    for name in ENGINE_NAMES:
        parts = name.split(".")
        if fmt == "jinja2":
            for own, wrap in _JINJA2_OWN.items():
                for expression in (
                    f"{own}.{name}",
                    own + "".join(f"|attr({p!r})" for p in parts),
                    own + "".join(f"[{p!r}]" for p in parts),
                ):
                    yield wrap.format(f"{{{{ {expression} }}}}")
        else:
            for own, wrap in _HANDLEBARS_OWN.items():
                head = ".".join([own, *parts[:-1]])
                for expression in (
                    f"{{{{{own}.{name}}}}}",
                    f'{{{{lookup {head} "{parts[-1]}"}}}}',
                    f"{{{{#with {head}}}}}{{{{{parts[-1]}}}}}{{{{/with}}}}",
                ):
                    yield wrap.format(expression)


def escape_templates(fmt: str, root: str, path: str) -> list[str]:
    """Templates that follow ``path`` from ``root`` in engine ``fmt``, in several spellings."""
    parts = path.split(".")
    if fmt == "handlebars":
        last = parts[-1]
        head = ".".join([root, *parts[:-1]])
        return [
            f"{{{{{root}.{path}}}}}",
            f"{{{{#with {head}}}}}{{{{{last}}}}}{{{{/with}}}}",
            f'{{{{lookup {head} "{last}"}}}}',
            f"{{{{#each {root}.{path}}}}}{{{{@key}}}}={{{{this}}}};{{{{/each}}}}",
            f"{{{{#{root}.{path}}}}}{{{{this}}}}{{{{/{root}.{path}}}}}",
        ]
    if fmt == "jinja2":
        attrs = "".join(f"|attr({p!r})" for p in parts)
        items = "".join(f"[{p!r}]" for p in parts)
        return [
            f"{{{{ {root}.{path} }}}}",
            f"{{{{ {root}{attrs} }}}}",
            f"{{{{ {root}{items} }}}}",
            f"{{{{ [{root}]|map(attribute={path!r})|list }}}}",
            f"{{% for k in {root}.{path} %}}{{{{ k }}}}{{% endfor %}}",
        ]
    return [f"{{{{${root}.{path}}}}}"]  # the SK syntax has no attributes: a syntax error


def render_path(fmt: str, template: str, values: dict[str, Any]) -> str | None:
    """The rendered text, or ``None`` when the template was refused (a TemplateError)."""
    config = PromptTemplateConfig(template=template, template_format=fmt)
    try:
        created = create_prompt_template(config, limits=TemplateLimits(max_steps=100_000))
        return asyncio.run(created.render(None, values))
    except TemplateError:
        return None


_SKIP = frozenset({"__abstractmethods__"})  # getattr raises on type itself


def _names(value: Any) -> list[str]:
    try:
        names = dir(value)
    except Exception:
        return []
    return sorted(n for n in names if n not in _SKIP)


def catalogue(
    values: dict[str, Any], depth: int = 3, width: int = 400
) -> Iterator[tuple[str, str]]:
    """``(root, path)`` pairs that reach a dangerous object from a value, breadth first.

    Plain ``getattr`` (what an engine without a policy would do), at most ``depth``
    attributes deep and ``width`` objects expanded per level; every path whose last step
    lands on a :data:`DANGEROUS` object (or a module's globals) is yielded once per object.
    """
    seen: set[int] = set()
    level: list[tuple[str, str, Any]] = [(root, "", value) for root, value in values.items()]
    with warnings.catch_warnings():  # deprecated attributes (pydantic's) warn when read
        warnings.simplefilter("ignore")
        yield from _walk(level, seen, depth, width)


def _walk(
    level: list[tuple[str, str, Any]], seen: set[int], depth: int, width: int
) -> Iterator[tuple[str, str]]:
    for _ in range(depth):
        following: list[tuple[str, str, Any]] = []
        for root, path, value in level[:width]:
            for name in _names(value):
                try:
                    found = getattr(value, name)
                except Exception:
                    continue
                where = f"{path}.{name}" if path else name
                if id(found) in seen:
                    continue
                seen.add(id(found))
                if isinstance(found, DANGEROUS) or _is_globals(found):
                    yield root, where
                following.append((root, where, found))
        level = following


def _is_globals(value: Any) -> bool:
    return isinstance(value, dict) and "__builtins__" in value


def printed_leak(text: str) -> str | None:
    """The first of :data:`LEAKS` in ``text``, if any."""
    return next((leak for leak in LEAKS if leak in text), None)


def callable_by_design(values: dict[str, Any], root: str, path: str) -> bool:
    """Whether ``root.path`` ends on a method Jinja2 calls by design (``text.upper``).

    The methods of built-in values in ``DATA_METHODS`` are readable in Jinja2 (to be
    called); printed uncalled they show their ``repr``. Walked as Jinja2 reads a path
    (attribute, else item).
    """
    value: Any = values.get(root)
    parts = path.split(".")
    for part in parts[:-1]:
        try:
            value = getattr(value, part)
        except Exception:
            try:
                value = value[part]
            except Exception:
                return False
    owner_kinds = [kind for kind in DATA_METHODS if isinstance(value, kind)]
    return any(parts[-1] in DATA_METHODS[kind] for kind in owner_kinds)
