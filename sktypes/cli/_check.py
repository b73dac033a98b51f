"""``sktypes check PATH...``: the pre-commit check (exit 1 on findings, 2 on bad arguments)."""

from __future__ import annotations

import sys

import click

from sktypes.cli._common import fail

__all__ = ["check"]


@click.command()
@click.argument("paths", nargs=-1)
def check(paths: tuple[str, ...]) -> None:
    """Check OpenAPI specs, JSON Schemas, functions manuals and generated packages."""
    from sktypes.check import check_paths

    if not paths:
        fail("no PATH given")
    findings = check_paths(paths)
    for finding in findings:
        click.echo(str(finding))
    sys.exit(1 if findings else 0)
