"""``sktypes generate [SPEC -o DIR] [--name PKG] [options]``.

With no SPEC, every ``[[tool.sktypes.generate]]`` target of the nearest ``pyproject.toml``
is generated (or, with ``--check``, compared). Exit 0 done (or fresh), 1 stale under
``--check``, 2 unusable input (one line naming the file and place).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from sktypes._documents import read_file, same_bytes
from sktypes.check._findings import display
from sktypes.cli._common import (
    exclude_option,
    fail,
    fail_on,
    include_option,
    no_validate_option,
    quiet_option,
    ref_root_option,
    strict_option,
    verbose_option,
)
from sktypes.cli._config import Target, find_pyproject, formatter_line_length, read_targets
from sktypes.cli._progress import stages
from sktypes.errors import SktypesError, format_error
from sktypes.limits import DEFAULT_LIMITS

__all__ = ["generate"]


@click.command()
@click.argument("spec", required=False, type=click.Path(dir_okay=False))
@click.option("--output", "-o", "output", default=None, help="Directory for the package.")
@click.option("--name", default=None, help="Package name (default: the API title).")
@click.option("--sync", is_flag=True, help="Also generate blocking *_sync methods.")
@click.option(
    "--split/--no-split",
    default=None,
    help="One submodule per tag (default: for specs of 300+ operations with several tags).",
)
@include_option
@exclude_option
@ref_root_option
@click.option(
    "--line-length",
    type=click.IntRange(40, 400),
    default=None,
    help="Width of the generated code (default: the repository's ruff/black setting, else 88).",
)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the package is stale.")
@no_validate_option
@strict_option
@quiet_option
@verbose_option
def generate(
    spec: str | None,
    output: str | None,
    name: str | None,
    sync: bool,
    split: bool | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    ref_roots: tuple[str, ...],
    line_length: int | None,
    check: bool,
    no_validate: bool,
    strict: bool,
    quiet: bool,
    verbose: bool,
) -> None:
    """Generate a typed plugin package from an OpenAPI (or Swagger 2.0) SPEC.

    Without SPEC, regenerate every target listed in [tool.sktypes] of pyproject.toml.
    """
    if spec is None:
        if output or name:
            fail("--output and --name need a SPEC (or list targets in [tool.sktypes])")
        targets = _configured()
    else:
        if output is None:
            fail("missing option '--output' / '-o'")
        validate = not no_validate
        roots = tuple(Path(r) for r in ref_roots)
        targets = [
            Target(Path(spec), Path(output), name, sync, split, validate, include, exclude, roots)
        ]
    stale = 0
    for target in targets:
        stale += _one(target, line_length, check=check, quiet=quiet, verbose=verbose, strict=strict)
    raise SystemExit(1 if stale else 0)


def _configured() -> list[Target]:
    pyproject = find_pyproject()
    if pyproject is None:
        fail("no SPEC given and no pyproject.toml with [tool.sktypes] generate targets")
    try:
        targets = read_targets(pyproject)
    except SktypesError as exc:
        fail_on(exc)
    if not targets:
        fail(f"no SPEC given and {pyproject} lists no [[tool.sktypes.generate]] targets")
    return targets


def _one(
    target: Target, width: int | None, *, check: bool, quiet: bool, verbose: bool, strict: bool
) -> int:
    """Generate (or compare) one target; return the number of stale files."""
    from sktypes_codegen import render_plugin
    from sktypes_codegen._package import write_package  # build-time only: import on use

    if not target.spec.is_file():
        fail(f"{target.spec}: no such file")
    try:
        line_length = width or formatter_line_length(target.output)
        with stages(f"generating from {target.spec}", enabled=not quiet):
            rendered = render_plugin(
                target.spec,
                name=target.name,
                sync=target.sync,
                validate=target.validate,
                split=target.split,
                line_length=line_length,
                include=target.include,
                exclude=target.exclude,
                ref_roots=target.ref_roots,
                strict=strict,
            )
            package, files = rendered
            for found in rendered.warnings:  # what the generated code cannot express
                click.echo(f"warning: {found}", err=True)
            if not json.loads(files.get("views.json", "{}")).get("functions", [None]):
                empty = f"{display(target.spec)}: no operations: the package has no functions"
                click.echo(f"warning: {empty}", err=True)
            if check:
                return _stale(target.output / package, files)
            written = write_package(
                target.spec,
                target.output,
                package,
                files,
                sync=target.sync,
                validate=target.validate,
                line_length=line_length,
                include=target.include,
                exclude=target.exclude,
                ref_roots=target.ref_roots,
                validation=rendered.validation,
            )
    except SktypesError as exc:
        fail_on(exc)
    if not quiet:
        click.echo(f"wrote {display(written)}")
    if verbose:
        for file_name in sorted(files):
            click.echo(f"  {display(written / file_name)}", err=True)
        for operation, what in rendered.features:  # pagination and streams recognised
            click.echo(f"  {operation}: {what}", err=True)
    return 0


def _stale(package: Path, files: dict[str, str]) -> int:
    from sktypes.check._packages import first_difference

    stale = 0
    for f, content in files.items():
        path = package / f
        fresh = content.encode()
        same = same_bytes(path, fresh)
        if same is None:
            click.echo(format_error("missing: regenerate the package", file=display(path)))
        elif not same:
            try:
                line: int | None = first_difference(
                    read_file(path, display(path), DEFAULT_LIMITS, SktypesError), fresh
                )
            except SktypesError:
                line = None
            reason = "differs from a fresh generation"
            click.echo(format_error(reason, file=display(path), line=line))
        else:
            continue
        stale += 1
    return stale
