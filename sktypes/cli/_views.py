"""``sktypes views TARGET... [-o FILE]``: the function views of targets, as JSON."""

from __future__ import annotations

import click
import orjson

from sktypes._stages import stage
from sktypes.cli._common import (
    exclude_option,
    fail,
    include_option,
    no_validate_option,
    strict_option,
    warn,
    write_output,
)
from sktypes.cli._progress import stages
from sktypes.cli._targets import SpecOptions, load_views
from sktypes.errors import SktypesError

__all__ = ["views"]


@click.command()
@click.argument("targets", nargs=-1, required=True)
@click.option("--output", "-o", default=None, help="Write to FILE (atomically) instead of stdout.")
@include_option
@exclude_option
@click.option(
    "--name",
    default=None,
    help="The plugin name of the views (default: each target's own; for a spec, a short "
    "form of its title).",
)
@no_validate_option
@strict_option
def views(
    targets: tuple[str, ...],
    output: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    name: str | None,
    no_validate: bool,
    strict: bool,
) -> None:
    """Print the function views of TARGETS as a JSON list (FunctionView.to_dict() each).

    TARGETS are what `sktypes manual` reads: pkg.mod:obj, pkg.mod, file.py, an OpenAPI spec,
    a generated package or a tool list. `FunctionView.from_dict` reads each item back.
    """
    options = SpecOptions(validate=not no_validate, strict=strict, warn=warn)
    try:
        with stages("reading targets"):
            found = load_views(
                targets, include=include, exclude=exclude, name=name, options=options
            )
            stage(f"writing {len(found)} views")
            data = [view.to_dict() for view in found]
    except SktypesError as exc:
        fail(str(exc).splitlines()[0])
    write_output(
        orjson.dumps(data, option=orjson.OPT_INDENT_2).decode(),
        output,
        f"{len(data)} view{'' if len(data) == 1 else 's'}",
    )
