"""How to install an extra, said the same way by every message that needs one.

sktypes is not on PyPI, so ``pip install 'sktypes[mcp]'`` fails ("No matching
distribution") — or, should someone claim the name, installs someone else's code. What
works is installing from where this copy came from: a clone's folder, a built wheel or a
git URL. When pip recorded that source (PEP 610's ``direct_url.json``), the hint names it
exactly; otherwise it shows the three forms with what to put in.
"""

from __future__ import annotations

import json
from importlib import metadata
from urllib.parse import unquote, urlsplit

__all__ = ["install_hint", "missing_extra"]

_FORMS = (
    "pip install '/path/to/sktypes[{extra}]' (a clone), "
    "pip install './sktypes-{version}-py3-none-any.whl[{extra}]' (a built wheel) or "
    "pip install 'sktypes[{extra}] @ git+<the repository's URL>'; sktypes is not on PyPI"
)


def _source() -> str | None:
    """Where pip installed this sktypes from, as a requirement pip takes back, if it knows."""
    try:
        text = metadata.distribution("sktypes").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        record = json.loads(text)
        url = record["url"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(url, str):
        return None
    vcs = record.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        return f"@ {vcs['vcs']}+{url}"
    if url.startswith("file:"):
        return unquote(urlsplit(url).path)
    return f"@ {url}"


def install_hint(extra: str) -> str:
    """The command that adds ``extra`` to this installation of sktypes."""
    source = _source()
    if source is None:
        try:
            version = metadata.version("sktypes")
        except metadata.PackageNotFoundError:
            version = "VERSION"
        return _FORMS.format(extra=extra, version=version)
    if source.startswith("@ "):
        return f"pip install 'sktypes[{extra}] {source}'"
    return f"pip install '{source}[{extra}]'"


def missing_extra(module: str, what: str, extra: str, exc: ImportError) -> ImportError:
    """The error for an optional module whose framework is not installed.

    A ``ModuleNotFoundError`` naming the framework and the missing module (``.name``, as the
    import's own would), with the install command that works in its message; ``exc`` itself
    when what is missing is part of sktypes (a bug, not a missing extra).
    """
    name = exc.name or what
    if not isinstance(exc, ModuleNotFoundError) or name.partition(".")[0] == "sktypes":
        return exc
    message = f"{module} needs {what} ({name} is not installed): {install_hint(extra)}"
    return ModuleNotFoundError(message, name=name)
