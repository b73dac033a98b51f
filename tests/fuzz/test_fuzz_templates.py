"""Fuzz targets for the three template syntaxes (issue 13): any text, any arguments.

Each target takes bytes (``fuzz_semantic_kernel(data)``, ``fuzz_jinja2(data)``,
``fuzz_handlebars(data)``: atheris' ``TestOneInput`` shape) and checks what sktypes promises
for a template a user or a model can send:

- creating and rendering it gives text or a :class:`~sktypes.errors.TemplateError` —
  nothing else escapes (no ``RecursionError``, ``TypeError``...);
- the output stays within :attr:`TemplateLimits.max_output`;
- Semantic Kernel syntax and Handlebars compile and execute no Python at all (an audit
  hook watches ``compile``/``exec``); Jinja2 compiles its own code from the template's
  syntax tree, inside its sandbox.

The hypothesis tests below feed the targets: under ``make test`` they run the bounded
``ci`` profile (a few seconds); with ``SKTYPES_FUZZ_SECONDS=600`` each runs for ten minutes
with fresh random seeds (``python -m tests.fuzz.test_fuzz_templates 600`` does the same
without pytest).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sktypes.errors import TemplateError
from sktypes.kernel import Kernel
from sktypes.templates import PromptTemplateConfig, TemplateLimits, create_prompt_template
from tests.audit_util import no_code_runs

LIMITS = TemplateLimits(max_output=100_000, max_depth=20)
FUZZ_SECONDS = float(os.environ.get("SKTYPES_FUZZ_SECONDS", "0"))

TOKENS = {
    "semantic-kernel": [
        "{{",
        "}}",
        "$",
        "'",
        '"',
        "\\",
        " ",
        "=",
        ".",
        "p.echo",
        "p.inc",
        "p.boom",
        "$a",
        "$n",
        "$xs",
        "name=",
        "{{$a}}",
        "{{p.echo $a}}",
        "{{p.inc n='4'}}",
        "x",
        "\n",
    ],
    "jinja2": [
        "{{",
        "}}",
        "{%",
        "%}",
        "{#",
        "#}",
        "(",
        ")",
        "[",
        "]",
        "|",
        "~",
        "'",
        '"',
        " ",
        ".",
        "=",
        "*",
        "**",
        "%",
        "+",
        "p_echo",
        "p_inc",
        "p_boom",
        "a",
        "n",
        "xs",
        "for",
        "in",
        "if",
        "endfor",
        "endif",
        "set",
        "range(",
        "upper",
        "join",
        "9",
        "0",
        "\n",
        "{% for i in xs %}",
        "{% endfor %}",
        "{{ p_echo(a) }}",
        "{{ a * n }}",
        "__class__",
    ],
    "handlebars": [
        "{{",
        "}}",
        "{{{",
        "}}}",
        "{{#",
        "{{/",
        "{{^",
        "{{else}}",
        "{{!",
        "{{>",
        "{{&",
        "~",
        "(",
        ")",
        "[",
        "]",
        "'",
        '"',
        "\\",
        " ",
        ".",
        "/",
        "../",
        "@index",
        "@key",
        "this",
        "=",
        "each",
        "if",
        "with",
        "unless",
        "lookup",
        "concat",
        "p-echo",
        "p-inc",
        "p_boom",
        "a",
        "n",
        "xs",
        "\n",
        "{{#each xs}}",
        "{{/each}}",
        "{{p-echo a}}",
        "{{a.[x'\ny]}}",
    ],
}

arguments = st.dictionaries(
    st.sampled_from(["a", "n", "xs", "o"]),
    st.recursive(
        st.none() | st.booleans() | st.integers(-3, 10) | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=6,
    ),
)


def kernel() -> Kernel:
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
    # ``typing.get_type_hints`` compiles them): that is this module's code, not template
    # text, so it happens before any template is watched.
    for name, args in (("echo", {"input": "x"}), ("inc", {"n": 1}), ("boom", {})):
        with contextlib.suppress(Exception):  # boom raises by design
            asyncio.run(built.invoke(built.get_function(name, "p"), args))
    return built


KERNEL = kernel()


def check(fmt: str, text: str, args: dict[str, Any], with_kernel: bool) -> None:
    """The property every template must have (see the module docstring)."""

    def run() -> object:
        try:
            config = PromptTemplateConfig(template=text, template_format=fmt)
            template = create_prompt_template(config, limits=LIMITS)
            return asyncio.run(template.render(KERNEL if with_kernel else None, args))
        except TemplateError as exc:
            return exc

    if fmt == "jinja2":  # Jinja2 compiles its own code from the parsed template
        result = run()
    else:
        with no_code_runs():
            result = run()
    assert isinstance(result, (str, TemplateError)), result
    if isinstance(result, str):
        assert len(result) <= LIMITS.max_output


def _target(fmt: str) -> Callable[[bytes], None]:
    def one_input(data: bytes) -> None:
        text = data.decode("utf-8", errors="replace")
        check(fmt, text, {"a": "<x>", "n": 3, "xs": [1, "b"]}, with_kernel=bool(data[:1] > b"\x7f"))

    one_input.__name__ = f"fuzz_{fmt.replace('-', '_')}"
    return one_input


fuzz_semantic_kernel = _target("semantic-kernel")
fuzz_jinja2 = _target("jinja2")
fuzz_handlebars = _target("handlebars")


def templates(fmt: str) -> st.SearchStrategy[str]:
    tokens = st.lists(st.sampled_from(TOKENS[fmt]) | st.text(max_size=3), max_size=25)
    return tokens.map("".join) | st.text(max_size=60)


def _fuzz_settings() -> settings:
    if FUZZ_SECONDS:
        return settings(
            max_examples=10_000,
            deadline=None,
            derandomize=False,
            suppress_health_check=list(HealthCheck),
            database=None,
        )
    return settings()


@pytest.mark.parametrize("fmt", sorted(TOKENS))
def test_fuzz_template(fmt: str) -> None:
    @_fuzz_settings()
    @given(text=templates(fmt), args=arguments, with_kernel=st.booleans())
    def one(text: str, args: dict[str, Any], with_kernel: bool) -> None:
        check(fmt, text, args, with_kernel)

    deadline = time.monotonic() + FUZZ_SECONDS
    one()
    while time.monotonic() < deadline:
        one()


@pytest.mark.parametrize("target", [fuzz_semantic_kernel, fuzz_jinja2, fuzz_handlebars])
@given(data=st.binary(max_size=80))
def test_fuzz_targets_take_bytes(target: Callable[[bytes], None], data: bytes) -> None:
    target(data)


if __name__ == "__main__":  # python -m tests.fuzz.test_fuzz_templates [SECONDS]
    seconds = sys.argv[1] if len(sys.argv) > 1 else "60"
    os.environ["SKTYPES_FUZZ_SECONDS"] = seconds
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", __file__]))
