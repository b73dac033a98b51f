r"""Rendering fixes for the built site, where the Markdown reads right on GitHub but not here.

- A ``|`` inside code in a table row is written ``\|`` (GitHub's tables need it); MkDocs'
  tables already keep a code span's ``|`` in its cell and would show the backslash, so the
  backslash goes for the build (a regular expression in a table copies right).
- mkdocs-click prints an option without a default as ``Sentinel.UNSET`` under click 8.3
  (mkdocs/mkdocs-click#95, unreleased); the CLI reference shows what click applies: ``False``
  for a flag, ``None`` for any other option.

``tests/test_docs_site.py`` checks the built HTML for both.
"""

from __future__ import annotations

import re
from typing import Any

_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def _unescape_code(line: str) -> str:
    return _CODE_SPAN.sub(lambda m: m[1] + m[2].replace("\\|", "|") + m[1], line)


def table_code_pipes(markdown: str) -> str:
    r"""``\|`` inside the code spans of table rows, as ``|`` (fenced blocks untouched)."""
    out = []
    fence: str | None = None
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            mark = stripped[:3]
            fence = None if fence == mark else (fence or mark)
        elif fence is None and stripped.startswith("|") and "\\|" in line:
            line = _unescape_code(line)
        out.append(line)
    return "\n".join(out)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs hook: table rows' code shows ``|`` as written in a regular expression."""
    return table_code_pipes(markdown)


_IN_ROW = r"(?:(?!</tr>).)*?"
_FLAG_ROW = re.compile(
    rf"(<tr>\s*<td>{_IN_ROW}</td>\s*<td>boolean</td>{_IN_ROW}<td>)<code>Sentinel\.UNSET</code>",
    re.S,
)


def on_page_content(html: str, **_: Any) -> str:
    """MkDocs hook: the CLI reference's unset defaults read as click applies them.

    A flag left out is ``False``; any other option left out is ``None``.
    """
    html = _FLAG_ROW.sub(r"\1<code>False</code>", html)
    return html.replace("<code>Sentinel.UNSET</code>", "<code>None</code>")
