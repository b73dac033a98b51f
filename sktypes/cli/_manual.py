"""``sktypes manual TARGET... --format F [--detail D | --budget TOKENS] [--report] [-o FILE]``."""

from __future__ import annotations

import click

from sktypes._stages import stage
from sktypes.cli._common import (
    exclude_option,
    fail,
    fail_on,
    include_option,
    no_validate_option,
    strict_option,
    warn,
    write_output,
)
from sktypes.cli._progress import stages
from sktypes.cli._targets import SpecOptions, load_views
from sktypes.errors import SktypesError
from sktypes.manual import (
    DETAILS,
    FORMATS,
    ManualCost,
    fit_budget,
    functions_manual,
    manual_cost,
    render_manual,
)

__all__ = ["manual", "report_lines"]


@click.command()
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(FORMATS), default="planner", show_default=True
)
@click.option(
    "--detail",
    type=click.Choice(DETAILS),
    default=None,
    help="full (default: every schema exactly), compact (every enforced constraint, the first "
    "sentence of each description) or names (name and one line; marked for deferred loading "
    "where the provider has a field for it).",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=None,
    metavar="TOKENS",
    help="Fit the manual within TOKENS: each function at the richest detail that fits "
    "(after --include/--exclude); what was chosen is said on stderr.",
)
@click.option(
    "--report",
    is_flag=True,
    help="Print tokens per function and in total (and which tokenizer counted) instead of "
    "the manual; with -o the manual is written too.",
)
@click.option("--output", "-o", default=None, help="Write to FILE (atomically) instead of stdout.")
@include_option
@exclude_option
@click.option(
    "--name",
    default=None,
    help="The plugin name the functions are listed under (default: each target's own; for "
    "a spec, a short form of its title).",
)
@no_validate_option
@strict_option
def manual(
    targets: tuple[str, ...],
    fmt: str,
    detail: str | None,
    budget: int | None,
    report: bool,
    output: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    name: str | None,
    no_validate: bool,
    strict: bool,
) -> None:
    """Print the functions manual of TARGETS (pkg.mod:obj, pkg.mod, file.py, spec, tools.json).

    Tokens are counted by a real o200k tokenizer when one is installed
    (pip install 'sktypes[tokens]'), else by an estimate (about ±10% per manual).
    """
    if budget is not None and detail is not None:
        fail("--budget chooses the detail of each function: give --budget or --detail, not both")
    options = SpecOptions(validate=not no_validate, strict=strict, warn=warn)
    try:
        with stages("reading targets"):
            views = load_views(
                targets, include=include, exclude=exclude, name=name, options=options
            )
            stage(f"writing the manual of {len(views)} functions")
            if budget is not None:
                cost = fit_budget(views, fmt, budget)
            elif report:
                cost = manual_cost(views, fmt, detail=detail or "full")
            else:
                result = functions_manual(views, fmt, detail=detail or "full")
    except SktypesError as exc:
        fail_on(exc)
    if budget is None and not report:
        counted = f"{len(views)} function{'' if len(views) == 1 else 's'}"
        write_output(render_manual(result), output, f"{fmt} manual of {counted}")
        return
    if budget is not None:
        levels = ", ".join(f"{n} {d}" for d, n in cost.levels().items() if n)
        click.echo(
            f"sktypes manual: {len(cost.tools)} function(s) in {cost.total} tokens "
            f"(budget {budget}; {levels}; counted by {cost.counter.name})",
            err=True,
        )
    if report:
        click.echo("\n".join(report_lines(cost)))
        if output is not None:
            write_output(render_manual(cost.manual), output)
    else:
        write_output(render_manual(cost.manual), output)


def report_lines(cost: ManualCost) -> list[str]:
    """The token report: one line per function, then the total and the tokenizer."""
    width = max([len(str(cost.total)), 6])
    lines = [f"{'tokens':>{width}}  {'detail':<8} function"]
    lines += [f"{t.tokens:>{width}}  {t.detail:<8} {t.name}" for t in cost.tools]
    counted = "counted by " + cost.counter.name
    lines.append(f"{cost.total:>{width}}  {'total':<8} {len(cost.tools)} function(s), {counted}")
    if not cost.counter.exact:
        lines.append("(estimated: install a tokenizer with pip install 'sktypes[tokens]')")
    return lines
