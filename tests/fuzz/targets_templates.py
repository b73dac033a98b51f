"""Prompt templates (issues 13 and 23): any text in any syntax, loops, built values, attributes.

- ``template_sk``, ``template_jinja2``, ``template_handlebars``: any template text, rendered
  with and without a kernel, over arguments that include a generator and a plain object with
  a secret: text or a :class:`~sktypes.errors.TemplateError`, never another exception; the
  output within :attr:`TemplateLimits.max_output`; no Python compiled or executed (Semantic
  Kernel syntax and Handlebars: an audit hook watches; Jinja2 compiles its own code from the
  template's syntax tree); the secret never printed.
- ``template_budget``: nested loops and values built inside them (a small grammar per
  engine) under a small :class:`TemplateLimits`: every render ends within the target's time
  limit, by rendering or by a TemplateError naming a limit.
- ``template_attributes``: a path of attributes from a value a template may be given (a
  generator, a coroutine, a function, a class, a module, an exception, a model...), names
  drawn from the catalogue of objects reachable from those values
  (``tests/template_escapes.py``), in every spelling each engine has: nothing but data is
  ever printed (no frame, module, function, class... and not the secret).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from hypothesis import strategies as st

from sktypes.errors import TemplateError
from sktypes.kernel import Kernel
from sktypes.templates import PromptTemplateConfig, TemplateLimits, create_prompt_template
from tests.audit_util import no_code_runs
from tests.fuzz._inputs import mutated
from tests.fuzz._registry import Finding, target
from tests.template_escapes import (
    CANARY,
    ESCAPES,
    callable_by_design,
    catalogue,
    escape_templates,
    printed_leak,
    render_path,
    roots,
)

LIMITS = TemplateLimits(max_output=100_000, max_depth=20, max_steps=200_000)

TOKENS = {
    "semantic-kernel": [
        "{{", "}}", "$", "'", '"', "\\", " ", "=", ".", "p.echo", "p.inc", "p.boom", "$a",
        "$n", "$xs", "$gen", "$obj", "name=", "{{$a}}", "{{p.echo $a}}", "{{p.inc n='4'}}",
        "{{$gen.gi_frame}}", "x", "\n",
    ],
    "jinja2": [
        "{{", "}}", "{%", "%}", "{#", "#}", "(", ")", "[", "]", "|", "~", "'", '"', " ", ".",
        "=", "*", "**", "%", "+", "p_echo", "p_inc", "p_boom", "a", "n", "xs", "gen", "obj",
        "for", "in", "if", "endfor", "endif", "set", "range(", "upper", "join", "9", "0",
        "\n", "{% for i in xs %}", "{% endfor %}", "{% for i in range(100) %}", "{{ p_echo(a) }}",
        "{{ a * n }}", "__class__", "gi_frame", "f_globals", "api_key", "|attr('gi_frame')",
        "{% set a = a ~ a %}", "{% macro m() %}", "{% endmacro %}", "loop(", "recursive",
        ".replace(", ".join(", "|sum", "|batch(", "|tojson(indent=",
    ],
    "handlebars": [
        "{{", "}}", "{{{", "}}}", "{{#", "{{/", "{{^", "{{else}}", "{{!", "{{>", "{{&", "~",
        "(", ")", "[", "]", "'", '"', "\\", " ", ".", "/", "../", "@index", "@key", "@root",
        "this", "=", "each", "if", "with", "unless", "lookup", "concat", "p-echo", "p-inc",
        "p_boom", "a", "n", "xs", "gen", "obj", "s", "\n", "{{#each xs}}", "{{/each}}",
        "{{#each @root.s}}", "{{p-echo a}}", "{{a.[x'\ny]}}", "{{gen.gi_frame.f_globals}}",
        "{{obj.api_key}}", "(concat this this)", "{{#with (concat a a)}}", "{{/with}}",
    ],
}  # fmt: skip
FORMATS = {"template_sk": "semantic-kernel", "template_jinja2": "jinja2"}
FORMATS["template_handlebars"] = "handlebars"


def _kernel() -> Kernel:
    def echo(input: str) -> str:
        """Echo."""
        return input

    def inc(n: int) -> int:
        """Add one."""
        return n + 1

    async def boom(a: str = "") -> str:
        """Fail."""
        raise RuntimeError("boom")

    built = Kernel()
    for fn in (echo, inc, boom):
        built.add_function(fn, "p")
    # The first call of each function resolves its annotations (strings here, so
    # ``typing.get_type_hints`` compiles them): this module's code, not template text, so it
    # happens before any template is watched.
    for name, args in (("echo", {"input": "x"}), ("inc", {"n": 1}), ("boom", {})):
        with contextlib.suppress(Exception):  # boom raises by design
            asyncio.run(built.invoke(built.get_function(name, "p"), args))
    return built


KERNEL = _kernel()


def _arguments() -> dict[str, Any]:
    values = roots()
    return {
        "a": "<x>",
        "n": 3,
        "xs": [1, "b"],
        "s": "abcdefghij",
        "gen": values["gen"],
        "obj": values["obj"],
    }


def check_template(fmt: str, text: str, with_kernel: bool, limits: TemplateLimits = LIMITS) -> str:
    """Create and render ``text``: the rendered text, or ``""`` when it was refused."""

    def run() -> object:
        try:
            config = PromptTemplateConfig(template=text, template_format=fmt)
            template = create_prompt_template(config, limits=limits)
            return asyncio.run(template.render(KERNEL if with_kernel else None, _arguments()))
        except TemplateError as exc:
            return exc

    if fmt == "jinja2":  # Jinja2 compiles its own code from the parsed template
        result = run()
    else:
        with no_code_runs():
            result = run()
    if isinstance(result, TemplateError):
        return ""
    if not isinstance(result, str):
        raise Finding(f"rendering gave {type(result).__name__}, not text or a TemplateError")
    if len(result) > limits.max_output:
        raise Finding(f"{len(result)} characters rendered past max_output={limits.max_output}")
    if CANARY in result:
        raise Finding("a secret reached through an attribute was rendered")
    return result


def _templates(fmt: str) -> st.SearchStrategy[bytes]:
    tokens = st.lists(st.sampled_from(TOKENS[fmt]) | st.text(max_size=3), max_size=25)
    text = tokens.map("".join) | st.text(max_size=60)
    flags = st.sampled_from([b"\x00", b"\xff"])  # the first byte: with a kernel or not
    raw = st.tuples(flags, text.map(lambda t: t.encode("utf-8", "surrogatepass")))
    return raw.map(b"".join) | mutated(raw.map(b"".join))


_SYNTAX_SEEDS = (  # found by make fuzz: Jinja2's parser recursed past Python's stack limit
    b"\x00" + b"{" * 600,
    b"\x00{{" + b"(" * 3000,
    b"\xff{{" + b"[" * 3000,
)


def _syntax_target(name: str) -> None:
    fmt = FORMATS[name]

    @target(name, _templates(fmt), seeds=_SYNTAX_SEEDS, timeout=15.0)
    def one(data: bytes) -> None:
        """Template text: rendered within the limits, or a TemplateError."""
        text = data[1:].decode("utf-8", errors="replace")
        check_template(fmt, text, with_kernel=data[:1] > b"\x7f")

    one.__doc__ = f"{fmt} template text: rendered within the limits, or a TemplateError."


for _name in FORMATS:
    _syntax_target(_name)


# -- work and built values: nested loops under a small budget --------------------------------

# 20,000 steps: a budget that charges every iteration stops any render within a few seconds
# even under atheris' instrumentation (50,000 took 19 s there on a loaded machine, 1.2 s
# without it: the seed below); work the budget does not charge still runs on and is found
BUDGET_LIMITS = TemplateLimits(max_output=20_000, max_depth=20, max_steps=20_000)
_BUDGET_SEEDS = (
    b"\x01{% for i in range(100) %}{% for c in s %}{% for y in range(95) recursive %}"
    b"{% for c in s %}{% for y in range(10) recursive %}{% for y in rangive %}{% for c in s %}"
    b"{{wath (a * 8)|length }}" + b"{% endfor %}" * 7,
)
_LOOPS = {
    "handlebars": (["{{#each @root.s}}", "{{#each @root.xs}}", "{{#with (concat a a)}}",
                    "{{#each (concat this this)}}", "{{#if this}}", "{{#each this}}"],
                   ["{{/each}}", "{{/each}}", "{{/with}}", "{{/each}}", "{{/if}}", "{{/each}}"],
                   ["", "{{this}}", "{{concat this this}}", "{{equals this a}}", "{{@index}}",
                    "{{lookup xs 0}}", "{{json xs}}"]),
    "jinja2": (["{% for i in range(100) %}", "{% for c in s %}", "{% for x in xs * 50 %}",
                "{% for y in range(10) recursive %}", "{% if a ~ a %}", "{% set a = a ~ a %}"],
               ["{% endfor %}", "{% endfor %}", "{% endfor %}", "{% endfor %}", "{% endif %}", ""],
               ["", "{{ i }}", "{{ (a * 9)|length }}", "{{ a.replace('x', a) }}",
                "{{ (xs * 9)|join(a) }}", "{{ loop(range(9)) if loop.depth < 4 else '' }}",
                "{{ s in a }}", "{{ a[1:] }}"]),
    "semantic-kernel": (["{{$a}}"], [""], ["", "{{p.echo $a}}"]),
}  # fmt: skip
_ENGINES = sorted(_LOOPS)


@st.composite
def _nested(draw: st.DrawFn) -> bytes:
    engine = draw(st.sampled_from(_ENGINES))
    opens, closes, bodies = _LOOPS[engine]
    levels = draw(st.lists(st.integers(0, len(opens) - 1), max_size=8))
    text = "".join(opens[i] for i in levels) + draw(st.sampled_from(bodies))
    text += "".join(closes[i] for i in reversed(levels))
    return bytes([_ENGINES.index(engine)]) + text.encode()


@target("template_budget", _nested() | mutated(_nested()), seeds=_BUDGET_SEEDS, timeout=15.0)
def template_budget(data: bytes) -> None:
    """Nested loops and built values: rendered, or stopped by a limit, in bounded time."""
    if not data:
        return
    fmt = _ENGINES[data[0] % len(_ENGINES)]
    check_template(fmt, data[1:].decode("utf-8", "replace"), True, BUDGET_LIMITS)


# -- the attribute policy: paths from the catalogue of reachable objects ---------------------


def _names() -> list[str]:
    found = {part for _, path in ESCAPES for part in path.split(".")}
    for _, path in catalogue(roots(), depth=2):
        found.update(path.split("."))
    return sorted(found)


NAMES = _names()
ROOTS = sorted(roots())
SPELLINGS = 5


@st.composite
def _paths(draw: st.DrawFn) -> bytes:
    engine = draw(st.sampled_from(["handlebars", "jinja2"]))
    spelling = draw(st.integers(0, SPELLINGS - 1))
    root = draw(st.sampled_from(ROOTS))
    path = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=5))
    return f"{engine}\n{spelling}\n{root}\n{'.'.join(path)}".encode()


_ATTRIBUTE_SEEDS = tuple(
    f"{engine}\n{spelling}\n{root}\n{path}".encode()
    for root, path in ESCAPES
    for engine in ("handlebars", "jinja2")
    for spelling in (0, 1)
)


@target("template_attributes", _paths() | mutated(_paths()), seeds=_ATTRIBUTE_SEEDS)
def template_attributes(data: bytes) -> None:
    """An attribute path from a value: only data is printed, never what lies behind it."""
    fields = data.decode("utf-8", "replace").split("\n")
    if len(fields) < 4:
        return
    engine = "jinja2" if fields[0] == "jinja2" else "handlebars"
    spelling = int(fields[1]) % SPELLINGS if fields[1].isdigit() else 0
    root = fields[2] if fields[2] in ROOTS else "gen"
    path = ".".join(p for p in fields[3].split(".") if p.isidentifier()) or "gi_frame"
    if engine == "jinja2" and callable_by_design(roots(), root, path):
        return  # ``text.upper``: a method of a built-in value, which Jinja2 calls
    template = escape_templates(engine, root, path)[spelling]
    out = render_path(engine, template, roots())
    if out is not None:
        leak = printed_leak(out)
        if leak is not None:
            raise Finding(f"{template!r} printed {leak!r}: {out[:120]!r}")


__all__ = ["check_template", "template_attributes", "template_budget"]
