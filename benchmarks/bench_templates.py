"""Prompt templates: create once, render 2,000 times — sktypes vs semantic-kernel and plain engines.

One template in each syntax with 10 variables and 2 function calls. Timed per engine:
*create* (parse/compile the template; best of many) and *render* (2,000 renders of the
same template object, best of several interleaved rounds), in µs per operation, with the
ratio against plain jinja2's render. sktypes renders are timed twice: with the real
``sktypes.kernel.Kernel`` (which validates and hydrates every call's arguments) and with a
direct kernel that calls the functions like the plain engines do (the template engine's own
cost). semantic-kernel is skipped with a note when it is not installed
(``pip install 'semantic-kernel==1.45.*'``). Every engine renders with sktypes' full
validation and hydration of each call's arguments (``Kernel.invoke``) and the output bound.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

RENDERS = 2000
ROUNDS = 5
VARIABLES = {f"v{i}": f"value number {i}" for i in range(10)}

SK = " ".join(f"{i}: {{{{$v{i}}}}}." for i in range(10)) + (
    " Upper: {{text.upper $v1}} Lower: {{text.lower input=$v2}}"
)
JINJA = " ".join(f"{i}: {{{{ v{i} }}}}." for i in range(10)) + (
    " Upper: {{ text_upper(input=v1) }} Lower: {{ text_lower(input=v2) }}"
)
HANDLEBARS = " ".join(f"{i}: {{{{v{i}}}}}." for i in range(10)) + (
    " Upper: {{text-upper input=v1}} Lower: {{text-lower input=v2}}"
)


def variables_only(template: str) -> str:
    """The same template without its two function calls: the engines' own cost."""
    return template.split(" Upper:")[0]


def upper(input: str) -> str:
    """Upper-case the text."""
    return input.upper()


def lower(input: str) -> str:
    """Lower-case the text."""
    return input.lower()


def text_plugin() -> Any:
    from sktypes import kernel_function

    class Text:
        """Text helpers."""

        @kernel_function
        def upper(self, input: str) -> str:
            """Upper-case the text."""
            return input.upper()

        @kernel_function
        def lower(self, input: str) -> str:
            """Lower-case the text."""
            return input.lower()

    return Text()


# --- harness ---------------------------------------------------------------------------

Batch = Callable[[int], float]
"""Runs an operation ``n`` times and returns the seconds it took."""


def sync_batch(fn: Callable[[], Any]) -> Batch:
    def run(n: int) -> float:
        start = time.perf_counter()
        for _ in range(n):
            fn()
        return time.perf_counter() - start

    return run


def async_batch(fn: Callable[[], Awaitable[Any]]) -> Batch:
    async def loop(n: int) -> float:
        start = time.perf_counter()
        for _ in range(n):
            await fn()
        return time.perf_counter() - start

    return lambda n: asyncio.run(loop(n))


def interleaved_best_us(
    cases: dict[str, tuple[Batch, int]], rounds: int = ROUNDS
) -> dict[str, float]:
    """Best µs per operation of each case; the cases take turns so noise hits all alike."""
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(rounds):
        for name, (batch, number) in cases.items():
            best[name] = min(best[name], batch(number) / number)
    return {name: value * 1e6 for name, value in best.items()}


class Entry:
    """One engine: how to create its template, how to render it, or why it is missing."""

    def __init__(
        self,
        name: str,
        create: tuple[Batch, int] | None = None,
        render: tuple[Batch, int] | None = None,
        note: str = "",
    ) -> None:
        self.name, self.create, self.render, self.note = name, create, render, note


# --- engines ---------------------------------------------------------------------------


def plain_entries() -> tuple[list[Entry], dict[str, str]]:
    import jinja2
    import pybars

    env = jinja2.Environment()
    functions = {"text_upper": upper, "text_lower": lower}
    tpl = env.from_string(JINJA, globals=functions)
    compiler = pybars.Compiler()
    helpers = {
        "text-upper": lambda this, *a, input=None: upper(input or a[0]),
        "text-lower": lambda this, *a, input=None: lower(input or a[0]),
    }
    hb = compiler.compile(HANDLEBARS)
    safe_env = jinja2.Environment(autoescape=True)
    safe_tpl = safe_env.from_string(JINJA, globals=functions)
    outputs = {
        "plain jinja2": tpl.render(**VARIABLES),
        "plain pybars3": str(hb(VARIABLES, helpers=helpers)),
    }
    entries = [
        Entry(
            "plain jinja2",
            (sync_batch(lambda: env.from_string(JINJA, globals=functions)), 100),
            (sync_batch(lambda: tpl.render(**VARIABLES)), RENDERS),
        ),
        Entry(
            "plain jinja2, autoescape",
            None,
            (sync_batch(lambda: safe_tpl.render(**VARIABLES)), RENDERS),
        ),
        Entry(
            "plain pybars3",
            (sync_batch(lambda: compiler.compile(HANDLEBARS)), 20),
            (sync_batch(lambda: hb(VARIABLES, helpers=helpers)), RENDERS),
        ),
    ]
    return entries, outputs


class DirectKernel:
    """A TemplateKernel that calls the functions directly (no validation, no hydration)."""

    def __init__(self) -> None:
        from sktypes.kernel import Kernel

        self._inner = Kernel()
        self._inner.add_plugin(text_plugin(), "text")

    def get_function(self, name: str, /) -> Any:
        return self._inner.get_function(name)

    async def invoke(self, function: Any, arguments: Mapping[str, Any], /) -> Any:
        return await function.call(dict(arguments))


def sktypes_entries() -> tuple[list[Entry], dict[str, str]]:
    from sktypes.kernel import Kernel
    from sktypes.templates import PromptTemplateConfig, create_prompt_template

    kernel = Kernel()
    kernel.add_plugin(text_plugin(), "text")
    direct = DirectKernel()
    entries: list[Entry] = []
    outputs: dict[str, str] = {}
    for fmt, source in (("semantic-kernel", SK), ("jinja2", JINJA), ("handlebars", HANDLEBARS)):
        config = PromptTemplateConfig(template=source, template_format=fmt)
        template = create_prompt_template(config)
        outputs[f"sktypes {fmt}"] = asyncio.run(template.render(kernel, VARIABLES))
        create = sync_batch(lambda config=config: create_prompt_template(config))
        for label, k in (("Kernel", kernel), ("direct", direct)):
            render = async_batch(lambda template=template, k=k: template.render(k, VARIABLES))
            entries.append(
                Entry(
                    f"sktypes {fmt} ({label})",
                    (create, 100 if fmt != "handlebars" else 20) if label == "Kernel" else None,
                    (render, RENDERS),
                )
            )
    return entries, outputs


def semantic_kernel_entries() -> tuple[list[Entry], dict[str, str]]:
    try:
        from importlib.metadata import version

        import semantic_kernel
        from semantic_kernel.functions import KernelArguments, kernel_function
        from semantic_kernel.prompt_template import (
            HandlebarsPromptTemplate,
            Jinja2PromptTemplate,
            KernelPromptTemplate,
            PromptTemplateConfig,
        )
    except ImportError:
        return [
            Entry("semantic-kernel", note="not installed: pip install 'semantic-kernel==1.45.*'")
        ], {}

    class SkText:
        @kernel_function(name="upper")
        def upper(self, input: str) -> str:
            return input.upper()

        @kernel_function(name="lower")
        def lower(self, input: str) -> str:
            return input.lower()

    kernel = semantic_kernel.Kernel()
    kernel.add_plugin(SkText(), "text")
    ver = version("semantic-kernel")
    entries: list[Entry] = []
    outputs: dict[str, str] = {}
    for fmt, cls, source in (
        ("semantic-kernel", KernelPromptTemplate, SK),
        ("jinja2", Jinja2PromptTemplate, JINJA),
        ("handlebars", HandlebarsPromptTemplate, HANDLEBARS),
    ):
        name = f"semantic-kernel {ver} {fmt}"
        config = PromptTemplateConfig(template=source, template_format=fmt)
        template = cls(prompt_template_config=config)
        arguments = KernelArguments(**VARIABLES)
        try:
            outputs[name] = asyncio.run(template.render(kernel, arguments))
        except Exception as exc:  # a peer's failure is a row, not a crash
            entries.append(Entry(name, note=f"fails: {exc!r}"[:80]))
            continue
        create = sync_batch(lambda cls=cls, config=config: cls(prompt_template_config=config))
        render = async_batch(
            lambda template=template, arguments=arguments: template.render(kernel, arguments)
        )
        slow = fmt == "jinja2"  # it compiles the template on every render
        entries.append(
            Entry(
                name,
                (create, 100 if fmt != "handlebars" else 20),
                (render, RENDERS // 10 if slow else RENDERS),
            )
        )
    return entries, outputs


def variables_only_entries() -> list[Entry]:
    import jinja2
    import pybars

    from sktypes.templates import PromptTemplateConfig, create_prompt_template

    plain_jinja = jinja2.Environment(autoescape=True).from_string(variables_only(JINJA))
    plain_hb = pybars.Compiler().compile(variables_only(HANDLEBARS))
    entries = [
        Entry(
            "vars only: plain jinja2, autoescape",
            None,
            (sync_batch(lambda: plain_jinja.render(**VARIABLES)), RENDERS),
        ),
        Entry(
            "vars only: plain pybars3",
            None,
            (sync_batch(lambda: plain_hb(VARIABLES)), RENDERS),
        ),
    ]
    for fmt, source in (("semantic-kernel", SK), ("jinja2", JINJA), ("handlebars", HANDLEBARS)):
        config = PromptTemplateConfig(template=variables_only(source), template_format=fmt)
        template = create_prompt_template(config)
        render = async_batch(lambda template=template: template.render(None, VARIABLES))
        entries.append(Entry(f"vars only: sktypes {fmt}", None, (render, RENDERS)))
    return entries


def target_lines(creates: dict[str, float], renders: dict[str, float]) -> list[str]:
    """Each target of the issues with the ratio measured in this run.

    Issue 14 (the engines on public API only, the kernel's full validation on every call):
    SK syntax within 1.5x and Jinja2 within 2x of plain jinja2, Handlebars within 2x of plain
    pybars3. Semantic Kernel's own engines (issue 7) are shown for comparison.
    """
    sk = next((n.rsplit(" ", 1)[0] for n in renders if n.startswith("semantic-kernel ")), None)
    lines: list[str] = []

    def check(label: str, ratio: float, limit: float, faster: bool = False) -> None:
        met = ratio >= limit if faster else ratio <= limit
        want = f">= {limit:g}x faster" if faster else f"<= {limit:g}x"
        lines.append(f"{label:52} {ratio:7.2f}x  (want {want}: {'met' if met else 'NOT met'})")

    jinja = renders["plain jinja2"]
    for fmt, limit in (("semantic-kernel", 1.5), ("jinja2", 2.0)):
        ours = renders[f"sktypes {fmt} (Kernel)"]
        check(f"sktypes {fmt} render vs plain jinja2", ours / jinja, limit)
        if sk is not None:
            faster = 5 if fmt == "semantic-kernel" else 50
            check(
                f"  semantic-kernel {fmt} render / sktypes",
                renders[f"{sk} {fmt}"] / ours,
                faster,
                True,
            )
    check(
        "sktypes handlebars render vs plain pybars3",
        renders["sktypes handlebars (Kernel)"] / renders["plain pybars3"],
        2.0,
    )
    if sk is not None:
        ours = creates["sktypes semantic-kernel (Kernel)"]
        check(
            "sktypes SK-syntax create vs semantic-kernel's",
            ours / creates[f"{sk} semantic-kernel"],
            1.0,
        )
    return lines


def main() -> None:
    plain, out1 = plain_entries()
    ours, out2 = sktypes_entries()
    peers, out3 = semantic_kernel_entries()
    entries = plain + ours + peers + variables_only_entries()
    creates = interleaved_best_us({e.name: e.create for e in entries if e.create is not None})
    renders = interleaved_best_us({e.name: e.render for e in entries if e.render is not None})
    baseline = renders["plain jinja2"]
    print(
        f"Prompt templates: 10 variables + 2 function calls; create once, render x{RENDERS}; "
        f"best of {ROUNDS} interleaved rounds"
    )
    print(f"{'engine':40} {'create µs':>10} {'render µs':>10} {'vs plain jinja2':>16}")
    for e in entries:
        create = f"{creates[e.name]:10.1f}" if e.name in creates else f"{'-':>10}"
        render = f"{renders[e.name]:10.1f}" if e.name in renders else f"{'-':>10}"
        ratio = f"{renders[e.name] / baseline:15.2f}x" if e.name in renders else f"{'':>16}"
        print(f"{e.name:40} {create} {render} {ratio} {e.note}".rstrip())
    print()
    print("Targets (issues 14 and 7), from this run:")
    for line in target_lines(creates, renders):
        print(f"  {line}")
    print()
    print("Rendered outputs (tail), to check every engine renders the same text:")
    for name, text in {**out1, **out2, **out3}.items():
        print(f"  {name:40} …{text[-44:]!r}")


if __name__ == "__main__":
    main()
