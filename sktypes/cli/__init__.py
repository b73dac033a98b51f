"""The ``sktypes`` command line: one entry point, one module per command.

Exit codes: 0 ok, 1 a check failed, 2 bad input (always one line naming the file and the
place, never a traceback for a user's mistake).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Sequence

import click

__all__ = ["main"]

# command name -> (module, attribute, one-line help); modules are imported on use
_COMMANDS: dict[str, tuple[str, str, str]] = {
    "manual": ("sktypes.cli._manual", "manual", "Print the functions manual of targets."),
    "views": ("sktypes.cli._views", "views", "Print the function views of targets as JSON."),
    "schema": ("sktypes.cli._schema", "schema", "Print the JSON Schema of a Python type."),
    "hydrate": ("sktypes.cli._hydrate", "hydrate", "Hydrate LLM output into a Python type."),
    "generate": ("sktypes.cli._generate", "generate", "Generate a typed plugin from a spec."),
    "stubs": ("sktypes.cli._stubs", "stubs", "Generate a typed stub module from tools."),
    "check": ("sktypes.cli._check", "check", "Check specs, schemas, manuals, packages."),
    "plan": ("sktypes.cli._plan", "plan", "Check plans against function views."),
    "serve": ("sktypes.cli._serve", "serve", "Serve plugins, specs or packages over MCP."),
    "example": ("sktypes.cli._example", "example", "Write the guides' example files into DIR."),
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return [n for n, (mod, _, _) in _COMMANDS.items() if importlib.util.find_spec(mod)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = _COMMANDS.get(cmd_name)
        if entry is None or importlib.util.find_spec(entry[0]) is None:
            return None
        command = getattr(importlib.import_module(entry[0]), entry[1])
        assert isinstance(command, click.Command)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(n, _COMMANDS[n][2]) for n in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="sktypes")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Neither read nor write the per-user cache of results recorded by content: "
    "validation verdicts, specs check found clean, and serve's loaded specs and tools/list "
    "results (also SKTYPES_NO_CACHE=1; its place: SKTYPES_CACHE_DIR, else "
    "$XDG_CACHE_HOME/sktypes).",
)
def cli(no_cache: bool) -> None:
    """sktypes: type information for LLM function calling."""
    if no_cache:
        os.environ["SKTYPES_NO_CACHE"] = "1"


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI (the console script ``sktypes``)."""
    cli.main(args=list(argv) if argv is not None else sys.argv[1:], prog_name="sktypes")
