"""``sktypes plan check|run PLAN.json``: check a plan's wiring, or check and run it.

``check --views TARGET...`` prints one line per issue (``PLAN.json: error: step 'w',
argument 'date': ...``). ``run --plugins TARGET...`` checks, then runs the plan on a kernel
holding those plugins and prints the output as JSON. Exit 0 when all is well (warnings are
printed), 1 when the check finds an error (or a warning under ``--strict``) or a step fails,
2 when the plan or a target cannot be read.
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

from sktypes._documents import read_file
from sktypes.cli._common import fail
from sktypes.cli._targets import TargetError, load_module, load_object, load_views
from sktypes.errors import SktypesError
from sktypes.hydration import hydrate
from sktypes.introspect import plugin_views
from sktypes.kernel import Kernel
from sktypes.limits import DEFAULT_LIMITS
from sktypes.plan import Plan, PlanRunError, check_plan, run_plan
from sktypes.views import FunctionView

__all__ = ["plan", "read_plan"]


@click.group()
def plan() -> None:
    """Check plans (steps wired by JSONPath references) against function views; run them."""


@plan.command()
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
    the_plan = read_plan(Path(plan_file))
    try:
        function_views = load_views(targets)
    except SktypesError as exc:
        fail(str(exc).splitlines()[0])
    if _report(plan_file, the_plan, function_views, strict=strict, as_json=as_json):
        raise SystemExit(1)


def _report(
    plan_file: str,
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
            click.echo(f"{plan_file}: {issue}")
    failed = any(i.severity == "error" or strict for i in issues)
    if not failed and not as_json:
        n = len(the_plan.steps)
        ok = f"{plan_file}: ok ({n} step{'s' if n != 1 else ''} checked)"
        click.echo(ok, err=quiet or bool(issues))
    return failed


@plan.command()
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
    the_plan = read_plan(Path(plan_file))
    try:
        kernel = load_kernel(targets)
    except SktypesError as exc:
        fail(str(exc).splitlines()[0])
    if not no_check and _report(
        plan_file, the_plan, kernel.views, strict=strict, as_json=False, quiet=True
    ):
        raise SystemExit(1)
    try:
        value = asyncio.run(run_plan(the_plan, kernel))
    except PlanRunError as exc:
        fail(f"{plan_file}: {exc}", code=1)
    click.echo(orjson.dumps(to_jsonable_python(value), option=orjson.OPT_INDENT_2))


def read_plan(path: Path) -> Plan:
    """Read a plan file; on a problem exit 2 with one line naming the file and the place.

    A file that is not JSON may be a model's answer (prose, a fenced block): it is read
    with ``sktypes.hydrate`` before giving up with the JSON error.
    """
    try:  # the one loader's reader: never past the byte limit
        data = read_file(path, str(path), DEFAULT_LIMITS, SktypesError)
    except SktypesError as exc:
        fail(str(exc))
    try:
        return Plan.model_validate_json(data)
    except ValidationError as exc:
        if exc.errors()[0]["type"] == "json_invalid":
            try:
                return hydrate(Plan, data.decode("utf-8", errors="replace"))
            except SktypesError:
                pass  # report the JSON error: it has the line and column
        first = exc.errors()[0]
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        message = first["msg"].removeprefix("Value error, ")
        fail(f"{path}: {where}: not a plan: {message}{more}")


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
