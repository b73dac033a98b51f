"""The Handlebars engine: pybars3's language, interpreted — template text never becomes code.

- Security (issue 13, item 1): pybars3 pastes segment literals such as ``{{a.[…]}}`` into
  the Python source it generates and executes; a template created here runs nothing. An
  audit hook proves no ``compile``/``exec`` happens while templates are created or rendered,
  for hand-written payloads and for arbitrary text (hypothesis).
- Semantics: a differential test renders templates drawn from the language's grammar with
  pybars3 (the test oracle, with sktypes' printing rules patched in) and with sktypes.
- Unit tests per rule, and the places where sktypes deliberately differs from pybars3.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pybars
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pybars import _compiler as pybars_compiler

from sktypes.errors import SktypesError, TemplateError
from sktypes.kernel import Kernel
from sktypes.templates import (
    HandlebarsPromptTemplateFactory,
    InputVariable,
    PromptTemplateConfig,
    TemplateLimits,
    create_prompt_template,
)
from sktypes.templates._safety import SPECIAL, to_text
from tests.audit_util import no_code_runs


def render(template: str, kernel: Any = None, **arguments: Any) -> str:
    config = PromptTemplateConfig(template=template, template_format="handlebars")
    return asyncio.run(create_prompt_template(config).render(kernel, arguments))


def outcome(template: str, **arguments: Any) -> str:
    try:
        return render(template, **arguments)
    except TemplateError:
        return "error"


CANARY: list[str] = []

PAYLOADS = [
    "{{a.[x')\n__import__('tests.test_templates_handlebars').test_templates_handlebars"
    ".CANARY.append('segment')\ndef f():#]}}",
    "{{a.[b') or __import__('tests.test_templates_handlebars').test_templates_handlebars"
    ".CANARY.append('inline') or ('c]}}",
    "{{p-f ([x\"+__import__('os').getcwd()+\"])}}",
    '{{> a\\"+__import__("os").getcwd()+\\"}}',
    "{{#each [x'\n]}}{{/each}}",
    "{{{{raw}}}}'''\n\"\"\"{{{{/raw}}}}",
]


def test_pybars3_runs_the_segment_literal_payload_at_creation() -> None:
    """The reproducer: the old engine (pybars3's compiler) executes template text."""
    CANARY.clear()
    with contextlib.suppress(Exception):  # whatever it does afterwards, the payload ran first
        pybars.Compiler().compile(PAYLOADS[0])
    assert CANARY == ["segment"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_no_template_text_ever_becomes_code(payload: str) -> None:
    CANARY.clear()
    with no_code_runs():
        config = PromptTemplateConfig(template=payload, template_format="handlebars")
        try:
            template = create_prompt_template(config)
            asyncio.run(template.render(None, {"a": {"x": 1}}))
        except TemplateError:
            pass
    assert CANARY == []


FUZZ_ALPHABET = "{}#/^&>!~()[]'\"\\ .=@-_ab\n\r\t0"


@given(st.text(alphabet=FUZZ_ALPHABET, max_size=40) | st.text(max_size=40))
def test_arbitrary_text_renders_or_raises_a_template_error_and_runs_no_code(text: str) -> None:
    result: object
    with no_code_runs():
        try:
            config = PromptTemplateConfig(template=text, template_format="handlebars")
            result = asyncio.run(create_prompt_template(config).render(None, {"a": [1]}))
        except SktypesError as exc:
            result = exc
    assert isinstance(result, (str, TemplateError))


# --- the differential test against pybars3 --------------------------------------------------

DATA: dict[str, Any] = {
    "a": "A",
    "b": "bee",
    "xs": ["x1", "x2"],
    "ys": [{"a": "ya", "b": 1}, {"a": "yb"}],
    "d": {"a": "da", "k2": "v"},
    "n": 0,
    "m": 7,
    "t": True,
    "f": False,
    "s": "",
    "e": [],
    "o": {"a": {"b": "deep"}, "xs": [1, 2]},
}
NAMES = [*DATA, "z"]


def _pybars_prepare(value: Any, should_escape: bool) -> Any:
    """sktypes' printing rules, so that the comparison is about the language."""
    if value is None:
        return ""
    if type(value) is pybars.strlist:
        return value
    if type(value) is pybars.Scope:
        value = value.context
    text = ("true" if value else "false") if type(value) is bool else to_text(value)
    return html.escape(text) if SPECIAL.search(text) else text


def _p_message(this: Any, options: Any, **attributes: Any) -> Any:
    attrs = "".join(f' {k}="{html.escape(to_text(v))}"' for k, v in attributes.items())
    out = pybars.strlist([f"<message{attrs}>"])
    out.grow(options["fn"](this))
    out.append("</message>")
    return out


PYBARS_HELPERS = {
    "message": _p_message,
    "equals": lambda this, left, right: bool(left == right),
    "json": lambda this, value: value if isinstance(value, str) else to_text(value),
    "concat": lambda this, *values: "".join(to_text(v) for v in values),
}


def pybars_outcome(template: str) -> str:
    try:
        compiled = pybars.Compiler().compile(template)
        return str(compiled(dict(DATA), helpers=PYBARS_HELPERS))
    except Exception:
        return "error"


SEGMENTS = [*NAMES, "0", "1", "length", "[a]", "[k2]"]
SPECIAL_PATHS = ["this", "@index", "@key", "@first", "@last", "@root.a", "@../index"]
LITERALS = ['"lit"', "'q'", '"a\\"b"', "1", "-2", "true", "false", "null", "undefined"]
TEXTS = ["x", " ", "\n", "  ", "\t", "y z", "}", "a}b", "\n  "]
BLOCK_ARGS = [*NAMES, "this", "../xs", "@root.xs", "o.xs", "d"]


@st.composite
def paths(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 4))
    name = draw(st.sampled_from(NAMES))
    if kind == 0:
        return name
    if kind == 1:
        return f"{name}{draw(st.sampled_from('./'))}{draw(st.sampled_from(SEGMENTS))}"
    if kind == 2:
        return f"../{name}"
    if kind == 3:
        return f"this.{name}"
    return draw(st.sampled_from(SPECIAL_PATHS))


@st.composite
def arguments(draw: st.DrawFn) -> str:
    return draw(paths()) if draw(st.booleans()) else draw(st.sampled_from(LITERALS))


@st.composite
def expressions(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return "{{{" + draw(paths()) + "}}}"
    if kind == 1:
        return "{{&" + draw(paths()) + "}}"
    if kind == 2:
        return "{{! a comment }}"
    if kind == 3:
        inner = f"equals {draw(arguments())} {draw(arguments())}"
    elif kind == 4:
        inner = "concat " + " ".join(draw(st.lists(arguments(), max_size=3)))
    elif kind == 5:
        inner = f"lookup {draw(paths())} {draw(arguments())}"
    elif kind == 6:
        inner = f"json {draw(arguments())}"
    elif kind == 7:
        argument = draw(arguments())
        inner = f"concat {draw(arguments())} (equals {argument} {argument})"
    else:
        inner = draw(paths())
    left, right = draw(st.booleans()), draw(st.booleans())
    return "{{" + ("~" if left else "") + inner + ("~" if right else "") + "}}"


@st.composite
def templates(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.integers(0, 5 if depth < 2 else 1))
        if kind == 0:
            parts.append(draw(st.sampled_from(TEXTS)))
        elif kind == 1:
            parts.append(draw(expressions()))
        else:
            parts.append(draw(blocks(depth)))
    return "".join(parts)


@st.composite
def blocks(draw: st.DrawFn, depth: int) -> str:
    kind = draw(st.sampled_from(["each", "if", "unless", "with", "message", "value", "inverted"]))
    arg = draw(st.sampled_from(BLOCK_ARGS))
    ws = draw(st.sampled_from(["", "\n", "  \n"]))
    if kind in ("each", "if", "unless", "with"):
        head, close, opener = f"{kind} {arg}", kind, "#"
    elif kind == "message":
        head, close, opener = 'message role="user"', "message", "#"
    else:
        name = arg if arg in NAMES else "xs"
        head, close, opener = name, name, "#" if kind == "value" else "^"
    main = draw(templates(depth + 1))
    alt = ""
    if draw(st.booleans()):
        alt = f"{ws}{{{{else}}}}{ws}{draw(templates(depth + 1))}"
    return f"{{{{{opener}{head}}}}}{ws}{main}{alt}{ws}{{{{/{close}}}}}"


@given(templates())
def test_templates_render_as_pybars3_renders_them(template: str) -> None:
    original = pybars_compiler.prepare
    pybars_compiler.prepare = _pybars_prepare
    try:
        expected = pybars_outcome(template)
    finally:
        pybars_compiler.prepare = original
    assert outcome(template, **DATA) == expected


# --- unit tests per rule -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{a}}|{{{a}}}|{{&a}}", "A|A|A"),
        ("{{o.a.b}} {{o/a/b}} {{o.[a].b}} {{o.xs.1}} {{o.xs.length}}", "deep deep deep 2 2"),
        ("{{#each ys}}{{a}}{{#if @first}}!{{/if}}{{@index}}{{../a}};{{/each}}", "ya!0A;yb1A;"),
        ("{{#each d}}{{@key}}={{this}}{{#unless @last}},{{/unless}}{{/each}}", "a=da,k2=v"),
        ("{{#each e}}x{{else}}empty{{/each}}", "empty"),
        ("{{#xs}}<{{this}}>{{/xs}}{{#d}}{{a}}{{/d}}{{#f}}no{{else}}yes{{/f}}", "<x1><x2>dayes"),
        ("{{^e}}none{{/e}}{{^xs}}none{{else}}some{{/xs}}", "nonesomesome"),  # once per item
        ("{{#with o.a}}{{b}}{{/with}}", "deep"),
        ("{{lookup xs 1}} {{lookup d 'k2'}} {{lookup d 'nope'}}.", "x2 v ."),
        ('{{equals a "A"}} {{concat a "-" m}} {{json o.xs}}', "true A-7 [1,2]"),
        ("{{t}} {{f}} {{n}} {{z}}[{{missing.deep}}]", "true false 0 []"),
        ("{{@root.a}} {{#each xs}}{{@root.b}}{{/each}}", "A beebee"),
        ("{{!-- a }} b --}}x{{! another }}", " b --}}x"),  # a comment ends at the first }}
        ("{{{{raw}}}}{{a}} {{#if}}{{{{/raw}}}}", "{{a}} {{#if}}"),
        ("a\n{{#if t}}\n  b\n{{/if}}\nc", "a\n  b\nc"),  # standalone block lines
        ("a  {{~a~}}  b", "aAb"),
        ("{{a}}\r\nb", "A\r\nb"),  # pybars3 drops this \r
    ],
)
def test_rendering_rules(template: str, expected: str) -> None:
    assert render(template, **DATA) == expected


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("a{{#if t}}b", "syntax error"),  # pybars3 renders "a" and drops the rest
        ("a{{x", "syntax error"),
        ("{{#if t}}x{{/each}}", "syntax error"),
        ("{{f a=1}}", "syntax error"),  # a hash argument name has two characters at least
        ("{{p-f ab=1 x}}", "positional argument follows a hash argument"),
        ("{{p-f ab=1 ab=2}}", "given twice"),
        ("{{p-f (a.b)}}", "must name a helper"),
        ("{{else}}", "syntax error"),
        ("{{#if t}}" * 60 + "{{/if}}" * 60, "nest deeper than 50 levels"),
    ],
)
def test_syntax_errors_are_template_errors_with_a_place(template: str, problem: str) -> None:
    with pytest.raises(TemplateError) as caught:
        render(template)
    assert problem in caught.value.message
    assert caught.value.line is not None


def test_a_syntax_error_is_placed_in_the_text_as_written() -> None:
    with pytest.raises(TemplateError) as caught:
        render("ok\n  {{#if x}}\n{{/each}}")
    assert caught.value.line == 3 and caught.value.column is not None


@pytest.mark.parametrize(
    ("template", "problem"),
    [
        ("{{xs.9}}", "no item '9'"),
        ("{{z 1}}", "could not find the helper 'z'"),
        ("{{if t}}", "block helper"),
        ("{{#json a}}x{{/json}}", "not a block helper"),
        ("{{> partial}}", "partial 'partial' could not be found"),
        ("{{equals a}}", "needs an argument"),
    ],
)
def test_render_errors_name_the_problem_and_the_place(template: str, problem: str) -> None:
    with pytest.raises(TemplateError) as caught:
        render(template, **DATA)
    assert problem in caught.value.message
    assert (caught.value.line, caught.value.column) == (1, 1)


class Account:
    def __init__(self) -> None:
        self.owner = "ann"
        self._secret = "s3cr3t"
        self.history: list[str] = []

    def close(self, *args: Any) -> str:
        self.history.append("closed")
        return "closed"


def test_a_plain_field_prints_like_any_other_expression() -> None:
    """``{{name}}`` (a field: no helper, no path) renders in one step, like any expression."""
    values = {"s": "<b>&'", "n": None, "t": True, "i": 3, "d": {"k": [1, "x"]}, "m": "ok"}
    fields = "".join(f"[{{{{{name}}}}}]" for name in values)
    paths = "".join(f"[{{{{this.{name}}}}}]" for name in values)  # the general path
    assert render(fields, **values) == render(paths, **values)
    assert render("{{missing}}|{{m}}", m="ok") == "|ok"
    with pytest.raises(TemplateError, match="callable value") as caught:
        render("ok\n  {{f}}", f=len)
    assert (caught.value.line, caught.value.column) == (2, 3)
    config = PromptTemplateConfig(template="{{x}}" * 3, template_format="handlebars", name="t")
    template = HandlebarsPromptTemplateFactory(TemplateLimits(max_output=10)).create(config)
    with pytest.raises(TemplateError, match="renders more than 10 characters"):
        asyncio.run(template.render(None, {"x": "abcd"}))
    assert asyncio.run(template.render(None, {"x": "abc"})) == "abc" * 3


def test_values_are_data_never_called_and_objects_are_not_read() -> None:
    """A plain object has no fields (issue 23: only mappings, sequences, declared fields)."""
    account = Account()
    template = "[{{x.owner}}][{{x._secret}}][{{x.__class__}}][{{x.close}}]"
    assert render(template, x=account) == "[][][][]"
    blocks = ("{{x.close}}", "{{#if x.close}}y{{/if}}", "{{#with x}}{{#close}}{{/close}}{{/with}}")
    for template in blocks:
        assert render(template, x=account) == ""
        with pytest.raises(TemplateError, match="callable value"):
            render(template, x={"close": account.close})  # a callable given as data
    assert account.history == []  # pybars3 would have called close()
    mapping = {"k": 1}
    assert render("{{d.clear}}{{d.k}}", d=mapping) == "1"  # keys only: no dict.clear()
    assert mapping == {"k": 1}


def test_each_over_the_parent_scope_terminates() -> None:
    """pybars3 loops forever on ``{{#each ..}}`` (its scope object never ends iteration)."""
    assert render("{{#each ..}}[{{this}}]{{/each}}", a=1, b="x") == "[1][x]"


def test_whitespace_control_is_linear_where_pybars3_backtracks_exponentially() -> None:
    line = "x\n" + "{{#a}}   " * 2000 + "y"
    start = time.perf_counter()
    with pytest.raises(TemplateError):  # unclosed blocks: an error, found quickly
        render(line)
    spaces = "{{a}}" + " " * 200_000 + "{{b}}"
    assert render(spaces, a="1", b="2") == "1" + " " * 200_000 + "2"
    assert time.perf_counter() - start < 5


def test_kernel_functions_are_awaited_and_their_values_steer_blocks() -> None:
    def count(n: int) -> list[int]:
        """Numbers below ``n``."""
        return list(range(n))

    async def empty() -> list[int]:
        """Nothing."""
        return []

    kernel = Kernel()
    kernel.add_function(count, "p")
    kernel.add_function(empty, "p")
    template = (
        "{{#each (p-count 3)}}{{this}}{{/each}}|{{#if (p-empty)}}full{{else}}empty{{/if}}"
        "|{{#p-count 2}}<{{this}}>{{/p-count}}|{{p-count n}}"
    )
    assert render(template, kernel, n="2") == "012|empty|<0><1>|[0,1]"


def test_a_plain_function_returning_an_awaitable_works_in_a_template() -> None:
    """Templates call through ``Kernel.invoke``, which awaits what a plain ``def`` returns."""

    def later(x: str) -> str:
        """Returns a coroutine despite its annotation."""
        return asyncio.sleep(0.001, x.upper())  # type: ignore[return-value]

    kernel = Kernel()
    kernel.add_function(later, "p")
    assert render("{{p-later 'a'}}", kernel) == "A"


def test_a_missing_function_called_with_arguments_is_named() -> None:
    with pytest.raises(TemplateError, match="no kernel was given"):
        render("{{p-nope 1}}")
    with pytest.raises(TemplateError, match="no helper or kernel function named 'p-nope'"):
        render("{{p-nope 1}}", Kernel())
    assert render("{{p-nope}}", Kernel()) == ""  # a name without arguments may be a value


def test_the_rendered_size_is_bounded() -> None:
    limits = TemplateLimits(max_output=1000)
    config = PromptTemplateConfig(
        template="{{#each xs}}{{#each @root.xs}}{{this}}{{/each}}{{/each}}",
        template_format="handlebars",
        name="loop",
    )
    template = HandlebarsPromptTemplateFactory(limits).create(config)
    with pytest.raises(TemplateError, match=r"template 'loop' renders more than 1,000 char"):
        asyncio.run(template.render(None, {"xs": ["abcdefghij"] * 100}))
    assert asyncio.run(template.render(None, {"xs": ["ab"] * 10})) == "ab" * 100  # 200 chars


def test_trusted_variables_and_outputs_are_emitted_as_is() -> None:
    config = PromptTemplateConfig(
        template="{{a}} {{{b}}}",
        template_format="handlebars",
        input_variables=[InputVariable(name="a", allow_dangerously_set_content=True)],
    )
    out = asyncio.run(create_prompt_template(config).render(None, {"a": "<i>", "b": "<i>"}))
    assert out == "<i> &lt;i&gt;"


def test_sktypes_check_of_a_hostile_prompt_file_runs_nothing(tmp_path: Path) -> None:
    """The pre-commit hook path: a config file whose template would run code under pybars3."""
    marker = tmp_path / "pwned"
    payload = f"{{{{a.[x')\nopen({str(marker)!r}, 'w')\ndef f():#]}}}}"
    prompt = tmp_path / "prompt.json"
    prompt.write_text(
        json.dumps({"name": "p", "template": payload, "template_format": "handlebars"})
    )
    done = subprocess.run(
        [str(Path(sys.executable).parent / "sktypes"), "check", str(prompt)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists()
