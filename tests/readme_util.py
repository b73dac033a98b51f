"""Read one capability's section of README.md (between ``<!-- section: NAME -->`` markers).

The README is the documentation; its examples are tests. Each capability's section is
delimited so its tests can run the examples in it.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_section(name: str) -> str:
    """Return the text of the README section ``name``."""
    text = README.read_text()
    match = re.search(
        rf"<!-- section: {re.escape(name)} -->\n(.*?)<!-- /section: {re.escape(name)} -->",
        text,
        re.DOTALL,
    )
    assert match is not None, f"README.md has no section {name!r}"
    return match.group(1)
