"""``sktypes manual TARGET... --format F [-o FILE]``."""

from __future__ import annotations

import click
import orjson

from sktypes.cli._common import fail, write_output
from sktypes.cli._targets import load_views
from sktypes.errors import SktypesError
from sktypes.manual import FORMATS, functions_manual

__all__ = ["manual"]


@click.command()
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(FORMATS), default="planner", show_default=True
)
@click.option("--output", "-o", default=None, help="Write to FILE (atomically) instead of stdout.")
def manual(targets: tuple[str, ...], fmt: str, output: str | None) -> None:
    """Print the functions manual of TARGETS (pkg.mod:obj, pkg.mod, file.py, spec, tools.json)."""
    try:
        views = load_views(targets)
        result = functions_manual(views, fmt)
    except SktypesError as exc:
        fail(str(exc).splitlines()[0])
    text = (
        result
        if isinstance(result, str)
        else orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()
    )
    write_output(text, output)
