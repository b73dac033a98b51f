"""``sktypes example [DIR]``: write out the example plugins, specs and plans the guides use.

The files ship in the wheel (``sktypes/_example_files``, the repository's ``examples/`` and
``schemas/examples/``), so every guide can be followed outside a clone: run it once in an
empty folder and the paths the guides name (``examples/date_weather.py``,
``schemas/examples/weather_plugin.openapi.yaml``...) exist there.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import click

from sktypes._atomic import write_atomic
from sktypes.cli._common import fail

__all__ = ["example", "example_files"]


def example_files() -> dict[str, bytes]:
    """The shipped example files: relative path (``examples/date_weather.py``) → content."""
    root = resources.files("sktypes").joinpath("_example_files")
    found: dict[str, bytes] = {}
    stack: list[tuple[Traversable, str]] = [(root, "")]
    while stack:
        node, prefix = stack.pop()
        for child in node.iterdir():
            name = f"{prefix}{child.name}"
            if child.is_dir():
                if child.name != "__pycache__":
                    stack.append((child, name + "/"))
            elif not child.name.endswith(".pyc"):
                found[name] = child.read_bytes()
    return dict(sorted(found.items()))


@click.command()
@click.argument("directory", default=".", metavar="[DIR]")
@click.option("--force", is_flag=True, help="Overwrite example files that were changed.")
@click.option("--verbose", "-v", is_flag=True, help="List every file (stderr).")
def example(directory: str, force: bool, verbose: bool) -> None:
    """Write the guides' example files into DIR (default: the current directory).

    Writes examples/ (the Python plugins and plans) and schemas/examples/ (OpenAPI specs),
    the paths the guides use. Files already there with the same content are left alone; a
    changed one is an error unless --force.
    """
    out = Path(directory)
    files = example_files()
    changed = []
    for name, content in files.items():
        target = out / name
        if target.is_file() and target.read_bytes() != content and not force:
            changed.append(name)
    if changed:
        fail(f"{out / changed[0]}: exists and differs from the example; pass --force to overwrite")
    for name, content in files.items():
        target = out / name
        if not (target.is_file() and target.read_bytes() == content):
            write_atomic(target, content)
        if verbose:
            click.echo(f"  {target}", err=True)
    where = "" if directory in (".", "./") else f"{directory.rstrip('/')}/"
    click.echo(
        f"sktypes example: {len(files)} files in {where}examples/ and {where}schemas/examples/"
    )
