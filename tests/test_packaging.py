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
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import pytest

from tests.wheel_util import build_dist, clean_env, venv_with, wheel

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
def dist() -> Path:
    return build_dist()


_wheel = wheel

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
    examples = ROOT / "sktypes" / "_example_files"
    wanted |= {
        f"sktypes/_example_files/{p.relative_to(examples).as_posix()}"
        for p in examples.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
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


def _guarded_imports(tree: ast.AST) -> set[int]:
    """The imports inside ``try: ... except ImportError`` (an optional extra's: the tokenizer)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError")
            for h in node.handlers
        ):
            for stmt in node.body:
                out.update(
                    id(n) for n in ast.walk(stmt) if isinstance(n, ast.Import | ast.ImportFrom)
                )
    return out


def _imported_distributions() -> tuple[set[str], set[str]]:
    """The distributions the library imports: ``(required, optional)``.

    Optional: imported in sktypes/integrations, or guarded by ``except ImportError``.

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
            where = optional if "integrations" in file.relative_to(ROOT).parts else core
            tree = ast.parse(file.read_bytes())
            guarded = _guarded_imports(tree)
            for node in ast.walk(tree):
                into = optional if id(node) in guarded else where
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
def venv() -> Path:
    return venv_with()


def _run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / args[0]), *args[1:]],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=clean_env(),
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
    assert "tools.manual.json:1:16: /0/parameters" in bad.stdout
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


_REMOTE_SCRIPT = r"""
import json, sys, warnings
from rules import RulesPlugin
from sktypes.remote import (
    ApiError, ClientCredentials, ResponseDriftError, ResponseDriftWarning, Retry,
    UnexpectedMediaType,
)

plugin = RulesPlugin(
    sys.argv[1], api_key="key-1", basic_username="user", basic_password="pass-1",
    oauth_token=ClientCredentials("client-1", "secret-1"),
    retries=Retry(max_retries=2, backoff=0.0),
)
out = {}
try:
    plugin.get_item_sync(1)
except UnexpectedMediaType as exc:
    out["xml"] = [exc.media_type, exc.body]
out["retried"] = plugin.get_item_sync(2).name
try:
    plugin.get_item_sync(3)
except ApiError as exc:
    out["error"] = [exc.status_code, type(exc.parsed).__name__, exc.parsed.code]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out["drift"] = plugin.get_item_sync(4).id
out["warned"] = [w.message.pointer for w in caught if isinstance(w.message, ResponseDriftWarning)]
try:
    plugin.get_item_sync(5, strict=True)
except ResponseDriftError as exc:
    out["strict"] = [p.pointer for p in exc.problems]
out["blob"] = plugin.echo_sync(x_blob=b"\xff\x00\r\n").headers["x-blob"]
out["upload"] = plugin.upload_sync(b"\x89PNG\r\n\x1a\n0000").headers["content-type"]
out["basic"] = plugin.with_basic_sync()
out["whoami"] = plugin.whoami_sync().client_id
out["repr"] = repr(plugin)
print(json.dumps(out))
"""


def test_the_installed_wheel_runs_a_generated_client(
    venv: Path, tmp_path: Path, remote_server: Any
) -> None:
    """Issue 24 (Accept, Content-Type, image/*, format: byte, drift) and 27 (typed errors,
    retries, auth) from the wheel: a package generated by the installed CLI, called in the
    wheel's venv against tests/remote_server.py."""
    from tests.remote_server import Reply

    shutil.copy(ROOT / "tests/specs/runtime/remote_rules.yaml", tmp_path / "rules.yaml")
    gen = _run(venv, "sktypes", "generate", "rules.yaml", "-o", ".", "--name", "rules", "--sync",
               cwd=tmp_path)  # fmt: skip
    assert gen.returncode == 0, gen.stdout + gen.stderr
    server = remote_server
    server.basic = ("user", "pass-1")
    server.script("GET", "/items/1", Reply(200, "<item/>", {"Content-Type": "application/xml"}))
    server.script("GET", "/items/2", Reply(503, "", {"Retry-After": "0"}))
    server.script("GET", "/items/3", Reply(404, {"code": "gone", "message": "no"}))
    server.script("GET", "/items/4", Reply(200, {"id": "4", "name": "x"}))
    server.script("GET", "/items/5", Reply(200, {"id": "5", "name": "x"}))
    (tmp_path / "run.py").write_text(_REMOTE_SCRIPT)
    ran = _run(venv, "python", "run.py", server.url, cwd=tmp_path)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    out = json.loads(ran.stdout)
    assert out["xml"] == ["application/xml", "<item/>"]
    assert out["retried"] and [s.answer for s in server.seen("GET", "/items/2")] == ["503", "200"]
    assert out["error"] == [404, "Error", "gone"]
    assert out["drift"] == "4" and out["warned"] == ["/id"] and out["strict"] == ["/id"]
    assert out["blob"] == "/wANCg=="
    assert out["upload"] == "image/png"
    assert out["basic"] == {"ok": True} and out["whoami"] == "client-1"
    assert not any(s in out["repr"] for s in ("key-1", "pass-1", "secret-1"))
    accept = server.seen("GET", "/items/1")[0].headers["accept"]
    assert accept.startswith("application/json") and "application/xml" in accept


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


@pytest.mark.parametrize(
    ("module", "framework", "extra", "missing"),
    [
        ("semantic_kernel", "Semantic Kernel", "semantic-kernel", "semantic_kernel"),
        ("agent_framework", "Microsoft Agent Framework", "agent-framework", "agent_framework"),
        ("langchain", "LangChain", "langchain", "langchain_core"),
        ("pydantic_ai", "pydantic-ai", "pydantic-ai", "pydantic_ai"),
        ("openai_agents", "the OpenAI Agents SDK", "openai-agents", "agents"),
        ("mcp", "the MCP SDK", "mcp", "mcp"),
    ],
)
def test_an_integration_without_its_framework_says_what_to_install(
    venv: Path, tmp_path: Path, module: str, framework: str, extra: str, missing: str
) -> None:
    """One ImportError naming the framework and the install form of this copy (the wheel)."""
    code = (
        "import sys\n"
        "try:\n"
        f"    import sktypes.integrations.{module}\n"
        "except ModuleNotFoundError as exc:\n"
        "    print(type(exc).__name__, exc.name, str(exc), sep='\\n')\n"
        "    sys.exit(0)\n"
        "sys.exit('imported')\n"
    )
    tried = _run(venv, "python", "-c", code, cwd=tmp_path)
    assert tried.returncode == 0, tried.stdout + tried.stderr
    kind, name, message = tried.stdout.splitlines()
    assert (kind, name) == ("ModuleNotFoundError", missing)
    whl = wheel(build_dist())
    assert message == (
        f"sktypes.integrations.{module} needs {framework} ({missing} is not installed): "
        f"pip install '{whl}[{extra}]'"
    )


def test_serve_without_the_mcp_extra_says_what_to_install(venv: Path, tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text("def hello() -> str:\n    return 'hi'\n")
    served = _run(venv, "sktypes", "serve", "tools.py", cwd=tmp_path)
    assert served.returncode == 2 and served.stdout == ""
    whl = wheel(build_dist())
    assert served.stderr.strip().splitlines() == [
        "sktypes: error: sktypes serve needs the MCP SDK (mcp is not installed): "
        f"pip install '{whl}[mcp]'"
    ]
