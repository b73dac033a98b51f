"""``sktypes serve TARGET... [--transport stdio|http] [--host H --port N] [--include P]...``."""

from __future__ import annotations

import logging
import os
import re
import signal
import sys
from collections.abc import Mapping

import click

from sktypes.cli._common import (
    exclude_option,
    fail,
    fail_on,
    include_option,
    no_validate_option,
    quiet_option,
    strict_option,
)
from sktypes.cli._progress import stages
from sktypes.errors import SktypesError
from sktypes.manual._shown import DETAILS
from sktypes.remote._secrets import register_secret

__all__ = ["serve"]


@click.command()
@click.argument("targets", nargs=-1, required=True)
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio (started by the client) or streamable HTTP.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: interface to bind.")
@click.option("--port", default=8000, show_default=True, type=int, help="HTTP: port (0: any).")
@click.option("--path", default="/mcp", show_default=True, help="HTTP: the endpoint's path.")
@click.option(
    "--allow-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="HTTP: also accept requests whose Host is NAME (loopback names and addresses are "
    "accepted on a loopback --host; * accepts any). Repeatable.",
)
@click.option(
    "--allow-origin",
    "allowed_origins",
    multiple=True,
    metavar="ORIGIN",
    help="HTTP: also accept browser requests from ORIGIN (scheme://host[:port], port * for "
    "any; loopback origins are accepted; * accepts any). Repeatable.",
)
@click.option("--base-url", default=None, help="The API's URL (replaces the spec's servers).")
@include_option
@exclude_option
@click.option(
    "--impl",
    "implementations",
    multiple=True,
    help="Module implementing the functions of a tool-list target. Repeatable.",
)
@click.option(
    "--name",
    default=None,
    help="The server name clients see (default: the plugin's name; for a spec, a short form "
    "of its title).",
)
@click.option(
    "--header",
    "headers",
    multiple=True,
    metavar="'NAME: VALUE'",
    help="A header every API request sends, e.g. 'Authorization: Bearer ${GITHUB_TOKEN}' "
    "for a spec that declares no security scheme; ${VAR} is read from the environment "
    "(keep secrets out of process listings). Repeatable.",
)
@click.option(
    "--drift",
    type=click.Choice(["warn", "error"]),
    default="warn",
    show_default=True,
    help="A result that breaks its output schema: returned with a warning, or an error.",
)
@click.option(
    "--detail",
    type=click.Choice(DETAILS),
    default="full",
    show_default=True,
    help="How much tools/list says of each tool: full, compact (every enforced constraint, "
    "first sentences), names (name and one line). Calls are checked in full at every level.",
)
@click.option(
    "--max-stream-items",
    default=1000,
    show_default=True,
    type=click.IntRange(min=1),
    help="A streamed operation's result holds at most this many items (then it is cut, "
    "with a note).",
)
@click.option(
    "--max-stream-bytes",
    default=1_000_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="... and at most this many bytes of JSON.",
)
@no_validate_option
@strict_option
@click.option("--verbose", "-v", is_flag=True, help="Log each call (tool, duration, status).")
@quiet_option
def serve(
    targets: tuple[str, ...],
    transport: str,
    host: str,
    port: int,
    path: str,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
    base_url: str | None,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    implementations: tuple[str, ...],
    name: str | None,
    headers: tuple[str, ...],
    drift: str,
    detail: str,
    max_stream_items: int,
    max_stream_bytes: int,
    no_validate: bool,
    strict: bool,
    verbose: bool,
    quiet: bool,
) -> None:
    """Serve TARGETS as an MCP server: Python plugins, OpenAPI specs, generated packages, tools.

    Credentials for a spec's security schemes are read from SKTYPES_AUTH_* environment
    variables; --header adds headers for specs that declare none (see the MCP guide of the
    documentation). Logs go to stderr; stdout is the protocol's in stdio mode. Over HTTP, every
    request's Host and Origin are checked (DNS rebinding): a foreign Host is answered 421, a
    foreign Origin 403, whatever --host is. Loading a big spec shows its stage (reading,
    validating, building views) on a terminal's stderr after a second; -q keeps it silent.
    """
    try:
        from sktypes.integrations import mcp
    except ImportError as exc:
        from sktypes._install import missing_extra

        fail(str(missing_extra("sktypes serve", "the MCP SDK", "mcp", exc)))
    _logging(verbose)
    try:
        extra = header_values(headers, os.environ)
        with stages("loading targets", enabled=not quiet):
            app = mcp.server(
                list(targets),
                name=name,
                base_url=base_url,
                include=include,
                exclude=exclude,
                implementations=implementations,
                headers=extra,
                drift="error" if drift == "error" else "warn",
                trace=verbose,
                stream_items=max_stream_items,
                stream_bytes=max_stream_bytes,
                validate=not no_validate,
                strict=strict,
                detail=detail,
            )
    except SktypesError as exc:
        fail_on(exc)
    # SIGTERM stops the server the way Ctrl-C does: sessions end, the HTTP client closes
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        mcp.run(
            app,
            "http" if transport == "http" else "stdio",
            host=host,
            port=port,
            path=path,
            ready=lambda url: click.echo(f"sktypes serve: listening on {url}", err=True),
            allowed_hosts=allowed_hosts,
            allowed_origins=allowed_origins,
        )
    except KeyboardInterrupt:
        pass
    except ValueError as exc:  # an --allow-host or --allow-origin that cannot be read
        fail(f"sktypes serve: {exc}")
    except OSError as exc:  # the port is taken, the host cannot be bound
        fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
    sys.exit(0)


_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def header_values(specs: tuple[str, ...], env: Mapping[str, str]) -> dict[str, str]:
    """``--header 'Name: value'`` options as a dict; ``${VAR}`` read from ``env``.

    Raises:
        SktypesError: an option without ``:``, or a variable that is not set (the message
            names the header and the variable, never a value).
    """
    out: dict[str, str] = {}
    for spec in specs:
        name, colon, value = spec.partition(":")
        name = name.strip()
        if not colon or not name:
            raise SktypesError(f"--header {name or spec!r}: expected 'Name: value'")

        def variable(match: re.Match[str], header: str = name) -> str:
            found = env.get(match[1])
            if found is None:
                raise SktypesError(f"--header {header!r}: ${{{match[1]}}} is not set")
            register_secret(found)  # read from the environment: kept out of sight
            return found

        out[name] = _VARIABLE.sub(variable, value.strip())
    return out


def _logging(verbose: bool) -> None:
    """Everything to stderr (stdout carries the protocol); secrets-bearing loggers quiet."""
    logging.basicConfig(
        stream=sys.stderr,
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # httpx logs every URL at INFO, query-string API keys included; the SDK is chatty
    for name in ("httpx", "httpcore", "mcp", "uvicorn", "uvicorn.error", "sse_starlette"):
        logging.getLogger(name).setLevel(logging.WARNING)
