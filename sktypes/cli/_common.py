"""Helpers shared by CLI commands: one-line errors, output files, target loading."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from sktypes._atomic import write_atomic
from sktypes._documents import locate_error
from sktypes.errors import SktypesError

__all__ = [
    "exclude_option",
    "fail",
    "fail_on",
    "include_option",
    "no_validate_option",
    "ref_root_option",
    "strict_option",
    "quiet_option",
    "verbose_option",
    "warn",
    "write_atomic",
    "write_output",
]

quiet_option = click.option(
    "--quiet", "-q", is_flag=True, help="Print only findings and errors (no summary, no progress)."
)
verbose_option = click.option(
    "--verbose", "-v", is_flag=True, help="Also list everything checked or written (stderr)."
)
include_option = click.option(
    "--include",
    multiple=True,
    metavar="PATTERN",
    help="Only operations matching: tag:T, id:OPERATION_ID, 'GET /path/*', or a bare "
    "tag/operationId/function-name glob (repeatable).",
)
exclude_option = click.option(
    "--exclude",
    multiple=True,
    metavar="PATTERN",
    help="Leave out operations matching PATTERN (the forms of --include; repeatable).",
)
ref_root_option = click.option(
    "--ref-root",
    "ref_roots",
    multiple=True,
    metavar="DIR",
    help="A directory the spec's $refs may read besides the spec's own (repeatable).",
)


no_validate_option = click.option(
    "--no-validate",
    "no_validate",
    is_flag=True,
    help="Skip spec validation; use the operations that can be understood.",
)
strict_option = click.option(
    "--strict",
    is_flag=True,
    help="Spec validation problems are errors (exit 2). Default: each is a warning "
    "naming its JSON pointer, and the operations that can be understood are used.",
)


def warn(message: str) -> None:
    """Print ``warning: message`` on stderr."""
    click.echo(f"warning: {message}", err=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``sktypes: error: message`` on stderr and exit with ``code``."""
    click.echo(f"sktypes: error: {message}", err=True)
    sys.exit(code)


def fail_on(exc: SktypesError, code: int = 2, *, file: str | None = None) -> NoReturn:
    """Report an sktypes error in one line (its first line) and exit.

    A JSON pointer in a file is given its line and column as well
    (``file:line:column: /pointer: reason``), for editors to jump to; ``file`` names the
    input when the error names none.
    """
    if file is not None and exc.file is None:
        exc = type(exc)(exc.message, **exc.location()._replace(file=file)._asdict())
    lines = str(locate_error(exc)).splitlines()
    fail(lines[0] if lines else type(exc).__name__, code)


def write_output(text: str, output: str | None, what: str = "") -> None:
    """Print ``text``, or write it atomically to ``output`` and say so on stderr.

    ``what`` says what was written (``2 functions``), after the file's name.
    """
    if output is None or output == "-":
        click.echo(text)
    else:
        write_atomic(Path(output), text if text.endswith("\n") else text + "\n")
        click.echo(f"wrote {output}" + (f" ({what})" if what else ""), err=True)
