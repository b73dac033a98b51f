"""``sktypes check [PATH...]``: the pre-commit check.

Exit 0 clean, 1 findings (one line each on stdout), 2 unusable input (a missing path, an
unreadable ``[tool.sktypes]``). A summary line of what was checked goes to stderr unless
``--quiet``. Without PATH, the ``[tool.sktypes]`` targets and their specs are checked.
"""

from __future__ import annotations

from pathlib import Path

import click

from sktypes.cli._common import fail, fail_on, quiet_option, verbose_option
from sktypes.cli._config import Budget, Target, find_pyproject, read_budgets, read_targets
from sktypes.cli._progress import stages
from sktypes.errors import SktypesError

__all__ = ["check"]


@click.command()
@click.argument("paths", nargs=-1)
@quiet_option
@verbose_option
def check(paths: tuple[str, ...], quiet: bool, verbose: bool) -> None:
    """Check OpenAPI specs, JSON Schemas, functions manuals, prompt configs and packages.

    Directories are walked; a changed spec (or a file it $refs) checks every package
    generated from it. Generated packages are compared with a fresh generation.
    """
    from sktypes.check import run_check

    pyproject = find_pyproject()
    try:
        targets = read_targets(pyproject) if pyproject is not None else []
        budgets = read_budgets(pyproject) if pyproject is not None else []
    except SktypesError as exc:
        fail_on(exc)
    if not paths and not targets and not budgets:
        fail("no PATH given (and no [tool.sktypes] generate targets or budgets in pyproject.toml)")
    configured = [t.package for t in targets if t.package is not None]
    given = list(paths) or [str(t.spec) for t in targets]
    edited_config = pyproject is not None and any(
        Path(p).resolve() == pyproject.resolve() for p in paths
    )
    held = budgets if not paths or edited_config else _budgeted(budgets, paths)
    try:
        with stages("checking", enabled=not quiet):
            report = run_check(
                given,
                root=pyproject.parent if pyproject is not None else Path.cwd(),
                targets=configured if not paths or edited_config else _affected(targets, paths),
            )
            report.add_budgets(held)
    except SktypesError as exc:
        fail_on(exc)
    for finding in report.findings:
        click.echo(str(finding))
    if verbose:
        for kind, path in report.items:
            click.echo(f"checked {kind} {path}", err=True)
    if not quiet:
        click.echo(report.summary(), err=True)
    raise SystemExit(1 if report.findings else 0)


def _budgeted(budgets: list[Budget], paths: tuple[str, ...]) -> list[Budget]:
    """Budgets whose source is among ``paths`` (or under a directory given)."""
    resolved = [Path(p).resolve() for p in paths]
    return [
        b
        for b in budgets
        if any(b.source.resolve() == p or p in b.source.resolve().parents for p in resolved)
    ]


def _affected(targets: list[Target], paths: tuple[str, ...]) -> list[Path]:
    """Configured packages whose spec is among ``paths`` (or under a directory given)."""
    out = []
    resolved = [Path(p).resolve() for p in paths]
    for t in targets:
        if t.package is None:
            continue
        spec = t.spec.resolve()
        if any(spec == p or p in spec.parents for p in resolved):
            out.append(t.package)
    return out
