"""``sktypes plan check|run PLAN.json``: check a plan's wiring, or check and run it.

``check --views TARGET...`` prints one line per issue (``PLAN.json:13:9: error: step 'w',
argument 'date': ...``: the line and column of the step or argument in the file).
``run --plugins TARGET...`` checks, then runs the plan on a kernel holding those plugins
and prints the output as JSON. Exit 0 when all is well (warnings are printed), 1 when the
check finds an error (or a warning under ``--strict``) or a step fails, 2 when the plan or
a target cannot be read.
"""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import click
import orjson
from pydantic import ValidationError
from pydantic_core import to_jsonable_python

from sktypes import _pointer
from sktypes._documents import read_file
from sktypes._positions import locate
from sktypes.cli._common import fail, fail_on
from sktypes.cli._targets import TargetError, load_module, load_object, load_views
from sktypes.errors import PlanError, SktypesError, format_error
from sktypes.hydration import hydrate
from sktypes.introspect import plugin_views
from sktypes.kernel import Kernel
from sktypes.limits import DEFAULT_LIMITS
from sktypes.plan import Plan, PlanIssue, PlanRunError, check_plan, run_plan
from sktypes.views import FunctionView

__all__ = ["plan", "read_plan"]


@click.group()
def plan() -> None:
    """Check plans (steps wired by JSONPath references) against function views; run them."""


@plan.command(short_help="Check a plan against the functions of targets.")
@click.argument("plan_file", metavar="PLAN.json")
@click.argument("more_views", nargs=-1, metavar="")
@click.option(
    "--views",
    "views",
    multiple=True,
    metavar="TARGET...",
    help="Functions the plan may call: pkg.mod:obj, pkg.mod, file.py, an OpenAPI spec or a "
    "tool list (repeatable; extra arguments after it are targets too).",
)
@click.option("--strict", is_flag=True, help="Fail on warnings (undecided compatibility) too.")
@click.option("--json", "as_json", is_flag=True, help="Print the issues as a JSON list.")
def check(
    plan_file: str, more_views: tuple[str, ...], views: tuple[str, ...], strict: bool, as_json: bool
) -> None:
    """Check PLAN.json against the functions of TARGETs; exit 1 on a problem."""
    targets = [*views, *more_views]
    if not targets:
        fail("no functions to check against: give --views TARGET...")
    raw, the_plan = _read(Path(plan_file))
    try:
        function_views = load_views(targets)
    except SktypesError as exc:
        fail_on(exc)
    if _report(plan_file, raw, the_plan, function_views, strict=strict, as_json=as_json):
        raise SystemExit(1)


def _report(
    plan_file: str,
    raw: bytes,
    the_plan: Plan,
    views: list[FunctionView],
    *,
    strict: bool,
    as_json: bool,
    quiet: bool = False,
) -> bool:
    """Print the plan's issues; return ``True`` when they fail the check."""
    issues = check_plan(the_plan, views)
    if as_json:
        click.echo(orjson.dumps([i.to_dict() for i in issues], option=orjson.OPT_INDENT_2))
    else:
        for issue in issues:
            line, column = _place(raw, _tokens_of(issue, the_plan))
            click.echo(format_error(str(issue), file=plan_file, line=line, column=column))
    failed = any(i.severity == "error" or strict for i in issues)
    if not failed and not as_json:
        n = len(the_plan.steps)
        ok = f"{plan_file}: ok ({n} step{'s' if n != 1 else ''} checked)"
        click.echo(ok, err=quiet or bool(issues))
    return failed


@plan.command(short_help="Check a plan, run it on plugins, print the results.")
@click.argument("plan_file", metavar="PLAN.json")
@click.argument("more_plugins", nargs=-1, metavar="")
@click.option(
    "--plugins",
    "plugins",
    multiple=True,
    metavar="TARGET...",
    help="Plugins to run on: pkg.mod:Class (instantiated without arguments), pkg.mod:obj, "
    "pkg.mod or file.py (every class with kernel functions), or an OpenAPI spec.",
)
@click.option("--strict", is_flag=True, help="Refuse to run on warnings too.")
@click.option("--no-check", is_flag=True, help="Run without checking the plan first.")
def run(
    plan_file: str,
    more_plugins: tuple[str, ...],
    plugins: tuple[str, ...],
    strict: bool,
    no_check: bool,
) -> None:
    """Check PLAN.json against the plugins of TARGETs, run it, print its output as JSON."""
    targets = [*plugins, *more_plugins]
    if not targets:
        fail("no plugins to run on: give --plugins TARGET...")
    raw, the_plan = _read(Path(plan_file))
    try:
        kernel = load_kernel(targets)
    except SktypesError as exc:
        fail_on(exc)
    if not no_check and _report(
        plan_file, raw, the_plan, kernel.views, strict=strict, as_json=False, quiet=True
    ):
        raise SystemExit(1)
    try:
        value = asyncio.run(run_plan(the_plan, kernel))
    except PlanRunError as exc:
        fail(f"{plan_file}: {exc}", code=1)
    click.echo(orjson.dumps(to_jsonable_python(value), option=orjson.OPT_INDENT_2))


def _tokens_of(issue: PlanIssue, the_plan: Plan) -> list[str | int]:
    """The JSON pointer tokens of the step (and argument) an issue is about."""
    if issue.step is None:
        return ["output"]
    index = next((i for i, s in enumerate(the_plan.steps) if s.id == issue.step), None)
    if index is None:
        return ["steps"]
    step: list[str | int] = ["steps", index]
    return [*step, "arguments", issue.argument] if issue.argument else step


def _place(raw: bytes, tokens: list[str | int]) -> tuple[int | None, int | None]:
    """The line and column of the deepest place along ``tokens`` that the file holds."""
    for end in range(len(tokens), -1, -1):
        found = locate(raw, _pointer.join("", *tokens[:end]) or "/")
        if found is not None:
            return found.key_line, found.key_column
    return None, None


def read_plan(path: Path) -> Plan:
    """Read a plan file; on a problem exit 2 with one line naming the file and the place.

    A file that is not JSON may be a model's answer (prose, a fenced block): it is read
    with ``sktypes.hydrate`` before giving up with the JSON error.
    """
    return _read(path)[1]


def _read(path: Path) -> tuple[bytes, Plan]:
    """The plan file's bytes (for the places of issues) and the plan, or exit 2."""
    try:  # the one loader's reader: never past the byte limit
        data = read_file(path, str(path), DEFAULT_LIMITS, SktypesError)
    except SktypesError as exc:
        fail_on(exc)
    try:
        return data, Plan.model_validate_json(data)
    except ValidationError as exc:
        if exc.errors()[0]["type"] == "json_invalid":
            try:
                return data, hydrate(Plan, data.decode("utf-8", errors="replace"))
            except SktypesError:
                pass  # report the JSON error: it has the line and column
            fail_on(_json_error(data, str(path)))
        first = exc.errors()[0]
        loc = [p for p in first["loc"] if isinstance(p, (int, str))]
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        message = first["msg"].removeprefix("Value error, ")
        line, column = _place(data, loc)
        error = PlanError(f"not a plan: {message}{more}", file=str(path), where=where)
        error.at_line(line, column)
        fail_on(error)


def _json_error(data: bytes, file: str) -> PlanError:
    """The place and reason of a plan file that is not JSON, as the stdlib parser reports it."""
    import json

    try:
        json.loads(data)
    except json.JSONDecodeError as exc:
        return PlanError(f"not JSON: {exc.msg}", file=file, line=exc.lineno, column=exc.colno)
    except ValueError as exc:  # not UTF-8
        return PlanError(f"not JSON: {exc}", file=file)
    return PlanError("not a plan", file=file)


def load_kernel(targets: list[str]) -> Kernel:
    """A kernel holding the plugins of ``targets`` (classes are instantiated without arguments).

    Raises:
        SktypesError: a target cannot be imported or read, or holds no kernel functions.
    """
    kernel = Kernel()
    for target in targets:
        path = Path(target)
        if path.suffix in (".yaml", ".yml", ".json"):
            from sktypes.openapi import load_openapi

            kernel.add_plugin(load_openapi(path))
        elif ":" in target:
            _add(kernel, load_object(target), target)
        else:
            module = load_module(target)
            added = 0
            for value in list(vars(module).values()):
                if isinstance(value, type) and value.__module__ == module.__name__:
                    try:
                        plugin_views(value)
                    except SktypesError:
                        continue  # a class without kernel functions
                    _add(kernel, value, target)
                    added += 1
            if not added:
                raise TargetError("no class with @kernel_function found", where=target)
    return kernel


def _add(kernel: Kernel, obj: Any, target: str) -> None:
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise TargetError(
                f"cannot create {obj.__name__}() to run on: {type(exc).__name__}: {exc}",
                where=target,
            ) from None
    if inspect.isfunction(obj):
        kernel.add_function(obj)
    else:
        kernel.add_plugin(obj)
