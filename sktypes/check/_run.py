"""``sktypes check``'s walk: which things to check for the paths given, and the report.

Paths come from a person (``sktypes check .``) or from pre-commit (only the changed files).
Either way every affected generated package is checked:

- a directory is walked: each generated package inside (checked whole, not file by file),
  and each spec, JSON Schema, functions manual and prompt template config;
- a file inside a generated package checks that package;
- a spec, or any file a spec ``$ref``s, checks every package whose link record lists it as
  an input (link records are found under ``root``, the working directory by default), and
  the spec itself;
- ``targets`` (from ``[tool.sktypes]``) add their packages: a configured package that does
  not exist yet is a finding.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sktypes.check._budget import BudgetLike, check_budget
from sktypes.check._checks import check_file
from sktypes.check._findings import Finding, display
from sktypes.check._packages import SKIP_DIRS, check_package, is_package_root, package_of
from sktypes.check._tree import entry_problem, inside, repository_of, resolved
from sktypes.errors import SktypesError

if TYPE_CHECKING:
    from sktypes_codegen._link import Link

__all__ = ["CheckReport", "MissingPathError", "check_paths", "run_check"]

_DATA_SUFFIXES = (".json", ".yaml", ".yml")
_KIND_NAMES = {
    "package": ("package", "packages"),
    "spec": ("spec", "specs"),
    "schema": ("schema", "schemas"),
    "manual": ("manual", "manuals"),
    "budget": ("token budget", "token budgets"),
    "prompt": ("prompt config", "prompt configs"),
    "file": ("file", "files"),
}


class MissingPathError(SktypesError):
    """A path given to ``sktypes check`` does not exist (unusable input: exit 2)."""


@dataclass(slots=True)
class CheckReport:
    """What a check run found, and what it checked (by kind)."""

    findings: list[Finding] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)
    items: list[tuple[str, str]] = field(default_factory=list)
    """``(kind, path)`` of everything checked, in order."""

    def add_budgets(self, budgets: Sequence[BudgetLike]) -> None:
        """Hold each manual (or served source) to its token budget (``[tool.sktypes]``)."""
        for budget in budgets:
            self.findings.extend(check_budget(budget))
            self.checked["budget"] += 1
            self.items.append(("budget", display(budget.source)))

    def summary(self) -> str:
        """One line: what was checked and how many findings (``sktypes check: ...``)."""
        parts = [
            f"{n} {_KIND_NAMES.get(k, (k, k + 's'))[n != 1]}"
            for k, n in sorted(self.checked.items(), key=lambda kv: list(_KIND_NAMES).index(kv[0]))
        ]
        what = ", ".join(parts) if parts else "nothing to check"
        n = len(self.findings)
        return f"sktypes check: {what}; {n} finding{'s' if n != 1 else ''}"


def check_paths(paths: Iterable[str]) -> list[Finding]:
    """Check every path; return the findings (see :func:`run_check`)."""
    return run_check(paths).findings


def run_check(
    paths: Iterable[str], *, root: Path | None = None, targets: Sequence[Path] = ()
) -> CheckReport:
    """Check ``paths`` (files or directories) and the packages ``targets`` name.

    Raises:
        MissingPathError: a path does not exist.
    """
    given = [Path(p) for p in paths]
    for path in given:
        if not path.exists():
            raise MissingPathError("no such file or directory", file=str(path))
    run = _Run(root or Path.cwd())
    for path in given:
        if path.is_dir():
            run.directory(path)
        else:
            run.file(path)
    for package in targets:
        if not package.is_dir():
            run.report.findings.append(
                Finding(display(package), "", "configured in [tool.sktypes] but not generated yet")
            )
        else:
            run.package(package)
    return run.report


class _Run:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.report = CheckReport()
        self._done: set[Path] = set()
        self._links: list[Link] | None = None

    def _once(self, path: Path, *, resolve: bool = True) -> bool:
        key = resolved(path) if resolve else path.absolute()
        if key in self._done:
            return False
        self._done.add(key)
        return True

    def package(self, package: Path) -> None:
        if self._once(package):
            self._record("package", package, check_package(package))

    def _record(self, kind: str, path: Path, findings: list[Finding]) -> None:
        self.report.checked[kind] += 1
        self.report.items.append((kind, display(path)))
        self.report.findings.extend(findings)

    def file(self, path: Path, tree: Path | None = None) -> None:
        package = package_of(path)
        if package is not None:
            self.package(package)
            return
        if path.suffix not in _DATA_SUFFIXES:
            for link in self._linked_to(path):
                self.package(link.package)
            return
        problem = entry_problem(path, tree or repository_of(path))  # lstat first: never opened
        if problem is not None:
            if self._once(path, resolve=False):
                self._record("file", path, [Finding(display(path), "", problem)])
            return
        for link in self._linked_to(path):
            self.package(link.package)
        if self._once(path):
            kind, findings = check_file(path)
            if kind is not None:
                self._record(kind, path, findings)

    def directory(self, top: Path) -> None:
        if is_package_root(top):
            self.package(top)
            return
        tree = repository_of(top)
        for dirpath, dirnames, filenames in os.walk(top):  # symlinked folders: not descended
            here = Path(dirpath)
            keep = []
            for d in sorted(dirnames):
                if d in SKIP_DIRS or d.startswith("."):
                    continue
                if os.path.islink(here / d):
                    self._linked_folder(here / d, tree)
                elif is_package_root(here / d):
                    self.package(here / d)
                else:
                    keep.append(d)
            dirnames[:] = keep
            for name in sorted(filenames):
                if name.endswith(_DATA_SUFFIXES):
                    self.file(here / name, tree)

    def _linked_folder(self, path: Path, tree: Path) -> None:
        """A symlink to a folder: checked where it lies when that is in the tree, else a finding."""
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return  # dangling: nothing to check
        if not inside(target, tree) and self._once(path, resolve=False):
            problem = f"a symlink to {os.readlink(path)}, outside the repository ({tree}): not read"
            self._record("file", path, [Finding(display(path), "", problem)])

    def _linked_to(self, path: Path) -> Iterator[Link]:
        target = resolved(path)
        for link in self._all_links():
            if target in link.inputs or target == link.spec:
                yield link

    def _all_links(self) -> list[Link]:
        if self._links is None:
            from sktypes_codegen._link import LINK_FILE, read_link

            self._links = []
            for dirpath, dirnames, filenames in os.walk(self.root):
                dirnames[:] = sorted(
                    d for d in dirnames if d not in SKIP_DIRS and not d.startswith(".")
                )
                if LINK_FILE in filenames:
                    record = Path(dirpath) / LINK_FILE
                    if entry_problem(record, repository_of(record)) is not None:
                        continue  # reported when that package itself is checked
                    try:
                        link = read_link(Path(dirpath))
                    except SktypesError:
                        continue  # reported when that package itself is checked
                    if link is not None:
                        self._links.append(link)
        return self._links
