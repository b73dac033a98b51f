"""``sktypes example [DIR]``: write out the example plugins, specs and plans the guides use.

The files ship in the wheel (``sktypes/_example_files``, the repository's ``examples/`` and
``schemas/examples/`` files that ``pyproject.toml``'s ``force-include`` names), so every
guide can be followed outside a clone: run it once in an empty folder and the paths the
guides name (``examples/date_weather.py``, ``schemas/examples/weather_plugin.openapi.yaml``...)
exist there. Installed editable (a checkout, where the wheel's folder is not built), they are
read from the repository through the same ``force-include`` table.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import click

from sktypes._atomic import write_atomic
from sktypes.cli._common import fail

__all__ = ["example", "example_files"]


_SHIPPED = "sktypes/_example_files/"
"""Where the wheel holds the example files (``force-include`` puts them there)."""


def example_files() -> dict[str, bytes]:
    """The shipped example files: relative path (``examples/date_weather.py``) → content."""
    root = resources.files("sktypes").joinpath("_example_files")
    shipped = _read([(root, "")]) if root.is_dir() else {}
    return shipped or _read(_in_checkout())


def _in_checkout() -> list[tuple[Traversable, str]]:
    """The repository's files the wheel ships, as ``pyproject.toml`` maps them."""
    repository = Path(__file__).resolve().parents[2]
    with (repository / "pyproject.toml").open("rb") as f:
        table = tomllib.load(f)["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    return [
        (repository / source, target.removeprefix(_SHIPPED))
        for source, target in table.items()
        if target.startswith(_SHIPPED)
    ]


def _read(roots: list[tuple[Traversable, str]]) -> dict[str, bytes]:
    """Every file below ``roots`` (a file, or a folder walked), by its shipped name."""
    found: dict[str, bytes] = {}
    stack: list[tuple[Traversable, str]] = []
    for node, name in roots:
        if node.is_file():
            found[name] = node.read_bytes()
        else:
            stack.append((node, f"{name}/" if name else ""))
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
