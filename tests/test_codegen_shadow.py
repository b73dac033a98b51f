"""``shadowed`` scans the installed distributions only for a name something imports.

``importlib.metadata.packages_distributions()`` reads every installed distribution's file
list (a third of a second in a large environment, on every ``generate``); a package name
nothing imports cannot shadow anything, so it is answered without it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sktypes_codegen import _shadow


def test_a_name_nothing_imports_needs_no_scan(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def scan() -> dict[str, list[str]]:
        raise AssertionError("packages_distributions() was called")

    monkeypatch.setattr(_shadow, "packages_distributions", scan)
    assert _shadow.shadowed("no_module_is_called_this_3f9a", tmp_path) is None


@pytest.mark.parametrize("name", ["os", "httpx", "pydantic", "sktypes"])
def test_an_importable_name_is_still_refused(name: str, tmp_path: Path) -> None:
    assert _shadow.shadowed(name, tmp_path) is not None


def test_an_importable_module_no_distribution_owns_is_allowed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "local_pkg_7c1e").mkdir()
    (tmp_path / "local_pkg_7c1e" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _shadow.shadowed("local_pkg_7c1e", tmp_path / "out") is None
