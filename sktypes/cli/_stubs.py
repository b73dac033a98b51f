"""``sktypes stubs TARGET... [-o FILE.py] [--protocol NAME | --code-mode]``."""

from __future__ import annotations

import warnings
from pathlib import Path

import click

from sktypes._documents import read_document
from sktypes.cli._common import (
    exclude_option,
    fail,
    fail_on,
    include_option,
    warn,
    write_output,
)
from sktypes.errors import ManualError, SktypesError

__all__ = ["stubs"]


@click.command()
@click.argument("targets", nargs=-1, required=True)
@click.option("--output", "-o", default=None, help="Write to FILE.py (atomically).")
@click.option("--protocol", default="Tools", show_default=True, help="The Protocol's name.")
@click.option(
    "--code-mode",
    is_flag=True,
    help="Write one importable module of typed async functions (TypedDict models for inputs "
    "and results, docstrings, a one-line-per-tool preamble) for agents that write code "
    "against tools; TARGETS may be any source (plugins, specs, tool lists, packages). The "
    "share of tools with a typed result is said on stderr.",
)
@include_option
@exclude_option
def stubs(
    targets: tuple[str, ...],
    output: str | None,
    protocol: str,
    code_mode: bool,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
) -> None:
    """Write a typed module for TARGETS: TypedDicts and a Protocol for a tool list (TOOLS.json).

    With --code-mode: typed async functions for any source.
    """
    if code_mode:
        _code_mode(targets, output, include, exclude)
        return
    from sktypes.manual import views_from_manual
    from sktypes_codegen import generate_stubs  # build-time only: import on use

    if len(targets) != 1:
        fail("give one tool list (TOOLS.json), or --code-mode for several targets")
    tools = targets[0]
    path = Path(tools)
    try:
        _, data = read_document(path, tools, ManualError, strict_json=True)
    except SktypesError as exc:
        fail_on(exc)
    if isinstance(data, dict) and ("openapi" in data or "swagger" in data):
        fail(
            f"{tools}: an OpenAPI document, not a tool list: give --code-mode (typed functions "
            "for any source) or use sktypes generate (a typed client package)"
        )
    from sktypes_codegen import GenerationWarning

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", GenerationWarning)
            source = generate_stubs(views_from_manual(data), protocol=protocol, source=path.name)
    except SktypesError as exc:
        fail_on(exc, file=tools)
    for found in caught:  # what the stubs cannot express, each at its place
        said = found.message
        if isinstance(said, GenerationWarning):  # named by the path given, not its name
            warn(str(GenerationWarning(tools, said.pointer, said.message)))
        else:
            warnings.warn_explicit(found.message, found.category, found.filename, found.lineno)
    write_output(source.rstrip("\n"), output)


def _code_mode(
    targets: tuple[str, ...], output: str | None, include: tuple[str, ...], exclude: tuple[str, ...]
) -> None:
    from sktypes.cli._targets import load_views
    from sktypes_codegen import code_mode_stubs  # build-time only: import on use

    try:
        views = load_views(targets, include=include, exclude=exclude)
        result = code_mode_stubs(views, source=", ".join(Path(t).name for t in targets))
    except SktypesError as exc:
        fail(str(exc).splitlines()[0])
    write_output(result.source.rstrip("\n"), output)
    typed = (
        f"{result.typed} of {result.declared} declared results typed (not Any): "
        f"{result.typed_share:.0%}"
        if result.declared
        else "no function declares its result (a tool list without output schemas?)"
    )
    click.echo(f"sktypes stubs: {result.functions} function(s); {typed}", err=True)
