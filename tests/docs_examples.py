"""Run the code examples of the documentation and check what they print.

The documentation is the Markdown under ``docs/`` (and the docstrings of the code, which the
API reference renders). Each page is a *session*: its examples run in order, in one namespace
and one scratch working directory, so a later example may use what an earlier one defined or
wrote. What runs:

- a ```` ```python ```` block. When the next block (only blank lines between) is a
  ```` ```text ```` or ```` ```output ```` block, or one without a language, that block is
  what the example prints, compared
  with doctest's rules (``...`` matches anything, runs of whitespace are equal). An example
  that prints without such a block, or a block of output for an example that prints nothing,
  is a failure: every printed output a page shows is checked.
- a ```` ```pycon ```` block, and ``>>>`` lines in a docstring: doctest, in the same namespace.
- a ```` ```console ```` block: each ``$ command`` (continued by a trailing ``\\``) runs in bash
  with the venv first on ``PATH``, and the lines after it are its output (stdout and stderr),
  compared as above. ``echo $?`` after a command prints its exit code.
- ``--8<-- "path"`` (or ``"path:start:end"``) lines inside a block are replaced by the file's
  lines, as pymdownx.snippets does when the site is built, so a page can show real files.

An HTML comment before a block (other comments, such as ruff's ``<!-- fmt: off -->``, may
stand between) changes that: ``<!-- docs-test: skip REASON -->`` does not
run it (the test reports the reason), ``<!-- docs-test: requires MODULE -->`` runs it only where
``MODULE`` can be imported. Other languages (``json``, ``yaml``, ``sh``, ``text``...) are shown,
not run.

The examples of one page run in a child process (``python -m tests.docs_examples``), so they
cannot disturb the test session (``sys.modules``, ``sys.path``, the working directory). The
scratch directory holds copies of the repository's ``examples`` and ``schemas`` (what
``sktypes check`` reads must lie in the repository: it follows no symlink out of it) and links
to ``docs`` and ``tests``, so paths such as ``schemas/examples/...`` work as they do at the
repository root.

As a newcomer (``SKTYPES_DOCS_OUTSIDE=1``, :mod:`tests.test_newcomer`): the runner is started
by its path with an installed sktypes' Python, in a folder that holds nothing of the
repository; neither the repository nor its ``tests`` folder is importable, and the working
directory is first on ``sys.path``, as for a user's ``python`` started in that folder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import doctest
import importlib
import importlib.util
import inspect
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import traceback
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LINKED = ("examples", "schemas", "docs", "tests", "pyproject.toml")
COPIED = ("examples", "schemas")  # small: copies, so generated packages' inputs lie inside
RUN_LANGS = {"python", "py", "pycon", "console"}
OUTPUT_LANGS = {"text", "output", ""}  # "": a block without a language
COMMAND_TIMEOUT = 300
OUTSIDE = os.environ.get("SKTYPES_DOCS_OUTSIDE") == "1"
"""Run as a newcomer would: the installed sktypes only, nothing of the repository importable."""
_OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")
_MARKER = re.compile(r"^[ \t]*<!--\s*docs-test:\s*(?P<kind>skip|requires)\s+(?P<arg>.*?)\s*-->\s*$")
_COMMENT = re.compile(r"^[ \t]*<!--.*-->\s*$")
_SNIPPET = re.compile(r"""^(?P<indent>[ \t]*)--8<--[ \t]+["'](?P<spec>[^"']+)["'][ \t]*$""")
_SEPARATOR = "\x1edocs-test-command-end\x1e"


@dataclasses.dataclass(frozen=True)
class Block:
    """One fenced block of a document that runs."""

    document: str  # the page (relative to the repository) or docstring it comes from
    line: int  # line of the opening fence in the file (1-based)
    lang: str
    code: str
    expected: str | None = None  # the output block that follows a python block
    skip: str | None = None
    requires: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        """``file:line``, as a test id and in messages."""
        return f"{self.document}:{self.line}"


@dataclasses.dataclass(frozen=True)
class _Fence:
    line: int
    lang: str
    info: str
    body: str
    marker: tuple[str, str] | None


def _fences(text: str) -> list[_Fence]:
    """Every fenced block of a Markdown text, with the docs-test marker just before it."""
    lines = text.splitlines()
    found: list[_Fence] = []
    index = 0
    while index < len(lines):
        match = _FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        indent, fence, info = match["indent"], match["fence"], match["info"].strip()
        end = index + 1
        while end < len(lines):
            closing = lines[end].strip()
            if closing.startswith(fence[0] * len(fence)) and not closing.strip(fence[0]):
                break
            end += 1
        body = "\n".join(_dedent(line, indent) for line in lines[index + 1 : end])
        marker = None
        before = index - 1
        while before >= 0 and (found_marker := _MARKER.match(lines[before])) is None:
            if lines[before].strip() and not _COMMENT.match(lines[before]):
                break  # other comments (`<!-- fmt: off -->`) may stand between marker and block
            before -= 1
        if before >= 0 and found_marker is not None:
            marker = (found_marker["kind"], found_marker["arg"])
        lang = info.split()[0].strip("{}.").lower() if info else ""
        found.append(_Fence(index + 1, lang, info, body + "\n" if body else "", marker))
        index = end + 1
    return found


def _dedent(line: str, indent: str) -> str:
    return line[len(indent) :] if line.startswith(indent) else line.lstrip()


def _adjacent(text: str, first: _Fence, second: _Fence) -> bool:
    """True when only blank lines stand between the end of ``first`` and ``second``."""
    lines = text.splitlines()
    closing = first.line + first.body.count("\n")  # index of the closing fence line
    return all(not line.strip() for line in lines[closing + 1 : second.line - 1])


def blocks_of(document: str, text: str, line_offset: int = 0) -> list[Block]:
    """The blocks of ``text`` that run, in order."""
    fences = _fences(text)
    blocks: list[Block] = []
    for position, fence in enumerate(fences):
        if fence.lang not in RUN_LANGS:
            continue
        expected = None
        following = fences[position + 1] if position + 1 < len(fences) else None
        if (
            fence.lang in {"python", "py"}
            and following is not None
            and following.lang in OUTPUT_LANGS
            and _adjacent(text, fence, following)
        ):
            expected = following.body
        skip = requires = None
        if fence.marker is not None:
            kind, arg = fence.marker
            if kind == "skip":
                skip = arg or "no reason given"
            else:
                requires = tuple(arg.replace(",", " ").split())
        blocks.append(
            Block(
                document=document,
                line=fence.line + line_offset,
                lang="python" if fence.lang == "py" else fence.lang,
                code=_expand_snippets(fence.body),
                expected=expected,
                skip=skip,
                requires=requires or (),
            )
        )
    return blocks


def _expand_snippets(code: str) -> str:
    out: list[str] = []
    for line in code.splitlines():
        match = _SNIPPET.match(line)
        if match is None:
            out.append(line)
            continue
        path, _, spans = match["spec"].partition(":")
        lines = (ROOT / path).read_text().splitlines()
        chosen: list[str] = []
        for span in spans.split(",") if spans else [":"]:
            start, _, end = span.partition(":")
            chosen += lines[int(start or 1) - 1 : int(end) if end else None]
        out.extend(match["indent"] + text for text in chosen)
    return "\n".join(out) + "\n"


def pages() -> list[Path]:
    """Every Markdown page of the site, and the README (the front page), in a stable order."""
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def page_blocks(page: Path) -> list[Block]:
    """The blocks of one page that run."""
    return blocks_of(page.relative_to(ROOT).as_posix(), page.read_text())


# --- docstrings -------------------------------------------------------------------------------


def public_modules() -> list[str]:
    """Every module of ``sktypes`` and ``sktypes_codegen`` whose dotted name has no ``_`` part."""
    import pkgutil

    names: list[str] = []
    for package in ("sktypes", "sktypes_codegen"):
        module = importlib.import_module(package)
        names.append(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            if not any(part.startswith("_") for part in info.name.split(".")):
                names.append(info.name)
    return sorted(names)


def all_modules() -> list[str]:
    """Every module of ``sktypes`` and ``sktypes_codegen`` (docstring examples run in all)."""
    import pkgutil

    names: list[str] = []
    for package in ("sktypes", "sktypes_codegen"):
        module = importlib.import_module(package)
        names.append(package)
        names.extend(
            info.name
            for info in pkgutil.walk_packages(module.__path__, package + ".")
            if not info.name.endswith(".__main__")  # running it is the CLI, not an import
        )
    return sorted(names)


def _documented(module: types.ModuleType) -> Iterator[tuple[str, Any]]:
    yield module.__name__, module
    for name, value in vars(module).items():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(value):
            yield f"{module.__name__}.{name}", value
            for attr, member in vars(value).items():
                target = getattr(member, "__func__", member)
                if isinstance(target, property):
                    target = target.fget
                if inspect.isfunction(target) or inspect.isclass(target):
                    yield f"{module.__name__}.{name}.{attr}", target
        elif inspect.isfunction(value):
            yield f"{module.__name__}.{name}", value


def docstring_blocks(module_name: str) -> list[Block]:
    """The examples in the docstrings of a module's own objects (fenced or ``>>>``)."""
    module = importlib.import_module(module_name)
    blocks: list[Block] = []
    for qualname, obj in _documented(module):
        own = vars(obj).get("__doc__") if inspect.isclass(obj) else obj.__doc__
        doc = inspect.cleandoc(own) if isinstance(own, str) else None  # not inherited ones
        if not doc or ("```" not in doc and ">>>" not in doc):
            continue
        try:
            source = Path(inspect.getsourcefile(obj) or "").resolve().relative_to(ROOT)
            line = inspect.getsourcelines(obj)[1]
        except (OSError, TypeError, ValueError):
            source, line = Path(module_name), 0
        document = f"{source.as_posix()} ({qualname})"
        found = blocks_of(document, doc, line)
        prose = _without_fences(doc)
        if any(text.lstrip().startswith(">>>") for text in prose.splitlines()):
            found.append(Block(document, line, "pycon", prose))
        blocks.extend(found)
    return blocks


def _without_fences(text: str) -> str:
    kept: list[str] = []
    inside: str | None = None
    for line in text.splitlines():
        match = _FENCE.match(line)
        if match is not None and (inside is None or match["fence"].startswith(inside)):
            inside = None if inside is not None else match["fence"]
            continue
        if inside is None:
            kept.append(line)
    return "\n".join(kept)


# --- running ----------------------------------------------------------------------------------


@dataclasses.dataclass
class Result:
    """What running one block gave."""

    line: int
    status: str  # passed | failed | skipped
    message: str = ""


def _missing(modules: tuple[str, ...]) -> list[str]:
    return [name for name in modules if importlib.util.find_spec(name) is None]


def _compare(want: str, got: str) -> str | None:
    checker = doctest.OutputChecker()
    if checker.check_output(want, got, _OPTIONS):
        return None
    shown = textwrap.indent(want, "    ")
    return f"printed:\n{textwrap.indent(got, '    ')}\nthe page shows:\n{shown}"


class _Session:
    def __init__(self, name: str) -> None:
        self.module = types.ModuleType(name)
        self.module.__dict__["__builtins__"] = __builtins__
        sys.modules[name] = self.module  # pydantic resolves annotations through the module

    def run(self, block: Block) -> Result:
        if block.skip is not None:
            return Result(block.line, "skipped", block.skip)
        missing = _missing(block.requires)
        if missing:
            return Result(block.line, "skipped", f"needs {', '.join(missing)}, not installed")
        try:
            if block.lang == "python":
                message = self._python(block)
            elif block.lang == "pycon":
                message = self._doctest(block)
            else:
                message = _console(block)
        except BaseException:  # an example's own exception is the test failure to report
            message = traceback.format_exc(limit=-6)
        return Result(block.line, "failed" if message else "passed", message or "")

    def _python(self, block: Block) -> str | None:
        code = compile("\n" * block.line + block.code, block.document, "exec")
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(code, self.module.__dict__)
        got = printed.getvalue()
        if block.expected is None:
            if got.strip():
                return (
                    "the example prints, but no ```text block follows it to show what:\n"
                    + textwrap.indent(got, "    ")
                )
            return None
        if not got.strip():
            return "the page shows output after this example, but it prints nothing"
        return _compare(block.expected, got)

    def _doctest(self, block: Block) -> str | None:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.code, self.module.__dict__, block.document, None, 0)
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=_OPTIONS)
        runner.run(test, out=report.write, clear_globs=False)
        return report.getvalue() or None


def _commands(code: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` pairs of a console block."""
    pairs: list[tuple[list[str], list[str]]] = []
    continuing = False
    for line in code.splitlines():
        if continuing:
            pairs[-1][0].append(line)
        elif line.startswith("$ ") or line == "$":
            pairs.append(([line[2:]], []))
        elif pairs:
            pairs[-1][1].append(line)
        continuing = line.endswith("\\") and bool(pairs) and not pairs[-1][1]
    return [("\n".join(command), "\n".join(output) + "\n") for command, output in pairs]


def _console(block: Block) -> str | None:
    commands = _commands(block.code)
    if not commands:
        return "a console block without a `$ command` line"
    script = ["set +e", "exec 2>&1"]
    for command, _ in commands:
        script += [command, f"__rc=$?; printf '\\n{_SEPARATOR}\\n'; (exit $__rc)"]
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    if not OUTSIDE:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["COLUMNS"] = "100"
    completed = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )
    outputs = completed.stdout.split(f"\n{_SEPARATOR}\n")
    problems: list[str] = []
    for (command, want), got in zip(commands, outputs, strict=False):
        got = got.rstrip("\n") + "\n" if got.strip() else ""
        if not want.strip() and not got.strip():
            continue
        difference = _compare(want, got)
        if difference is not None:
            problems.append(f"$ {command}\n{difference}")
    return "\n".join(problems) or None


def _prepare_workdir(workdir: Path) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        link = workdir / name
        if link.exists():
            continue
        if name in COPIED:  # sktypes check follows no symlink out of the repository
            shutil.copytree(ROOT / name, link, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            link.symlink_to(ROOT / name)


def run_blocks(blocks: list[Block], session_name: str) -> list[Result]:
    """Run blocks in order in one session (call in a scratch working directory)."""
    session = _Session(session_name)
    return [session.run(block) for block in blocks]


def run_in_child(kind: str, name: str, workdir: Path) -> dict[int, Result]:
    """Run the blocks of a page (``kind="page"``) or a module's docstrings in a child process.

    Returns the results keyed by the line of each block.
    """
    _prepare_workdir(workdir)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    completed = subprocess.run(
        [sys.executable, "-m", "tests.docs_examples", kind, name],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=COMMAND_TIMEOUT * 4,
        check=False,
    )
    lines = completed.stdout.splitlines()
    if completed.returncode != 0 or not lines:
        raise RuntimeError(
            f"the example runner failed on {name} (exit {completed.returncode}):\n"
            f"{completed.stdout[-4000:]}\n{completed.stderr[-4000:]}"
        )
    return {item["line"]: Result(**item) for item in json.loads(lines[-1])}


def _main(argv: list[str]) -> int:
    kind, name = argv
    if OUTSIDE:  # started by path: its own folder (the repository's tests) must not be importable
        sys.path[0] = ""
    blocks = page_blocks(ROOT / name) if kind == "page" else docstring_blocks(name)
    sys.stdin = io.StringIO()
    results = run_blocks(blocks, "docs_example_session")
    sys.stdout.flush()
    sys.stderr.flush()
    print("\n" + json.dumps([dataclasses.asdict(result) for result in results]))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
