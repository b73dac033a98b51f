"""``sktypes stubs TOOLS.json [-o FILE.py] [--protocol NAME]``."""

from __future__ import annotations

from pathlib import Path

import click

from sktypes._documents import read_document
from sktypes.cli._common import fail_on, write_output
from sktypes.errors import ManualError, SktypesError

__all__ = ["stubs"]


@click.command()
@click.argument("tools", type=click.Path(dir_okay=False))
@click.option("--output", "-o", default=None, help="Write to FILE.py (atomically).")
@click.option("--protocol", default="Tools", show_default=True, help="The Protocol's name.")
def stubs(tools: str, output: str | None, protocol: str) -> None:
    """Write a typed module (TypedDicts + a Protocol) for an OpenAI/Anthropic/MCP tool list."""
    from sktypes.manual import views_from_manual
    from sktypes_codegen import generate_stubs  # build-time only: import on use

    path = Path(tools)
    try:
        _, data = read_document(path, tools, ManualError, strict_json=True)
    except SktypesError as exc:
        fail_on(exc)
    try:
        source = generate_stubs(views_from_manual(data), protocol=protocol, source=path.name)
    except SktypesError as exc:
        fail_on(exc, file=tools)
    write_output(source.rstrip("\n"), output)
