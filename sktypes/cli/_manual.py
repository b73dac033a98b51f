"""``sktypes manual TARGET... --format F [-o FILE]``."""

from __future__ import annotations

import click
import orjson

from sktypes._stages import stage
from sktypes.cli._common import (
    exclude_option,
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
from sktypes.manual import FORMATS, functions_manual

__all__ = ["manual"]


@click.command()
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(FORMATS), default="planner", show_default=True
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
    output: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    name: str | None,
    no_validate: bool,
    strict: bool,
) -> None:
    """Print the functions manual of TARGETS (pkg.mod:obj, pkg.mod, file.py, spec, tools.json)."""
    options = SpecOptions(validate=not no_validate, strict=strict, warn=warn)
    try:
        with stages("reading targets"):
            views = load_views(
                targets, include=include, exclude=exclude, name=name, options=options
            )
            stage(f"writing the manual of {len(views)} functions")
            result = functions_manual(views, fmt)
    except SktypesError as exc:
        fail_on(exc)
    text = (
        result
        if isinstance(result, str)
        else orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()
    )
    write_output(text, output, f"{fmt} manual of {len(views)} functions")
