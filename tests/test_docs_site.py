"""The documentation site builds strict, is complete, and renders in a real browser.

- ``mkdocs build --strict`` passes: no broken link or anchor, no missing API reference, every
  page in ``nav`` (``mkdocs.yml`` turns those into warnings, strict into errors).
- The tables computed from the code (``docs/_hooks/tables.py``) are current in the committed
  pages (``make golden`` rewrites them).
- The built API inventory holds every public name.
- Headless Chromium (Debian's ``chromium``) opens the built index and a reference page and finds
  the title, the navigation and a code block. Skipped, saying why, where Chromium is absent:
  ``make test`` does not install it (``make browser`` does; CI runs that first).
"""

from __future__ import annotations

import functools
import html
import html.parser
import http.server
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

import sktypes
from tests.docs_examples import public_modules

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
pytestmark = pytest.mark.xdist_group("docs-site")


def _tables() -> object:
    spec = importlib.util.spec_from_file_location("docs_tables", DOCS / "_hooks" / "tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their module through sys.modules
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strict from this checkout into a scratch directory."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    problems = [
        line
        for line in completed.stderr.splitlines()
        if line.startswith(("WARNING", "ERROR")) or "Aborted" in line
    ]
    assert completed.returncode == 0, "\n".join(problems) or completed.stderr[-4000:]
    assert not problems, "\n".join(problems)
    return out


def _nav_pages(node: object) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from _nav_pages(item)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _nav_pages(value)


def _config() -> dict[str, object]:
    class Loader(yaml.SafeLoader):
        pass

    # mkdocs.yml may hold !ENV or !!python/name tags; the nav never does
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    loaded = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    assert isinstance(loaded, dict)
    return loaded


def test_every_page_is_in_the_nav_and_every_nav_entry_exists() -> None:
    nav = set(_nav_pages(_config()["nav"]))
    pages = {
        page.relative_to(DOCS).as_posix()
        for page in DOCS.rglob("*.md")
        if not page.relative_to(DOCS).as_posix().startswith("_")
    }
    assert pages - nav == set(), "add these pages to `nav` in mkdocs.yml"
    assert nav - pages == set(), "these `nav` entries have no page"


def test_docs_pages_cited_in_the_code_exist() -> None:
    cited: set[tuple[str, str]] = set()
    for folder in ("sktypes", "sktypes_codegen", "tests", "benchmarks", "examples"):
        for path in (ROOT / folder).rglob("*.py"):
            for match in re.finditer(r"\bdocs/[\w./-]+\.md\b", path.read_text(errors="replace")):
                cited.add((path.relative_to(ROOT).as_posix(), match.group()))
    assert cited, "nothing cites a page; the pattern is wrong"
    missing = sorted((where, page) for where, page in cited if not (ROOT / page).is_file())
    assert missing == []


def test_generated_tables_golden() -> None:
    """The committed pages hold what the code computes (SKTYPES_UPDATE_GOLDEN=1 rewrites)."""
    tables = _tables()
    pages = tables.pages_with_tables()  # type: ignore[attr-defined]
    assert {page.name for page in pages} >= {"dialects.md", "providers.md", "errors.md"}
    stale = []
    for page in pages:
        text = page.read_text()
        fresh = tables.refresh(text)  # type: ignore[attr-defined]
        if fresh != text:
            if os.environ.get("SKTYPES_UPDATE_GOLDEN"):
                page.write_text(fresh)
            else:
                stale.append(page.relative_to(ROOT).as_posix())
    assert stale == [], "generated tables are out of date: run `make golden` and review the diff"


def test_site_builds_strict(site: Path) -> None:
    assert (site / "index.html").is_file()
    assert (site / "reference" / "cli.html").is_file()
    cli = (site / "reference" / "cli.html").read_text()
    for command in ("manual", "generate", "check", "hydrate", "plan"):
        assert f"sktypes {command}" in cli, command  # generated from the click commands


def _inventory(site: Path) -> set[str]:
    data = (site / "objects.inv").read_bytes()
    header_end = 0
    for _ in range(4):  # four text lines, then the zlib stream
        header_end = data.index(b"\n", header_end) + 1
    lines = zlib.decompress(data[header_end:]).decode().splitlines()
    return {line.split(" ", 1)[0] for line in lines}


def test_built_reference_documents_every_public_name(site: Path) -> None:
    inventory = _inventory(site)
    missing = []
    for module_name in public_modules():
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # an optional extra that is not installed here
            continue
        for name in getattr(module, "__all__", ()):
            if name == "__version__":
                continue
            obj = getattr(module, name)
            places = {f"{module_name}.{name}"}
            if name in sktypes.__all__ and getattr(sktypes, name) is obj:
                places.add(f"sktypes.{name}")
            for other in public_modules():  # re-exported by a parent package's page
                parent = sys.modules.get(other) if module_name.startswith(other + ".") else None
                if parent is not None and getattr(parent, name, None) is obj:
                    places.add(f"{other}.{name}")
            if not places & inventory:
                missing.append(f"{module_name}.{name}")
    assert missing == []


class _Page(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.nav_links: list[str] = []
        self.code_blocks = 0
        self._stack: list[tuple[str, dict[str, str]]] = []
        self._in_title = False
        self._in_nav = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        if tag == "title":
            self._in_title = True
        if tag == "nav" and (self._in_nav or "md-nav--primary" in attributes.get("class", "")):
            self._in_nav += 1
        if tag == "a" and self._in_nav and attributes.get("href"):
            self.nav_links.append(attributes["href"])
        if tag == "code" and self._stack and self._stack[-1][0] == "pre":
            self.code_blocks += 1
        if tag not in {"br", "img", "input", "meta", "link", "hr"}:
            self._stack.append((tag, attributes))

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag == "nav" and self._in_nav:
            self._in_nav -= 1
        while self._stack:
            if self._stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


@functools.cache
def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture
def chromium() -> str:
    """Chromium's path; the test is skipped, saying why, where there is none."""
    found = _chromium()
    if found is None:
        pytest.skip("chromium not found: `make browser` installs Debian's chromium (needs root)")
    return found


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site on a local HTTP server (127.0.0.1, an ephemeral port)."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(site), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _headless(chromium: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--user-data-dir={profile}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _render(chromium: str, url: str, profile: Path) -> tuple[_Page, str]:
    """The DOM Chromium built for ``url`` (scripts run), parsed and as text."""
    completed = _headless(chromium, profile, "--virtual-time-budget=3000", "--dump-dom", url)
    assert completed.returncode == 0, completed.stderr[-3000:]
    page = _Page()
    page.feed(completed.stdout)
    text = html.unescape(re.sub(r"<[^>]+>", "", completed.stdout))
    return page, text


@pytest.mark.parametrize(
    ("path", "title", "code"),
    [
        ("", "sktypes", "import sktypes as sk"),
        ("reference/api/sktypes.html", "sktypes", "hydrate("),
    ],
)
def test_a_browser_renders_the_site(
    chromium: str, served: str, tmp_path: Path, path: str, title: str, code: str
) -> None:
    page, text = _render(chromium, f"{served}/{path}", tmp_path / "profile")
    assert title in page.title
    assert len(page.nav_links) >= 20, page.nav_links
    assert any(link.endswith("getting-started.html") for link in page.nav_links)
    assert page.code_blocks >= 1
    assert code in text


def test_the_built_pages_have_none_of_the_known_rendering_faults(site: Path) -> None:
    """Issue 29: code in tables shows ``|`` (not ``\\|``), the CLI reference no sentinel."""
    faults = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text()
        where = page.relative_to(site).as_posix()
        for cell in re.findall(r"<td>(.*?)</td>", text, re.S):
            if re.search(r"<code>[^<]*\\\|", cell):
                faults.append(f"{where}: a literal \\| in a table's code: {cell[:80]}")
        prose = re.sub(r"<pre.*?</pre>", "", text, flags=re.S)  # code blocks may hold regexes
        for shown in re.findall(r"<(?:li|p|td)>(?:(?!</(?:li|p|td)>).)*\\\|", prose, re.S):
            faults.append(f"{where}: a literal \\| in the text: {shown[-80:]}")
        if "Sentinel.UNSET" in text:
            faults.append(f"{where}: Sentinel.UNSET shown")
    assert faults == []
    cli = (site / "reference" / "cli.html").read_text()
    assert "<code>None</code>" in cli
    flags = re.findall(
        r"<tr>\s*<td>(?:(?!</tr>).)*?<td>boolean</td>(?:(?!</tr>).)*?</tr>", cli, re.S
    )
    assert flags and all("<code>False</code>" in row for row in flags if "--split" not in row), (
        "a flag left out is False, not None"
    )
    hydration = (site / "hydration.html").read_text()
    assert "<code>int | None</code>" in hydration


SCREENSHOTS = ROOT / "build" / "screenshots"
MAIN_PAGES = (
    "index",
    "getting-started",
    "openapi",
    "generate",
    "mcp",
    "manuals",
    "hydration",
    "workflow",
    "concepts/dialects",
    "reference/cli",
    "reference/errors",
    "reference/api/sktypes",
)
"""The pages a newcomer reads first, photographed into :data:`SCREENSHOTS` (git-ignored; CI
keeps the folder as an artifact) for a person to look at."""


@pytest.mark.parametrize("page", MAIN_PAGES)
def test_screenshots_of_the_main_pages(
    chromium: str, site: Path, tmp_path: Path, page: str
) -> None:
    """Each main page, opened from ``file://`` as a downloaded site is, as a PNG."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"{page.replace('/', '-')}.png"
    shot.unlink(missing_ok=True)
    url = (site / f"{page}.html").as_uri()
    taken = _headless(
        chromium,
        tmp_path / "profile",
        "--virtual-time-budget=3000",
        "--window-size=1280,2400",
        f"--screenshot={shot}",
        url,
    )
    assert taken.returncode == 0, taken.stderr[-3000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 20_000, "an empty page"  # a blank 1280x2400 PNG is ~10 KB


def test_the_header_search_works_from_file_urls(chromium: str, site: Path, tmp_path: Path) -> None:
    """Opened from ``file://`` (no server), the search box finds pages (the offline plugin)."""
    url = (site / "index.html").as_uri() + "?q=hydrate"
    completed = _headless(chromium, tmp_path / "p", "--virtual-time-budget=6000", "--dump-dom", url)
    assert completed.returncode == 0, completed.stderr[-3000:]
    found = re.search(r'md-search-result__meta">\s*(\d+) matching document', completed.stdout)
    assert found is not None and int(found.group(1)) >= 5, completed.stdout[-2000:]


def test_the_site_searches_offline_and_loads_nothing_remote(site: Path) -> None:
    """The search index is inlined for ``file://`` and its worker shim is the site's own."""
    assert (site / "search" / "search_index.js").read_text().startswith("var __index = ")
    for page in sorted(site.rglob("*.html")):
        text = page.read_text()
        scripts = re.findall(r'<script[^>]*src="([^"]+)"', text)
        remote = [src for src in scripts if "://" in src or src.startswith("//")]
        assert remote == [], f"{page.relative_to(site)}: {remote}"
        if page.name != "404.html":
            assert any(s.endswith("javascripts/iframe-worker-shim.js") for s in scripts), page
