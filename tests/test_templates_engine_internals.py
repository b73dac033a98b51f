"""The engines use their libraries' public API only, and print as those libraries do.

- Jinja2: every template here renders as a plain Jinja2 sandbox with autoescaping (and
  sktypes' ``finalize``) renders it.
- No engine reaches into a library's private API, generates Python from template text or
  executes code (checked on the source, with ``ast``).
- Helpers are made once per template and read the arguments of each render.
"""

from __future__ import annotations

import ast
import asyncio
import functools
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import given
from hypothesis import strategies as st
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

import sktypes
from sktypes.errors import TemplateError
from sktypes.kernel import Kernel
from sktypes.templates import InputVariable, PromptTemplateConfig, create_prompt_template
from sktypes.templates._calls import kernel_finder, resolve_helper
from sktypes.templates._jinja_env import finalize as _finalize

JINJA_TEMPLATES = [
    "{{ v }}|{{ w }}",
    "{{ v ~ w }}",
    "{{ v|upper }}{{ v|e }}{{ v|safe }}",
    '{{ items|join(", ") }}',
    '{{ v|replace("a", "<b>") }}',
    "{% macro m(x) %}<b>{{ x }}</b>{% endmacro %}{{ m(v) }}{{ m(w) }}",
    "{% set s %}<i>{{ v }}</i>{% endset %}{{ s }}{{ s|length }}",
    "{% autoescape false %}{{ v }}{% endautoescape %}{{ v }}",
    "{% autoescape flag %}{{ v }}{% endautoescape %}{{ w }}",
    "{% for x in items %}{{ loop.index }}:{{ x }};{% endfor %}",
    "{{ missing }}[{{ none }}]",
    "{{ missing.attr }}",  # an error in both
    "{{ '<lit>' }}{{ 1 < 2 }}{{ 3 }}",
    "{{ v if flag else w }}",
    "{% filter upper %}{{ v }}&{% endfilter %}",
    '{{ "%s-%s"|format(v, w) }}',
    "{{ items }}{{ mapping }}{{ mapping.k }}",
    "{{ v|tojson }}",
    "{% if flag %}{{ number }}{% else %}{{ number * 2 }}{% endif %}",
    "{% macro twice() %}{{ v }}{{ v }}{% endmacro %}{{ twice() }}",
    "{% macro box() %}[{{ caller() }}]{% endmacro %}{% call box() %}{{ v }}{% endcall %}",
]

texts = st.text(alphabet="ab<>&\"'` \n{}%#", max_size=8)


_REFERENCE = ImmutableSandboxedEnvironment(autoescape=True, finalize=_finalize)
"""The same sandbox with Jinja2's own autoescaping and sktypes' ``finalize``."""


@functools.cache
def reference(source: str) -> jinja2.Template:
    return _REFERENCE.from_string(source)


@functools.cache
def ours(source: str, trusted: bool) -> Any:
    inputs = [InputVariable(name="v", allow_dangerously_set_content=trusted)]
    config = PromptTemplateConfig(template=source, template_format="jinja2", input_variables=inputs)
    return create_prompt_template(config)


def jinja_outcome(render: Any) -> str:
    try:
        return str(render())
    except (jinja2.TemplateError, TemplateError):  # both fail (sktypes names no kernel)
        return "error"


@pytest.mark.parametrize("source", JINJA_TEMPLATES)
@given(
    v=texts,
    w=st.one_of(texts, st.integers(), st.none(), st.booleans()),
    items=st.lists(texts, max_size=3),
    flag=st.booleans(),
    trusted=st.booleans(),
)
def test_jinja2_prints_as_jinja2_autoescaping_does(
    source: str, v: str, w: Any, items: list[str], flag: bool, trusted: bool
) -> None:
    variables = {
        "v": v,
        "w": w,
        "items": items,
        "flag": flag,
        "number": 21,
        "none": None,
        "mapping": {"k": v},
    }
    expected = {**variables, "v": Markup(v) if trusted else v}
    assert jinja_outcome(
        lambda: asyncio.run(ours(source, trusted).render(None, variables))
    ) == jinja_outcome(lambda: reference(source).render(expected))


class Shop:
    def __init__(self, rate: int) -> None:
        self.rate = rate

    def price(self, item: str, qty: int = 1) -> str:
        """Price of ``qty`` items."""
        return f"{item}x{qty}={qty * self.rate}"


def shop_kernel(rate: int) -> Kernel:
    kernel = Kernel()
    kernel.add_function(Shop(rate).price, "shop")
    return kernel


@pytest.mark.parametrize(
    ("fmt", "source"),
    [
        ("handlebars", "{{#each items}}{{shop-price this}};{{/each}}{{shop-price item}}"),
        ("jinja2", "{% for i in items %}{{ shop_price(i) }};{% endfor %}{{ shop_price(item) }}"),
    ],
)
def test_helpers_made_once_read_each_renders_arguments_and_kernel(fmt: str, source: str) -> None:
    template = create_prompt_template(PromptTemplateConfig(template=source, template_format=fmt))

    def render(kernel: Kernel, **arguments: Any) -> str:
        return asyncio.run(template.render(kernel, arguments))

    assert render(shop_kernel(2), items=["a"], item="b", qty=3) == "ax3=6;bx3=6"
    assert render(shop_kernel(2), items=[], item="c") == "cx1=2"
    assert render(shop_kernel(5), items=["d"], item="e", qty=2) == "dx2=10;ex2=10"


def lookup_kernel() -> Kernel:
    kernel = Kernel()
    kernel.add_function(Shop(1).price, "my_shop")
    kernel.add_function(Shop(1).price, "my")
    kernel.add_function(Shop(1).price, "")  # a bare function name
    return kernel


@given(
    names=st.lists(
        st.sampled_from(["my_shop.price", "my.price", "my.shop_price", "price", "x.y", "", "."]),
        max_size=3,
    )
)
def test_finding_without_errors_finds_what_get_function_finds(names: list[str]) -> None:
    kernel = lookup_kernel()
    candidates = tuple(names)
    direct = resolve_helper(kernel, candidates, kernel_finder(kernel))
    assert direct is resolve_helper(kernel, candidates)


def test_a_jinja2_name_with_underscores_finds_its_plugin() -> None:
    kernel = Kernel()
    kernel.add_function(Shop(3).price, "my_shop")
    source = "{{ my_shop_price('tea', qty=2) }}"
    template = create_prompt_template(
        PromptTemplateConfig(template=source, template_format="jinja2")
    )
    assert asyncio.run(template.render(kernel, {})) == "teax2=6"


@pytest.mark.parametrize("filtered", [False, True])
def test_a_jinja2_template_can_call_a_kernel_function_but_not_reach_into_it(
    filtered: bool,
) -> None:
    kernel = shop_kernel(2)
    if filtered:
        kernel.add_filter(passthrough)
    source = (
        "{{ shop_price('tea') }}|{{ shop_price._kernel }}{{ shop_price._function }}"
        "{{ shop_price.kernel }}{{ shop_price.function }}{{ shop_price.__class__ }}|"
    )
    template = create_prompt_template(
        PromptTemplateConfig(template=source, template_format="jinja2")
    )
    assert asyncio.run(template.render(kernel, {})) == "teax1=2||"


async def passthrough(context: Any, call_next: Any) -> None:
    await call_next(context)


TEMPLATE_MODULES = sorted((Path(sktypes.__file__).parent / "templates").glob("*.py"))
LIBRARIES = ("jinja2", "markupsafe", "pybars", "pymeta")


@pytest.mark.parametrize("path", TEMPLATE_MODULES, ids=lambda p: p.name)
def test_engines_use_public_api_only_and_run_no_code(path: Path) -> None:
    """No ``exec``/``eval``/``compile``, no private names or modules of the libraries."""
    tree = ast.parse(path.read_text())
    problems: list[str] = []
    for node in ast.walk(tree):
        called = (
            node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else ""
        )
        if called in ("exec", "eval", "compile", "__import__"):
            problems.append(f"line {node.lineno}: {called}()")
        if isinstance(node, ast.ImportFrom) and node.module:
            root = node.module.split(".")[0]
            if root == "pybars" or root == "pymeta":
                problems.append(f"line {node.lineno}: imports {node.module}")
            if root in LIBRARIES and (
                any(part.startswith("_") for part in node.module.split("."))
                or any(alias.name.startswith("_") for alias in node.names)
            ):
                problems.append(f"line {node.lineno}: private import from {node.module}")
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ("pybars", "pymeta") or any(
                    part.startswith("_") for part in alias.name.split(".")[1:]
                ):
                    problems.append(f"line {node.lineno}: import {alias.name}")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            base = node.value
            if isinstance(base, ast.Name) and base.id in LIBRARIES:
                problems.append(f"line {node.lineno}: {base.id}.{node.attr}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in LIBRARIES
        ):
            problems.append(f"line {node.lineno}: getattr on {node.args[0].id}")
        if isinstance(node, ast.ClassDef):
            for base_class in node.bases:
                if isinstance(base_class, ast.Name) and base_class.id == "CodeGenerator":
                    problems.append(f"line {node.lineno}: subclasses Jinja2's CodeGenerator")
    assert not problems, problems
