"""``sktypes hydrate pkg.mod:Type [FILE|-]``: model output → canonical JSON of the value.

Exit 0 with the value as canonical JSON (sorted keys) on stdout; exit 1 with the
``.for_llm()`` text on stdout when the output cannot be hydrated (ready to send back to
the model); exit 2 for a bad target or an unreadable file.
"""

from __future__ import annotations

import inspect
import os
import sys
from pathlib import Path
from typing import Any

import click
import orjson
from pydantic_core import to_jsonable_python

from sktypes._documents import read_file
from sktypes.cli._common import fail, fail_on
from sktypes.cli._targets import load_object
from sktypes.errors import HydrationError, SktypesError
from sktypes.hydration import HydrationLimits
from sktypes.limits import DocumentLimits

__all__ = ["hydrate"]


def _read(source: str) -> bytes:
    """The model's output, never more than hydration reads (``HydrationLimits.max_size``).

    A FILE may be a pipe (``<(command)``); it is read through the one loader's reader.
    """
    limit = HydrationLimits().max_size
    if source == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            fail(f"-: the input is larger than {limit} bytes (HydrationLimits.max_size)")
        return data
    path = Path(source)
    if not os.path.exists(path) or os.path.isdir(path):
        fail(f"{source}: no such file")
    try:
        return read_file(path, source, DocumentLimits(max_bytes=limit), SktypesError)
    except SktypesError as exc:
        fail(str(exc))


def _target(obj: Any) -> Any:
    """A type stays a type; a plain function means its arguments (its function view)."""
    if inspect.isfunction(obj) or inspect.ismethod(obj):
        from sktypes.introspect import function_view

        return function_view(obj)
    return obj


@click.command()
@click.argument("target")
@click.argument("source", default="-", metavar="[FILE|-]")
@click.option("--partial", is_flag=True, help="Accept a truncated prefix (best value so far).")
@click.option("--strict", is_flag=True, help="No repair, no coercions.")
@click.option("--no-repair", is_flag=True, help="Only accept the output as clean JSON.")
@click.option("--indent", is_flag=True, help="Indent the JSON output.")
def hydrate(
    target: str, source: str, partial: bool, strict: bool, no_repair: bool, indent: bool
) -> None:
    """Hydrate model output from FILE (or stdin) into TARGET (pkg.mod:Type or a function).

    Prints the value as canonical JSON; on failure prints the text to send back to the
    model and exits with 1.
    """
    from sktypes.hydration import hydrate as run

    try:
        tp = _target(load_object(target))
    except SktypesError as exc:
        fail_on(exc)
    data = _read(source)
    try:
        value = run(tp, data, partial=partial, strict=strict, repair=not no_repair)
    except HydrationError as exc:
        click.echo(exc.for_llm())
        sys.exit(1)
    option = orjson.OPT_SORT_KEYS | (orjson.OPT_INDENT_2 if indent else 0)
    try:
        text = orjson.dumps(to_jsonable_python(value), option=option).decode()
    except (TypeError, ValueError, orjson.JSONEncodeError) as exc:
        fail(f"{target}: the value has no JSON form: {exc}")
    click.echo(text)
