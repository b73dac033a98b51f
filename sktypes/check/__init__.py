"""``sktypes check``: find problems in specs, schemas, manuals and generated packages.

Each checker takes a path and returns :class:`Finding` values (``path:place: reason``);
:func:`check_paths` picks the checker by what the file holds, not only by its name.
"""

from __future__ import annotations

from sktypes.check._checks import Finding, check_path, check_paths

__all__ = ["Finding", "check_path", "check_paths"]
