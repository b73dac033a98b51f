"""``sktypes schema pkg.mod:Type --dialect D``."""

from __future__ import annotations

import click
import orjson

from sktypes.cli._common import fail_on, write_output
from sktypes.cli._targets import load_object
from sktypes.errors import SktypesError
from sktypes.schema import DIALECTS, json_schema

__all__ = ["schema"]


@click.command()
@click.argument("target")
@click.option(
    "--dialect", "-d", type=click.Choice(DIALECTS), default="json-schema", show_default=True
)
@click.option("--output", "-o", default=None, help="Write to FILE (atomically) instead of stdout.")
def schema(target: str, dialect: str, output: str | None) -> None:
    """Print the JSON Schema of the Python type TARGET (pkg.mod:Type) in DIALECT."""
    try:
        result = json_schema(load_object(target), dialect)
    except SktypesError as exc:
        fail_on(exc)
    write_output(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode(), output)
