"""The distribution: what the wheel holds, what it requires, and that it works installed.

The wheel and sdist are built with ``python -m build`` (an isolated build, as a user's pip
does it); the wheel is installed into a clean virtual environment that has nothing but its
requirements, and the CLI runs there: generate, check a repository holding a manual.json,
hydrate into a generated model.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sktypes", "sktypes_codegen")
pytestmark = pytest.mark.xdist_group("packaging")  # one build per run (make test: loadgroup)


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_packaged_schemas_are_the_published_ones() -> None:
    published = sorted((ROOT / "schemas").glob("*.json"))
    packaged = sorted((ROOT / "sktypes" / "schemas").glob("*.json"))
    assert [p.name for p in packaged] == [p.name for p in published]
    for source, copy in zip(published, packaged, strict=True):
        assert copy.read_bytes() == source.read_bytes(), (
            f"{copy} differs from {source}: cp schemas/*.json sktypes/schemas/"
        )


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("dist")
    src = tmp_path_factory.mktemp("src") / "sktypes"
    # build from a copy of the tracked files, as a fresh clone would (no .venv, no caches)
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, (t.decode() for t in tracked)):
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def _pip(env: Path) -> list[str]:
    return [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet"]


def _wheel(dist: Path) -> Path:
    (wheel,) = dist.glob("sktypes-*.whl")
    return wheel


_TOOL_EXTRAS = {"dev", "bench", "bench-mcp", "integration-tests", "fuzz"}
"""Extras of tools (tests, benchmarks): nothing in the library may need them."""


def _requirements(wheel: Path) -> tuple[set[str], set[str]]:
    """The wheel's runtime requirements, and those of its feature extras (frameworks)."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        text = zf.read(meta).decode()
    runtime: set[str] = set()
    extras: set[str] = set()
    for line in text.splitlines():
        if not line.startswith("Requires-Dist:"):
            continue
        spec = line.split(":", 1)[1].strip()
        name = _canonical(re.split(r"[\s<>=!~;\[(]", spec)[0])
        extra = re.search(r"extra\s*==\s*[\"']([^\"']+)", spec)
        if extra is None:
            runtime.add(name)
        elif _canonical(extra[1]) not in _TOOL_EXTRAS:
            extras.add(name)
    return runtime, extras


def test_the_wheel_holds_every_file_the_code_reads_and_no_stray_top_level(dist: Path) -> None:
    with zipfile.ZipFile(_wheel(dist)) as zf:
        names = set(zf.namelist())
    wanted = {f"sktypes/schemas/{p.name}" for p in (ROOT / "schemas").glob("*.json")}
    wanted |= {
        f"sktypes_codegen/templates/{p.name}"
        for p in (ROOT / "sktypes_codegen" / "templates").iterdir()
    }
    wanted |= {"sktypes/py.typed", "sktypes_codegen/py.typed"}
    assert wanted <= names, sorted(wanted - names)
    top = {n.split("/", 1)[0] for n in names if not n.split("/", 1)[0].endswith(".dist-info")}
    assert top == set(PACKAGES)


def test_the_sdist_holds_the_sources_and_package_data(dist: Path) -> None:
    (sdist,) = dist.glob("sktypes-*.tar.gz")
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    assert "sktypes/schemas/function-manual.schema.json" in names
    assert "sktypes_codegen/templates/plugin.py.jinja" in names
    assert "pyproject.toml" in names


_NOT_INSTALLED = {
    "agent_framework": "agent-framework-core",
    "agents": "openai-agents",
    "pydantic_ai": "pydantic-ai-slim",
}
"""Frameworks whose import name is not their distribution's, for when this venv lacks them
(each is installed in its own venv: ``make integrations``)."""


def _imported_distributions() -> tuple[set[str], set[str]]:
    """The distributions the library imports: ``(everywhere else, in sktypes/integrations)``.

    Generated code's imports (the templates) count as the library's: an installed sktypes
    must be able to run what it generates.
    """
    stdlib = set(sys.stdlib_module_names)
    owners = packages_distributions()
    core: set[str] = set()
    optional: set[str] = set()

    def add(into: set[str], name: str) -> None:
        top = name.split(".")[0]
        if top not in stdlib and top not in PACKAGES and top != "__future__":
            into.update(_canonical(d) for d in owners.get(top, [_NOT_INSTALLED.get(top, top)]))

    for package in PACKAGES:
        for file in (ROOT / package).rglob("*.py"):
            into = optional if "integrations" in file.relative_to(ROOT).parts else core
            for node in ast.walk(ast.parse(file.read_bytes())):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        add(into, alias.name)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    add(into, node.module)
    for template in (ROOT / "sktypes_codegen" / "templates").glob("*.jinja"):
        for match in re.finditer(r"^(?:import|from) (\w+)", template.read_text(), re.M):
            add(core, match[1])
    return core, optional


def test_every_runtime_requirement_is_imported_and_every_import_is_required(dist: Path) -> None:
    runtime, extras = _requirements(_wheel(dist))
    core, optional = _imported_distributions()
    assert core - runtime == set(), "imported but not a runtime requirement"
    assert optional - runtime - extras == set(), "imported by an integration, in no extra"
    assert runtime - core - optional == set(), "declared but never imported"
    assert "datamodel-code-generator" not in runtime


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    env = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    pip = subprocess.run(
        # the runtime pins of the committed lock, as make run installs them
        [*_pip(env), "-c", str(ROOT / "lock" / "requirements-run.txt"), str(_wheel(dist))],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    return env


def _run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]], capture_output=True, text=True, cwd=cwd, env=clean
    )


def test_the_installed_wheel_generates_checks_and_hydrates(venv: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "api").mkdir(parents=True)
    shutil.copy(ROOT / "schemas/examples/weather_plugin.openapi.yaml", repo / "api/weather.yaml")
    (repo / "generators").mkdir()  # a local folder of that name must not shadow anything
    gen = _run(
        venv,
        "sktypes",
        "generate",
        "api/weather.yaml",
        "-o",
        "plugins",
        "--name",
        "weather",
        cwd=repo,
    )
    assert gen.returncode == 0, gen.stdout + gen.stderr
    views = repo / "plugins" / "weather" / "views.json"
    assert json.loads(views.read_text())["functions"][0]["view"]["name"]
    checked = _run(venv, "sktypes", "check", ".", cwd=repo)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    (repo / "tools.manual.json").write_text(json.dumps([{"name": "x", "parameters": 1}]))
    bad = _run(venv, "sktypes", "check", ".", cwd=repo)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "tools.manual.json:/0/parameters" in bad.stdout
    assert "Traceback" not in bad.stderr
    (repo / "answer.txt").write_text('Sure! ```json\n{"degreesFahrenheit": "71"}\n```')
    hydrated = _run(
        venv,
        "sktypes",
        "hydrate",
        "plugins.weather.models:GetWeatherForecast1Result",
        "answer.txt",
        cwd=repo,
    )
    assert hydrated.returncode == 0, hydrated.stdout + hydrated.stderr
    assert json.loads(hydrated.stdout) == {"degreesFahrenheit": 71}
    wrong = _run(venv, "sktypes", "hydrate", "datetime:date", "answer.txt", cwd=repo)
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert "Traceback" not in wrong.stderr
    imported = _run(venv, "python", "-c", "import generators", cwd=tmp_path)
    assert imported.returncode != 0  # no top-level package of that generic name is installed


_ISSUE_23 = r"""
import asyncio
import sktypes as sk
from sktypes.errors import TemplateError
from sktypes.templates import PromptTemplateConfig, TemplateLimits, create_prompt_template

def render(fmt, text, limits=None, **arguments):
    config = PromptTemplateConfig(template=text, template_format=fmt, name="t")
    created = create_prompt_template(config, limits=limits)
    return asyncio.run(created.render(None, arguments))

def refused(fmt, text, limits, words, **arguments):
    try:
        render(fmt, text, limits, **arguments)
    except TemplateError as exc:
        assert words in exc.message, exc.message
    else:
        raise AssertionError(f"{fmt}: {text[:40]} was rendered")

def gen():
    yield 1

# finding 1: no frame, code or module globals through a generator, in any spelling
assert render("handlebars", "{{g.gi_frame.f_globals.os.environ}}", g=gen()) == ""
assert render("handlebars", '{{lookup g "gi_frame"}}{{#with g}}{{gi_code}}{{/with}}', g=gen()) == ""
assert render("jinja2", "{{ g.gi_frame }}{{ g|attr('gi_frame') }}{{ g['gi_code'] }}", g=gen()) == ""
# finding 7: work that writes nothing is charged, in every engine
steps = TemplateLimits(max_steps=1_000)
refused("handlebars", "{{#each @root.s}}" * 9 + "{{/each}}" * 9, steps, "max_steps", s="abcdefghij")
refused("jinja2", "{% for i in range(100) %}" * 6 + "{% endfor %}" * 6, steps, "max_steps")
refused("semantic-kernel", "{{$s}}" * 2_000, steps, "max_steps", s="")
# finding 8: values built inside a template are bounded, not only what is written
size = TemplateLimits(max_output=1_000)
refused("jinja2", "{% set b = a ~ a %}{{ b|length }}", size, "max_output", a="x" * 600)
refused("jinja2", "{{ ([a] * 3)|join|length }}", size, "max_output", a="x" * 600)
refused("handlebars", "{{#with (concat a a)}}{{/with}}", size, "max_output", a="x" * 600)
# finding 10: escapes in a Python repr are read as Python reads them
assert sk.hydrate(dict[str, str], "{'k': 'bell\\x07 \\u00e9 \\U0001F600'}") == {
    "k": "bell\x07 \u00e9 \U0001F600"
}
print("issue 23 holds")
"""


def test_the_installed_wheel_holds_issue_23s_guarantees(venv: Path, tmp_path: Path) -> None:
    """Issue 23's findings 1, 3, 5, 7, 8 and 10, from the wheel (the runtime requirements only)."""
    held = _run(venv, "python", "-c", _ISSUE_23, cwd=tmp_path)
    assert held.returncode == 0, held.stdout + held.stderr
    assert held.stdout.strip() == "issue 23 holds"
    repo = tmp_path / "repo"
    (repo / "api").mkdir(parents=True)
    shutil.copy(ROOT / "schemas/examples/weather_plugin.openapi.yaml", repo / "api/weather.yaml")
    gen = _run(venv, "sktypes", "generate", "api/weather.yaml", "-o", "plugins", cwd=repo)
    assert gen.returncode == 0, gen.stdout + gen.stderr
    (package,) = (repo / "plugins").iterdir()
    (package / "models.py").unlink()
    (package / "models.py").symlink_to("/dev/zero")  # finding 5
    os.mkfifo(repo / "api" / "notes.json")  # finding 5: never opened, so nothing blocks
    record = json.loads((package / "sktypes.json").read_text())
    record["inputs"][str(Path(os.path.relpath("/etc/hostname", package)))] = "0" * 64
    (package / "sktypes.json").write_text(json.dumps(record))  # finding 3: outside the repo
    checked = subprocess.run(
        [str(venv / "bin" / "sktypes"), "check", "."],
        capture_output=True,
        text=True,
        cwd=repo,
        timeout=120,
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "Traceback" not in checked.stderr
    out = checked.stdout
    assert "notes.json" in out and "not a regular file" in out, out
    assert "outside the repository" in out and "hostname" in out, out
    assert "models.py" in out and "symlink" in out, out
