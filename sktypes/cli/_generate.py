"""``sktypes generate SPEC -o DIR [--name PKG] [--sync] [--split/--no-split] [--check]``."""

from __future__ import annotations

from pathlib import Path

import click

from sktypes.cli._common import fail
from sktypes.errors import SktypesError

__all__ = ["generate"]


@click.command()
@click.argument("spec", type=click.Path(dir_okay=False))
@click.option("--output", "-o", "output", required=True, help="Directory for the package.")
@click.option("--name", default=None, help="Package name (default: the API title).")
@click.option("--sync", is_flag=True, help="Also generate blocking *_sync methods.")
@click.option(
    "--split/--no-split",
    default=None,
    help="One submodule per tag (default: for specs of 300+ operations with several tags).",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the package is stale.")
@click.option(
    "--no-validate",
    "no_validate",
    is_flag=True,
    help="Skip spec validation; generate the operations that can be understood.",
)
def generate(
    spec: str,
    output: str,
    name: str | None,
    sync: bool,
    split: bool | None,
    check: bool,
    no_validate: bool,
) -> None:
    """Generate a typed plugin package from an OpenAPI (or Swagger 2.0) SPEC."""
    from sktypes_codegen import generate_plugin, render_plugin  # build-time only: import on use

    if not Path(spec).is_file():
        fail(f"{spec}: no such file")
    try:
        if check:
            package, files = render_plugin(
                spec, name=name, sync=sync, validate=not no_validate, split=split
            )
            stale = [
                f
                for f, content in files.items()
                if not (Path(output) / package / f).is_file()
                or (Path(output) / package / f).read_text(encoding="utf-8") != content
            ]
            for f in stale:
                click.echo(f"{Path(output) / package / f}:1: differs from a fresh generation")
            raise SystemExit(1 if stale else 0)
        target = generate_plugin(
            spec, output, name=name, sync=sync, validate=not no_validate, split=split
        )
    except SktypesError as exc:
        fail(str(exc).splitlines()[0])
    click.echo(f"wrote {target}")
