"""``sktypes check``: find problems in specs, schemas, manuals and generated packages.

:func:`run_check` takes paths as a person or pre-commit gives them (directories are walked;
a changed spec or ``$ref``'d file checks every package generated from it, found through the
packages' ``sktypes.json`` link records) and returns a :class:`CheckReport`: the
:class:`Finding` values (``path:place: reason``) and what was checked, by kind.
"""

from __future__ import annotations

from sktypes.check._findings import Finding
from sktypes.check._run import CheckReport, MissingPathError, check_paths, run_check

__all__ = ["CheckReport", "Finding", "MissingPathError", "check_paths", "run_check"]
