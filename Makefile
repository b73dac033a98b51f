# sktypes — every task a fresh clone needs. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
export HYPOTHESIS_PROFILE ?= ci
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(PY) -m pip install --quiet -e . --config-settings editable_mode=compat
	@touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PY) -m pip install --quiet -e '.[dev]' --config-settings editable_mode=compat
	@touch $@ $(VENV)/.installed-base

$(VENV)/.installed-mcp: pyproject.toml | $(BIN)/python
	$(PY) -m pip install --quiet -e '.[mcp]'
	@touch $@

# Generated code must run on pydantic 2.12-2.13 too (Semantic Kernel pins pydantic<2.14)
COMPAT_VENV := .venv-pydantic213

$(COMPAT_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(COMPAT_VENV)
	$(COMPAT_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(COMPAT_VENV)/bin/python -m pip install --quiet -e . 'pydantic>=2.13,<2.14' 'pytest>=8' 'hypothesis>=6.100,<6.170.10' --config-settings editable_mode=compat
	@touch $@

BENCH_VENV := .bench-venv

$(BENCH_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/python -m pip install --quiet -e '.[bench]'
	@touch $@

# The MCP benchmark's own venv: FastMCP needs mcp 2, the bench venv's semantic-kernel pins mcp<2
BENCH_MCP_VENV := .bench-mcp-venv

$(BENCH_MCP_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(BENCH_MCP_VENV)
	$(BENCH_MCP_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(BENCH_MCP_VENV)/bin/python -m pip install --quiet -e '.[bench-mcp]'
	@touch $@

.PHONY: help
help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

.PHONY: install
install: $(VENV)/.installed-base ## create .venv and install sktypes

.PHONY: run
run: $(VENV)/.installed-base $(VENV)/.installed-mcp ## the main job on the bundled example (manuals, plans, MCP)
	@echo "== planner manual of the Python plugins (examples/date_weather.py)"
	$(BIN)/sktypes manual examples/date_weather.py --format planner
	@echo "== planner manual of the same plugins as OpenAPI specs (the ADR's JSON)"
	$(BIN)/sktypes manual schemas/examples/date_plugin.openapi.yaml schemas/examples/weather_plugin.openapi.yaml --format planner
	@echo "== a typed plugin package generated from the weather spec, and one typed call (dry run)"
	$(BIN)/sktypes generate schemas/examples/weather_plugin.openapi.yaml -o out --name weather_plugin
	$(PY) examples/call_generated.py out
	@echo "== the ADR's plan checks clean against both and runs on the Python plugins"
	$(BIN)/sktypes plan check examples/plans/date_weather.plan.json --views examples/date_weather.py
	$(BIN)/sktypes plan check examples/plans/date_weather.plan.json --views schemas/examples/date_plugin.openapi.yaml schemas/examples/weather_plugin.openapi.yaml
	$(BIN)/sktypes plan run examples/plans/date_weather.plan.json --plugins examples/date_weather.py
	@echo "== the same plan run on the generated OpenAPI plugins against a local server"
	$(PY) examples/plan_over_openapi.py
	@echo "== the wrong plan (the whole dateResponse into date) is rejected with the fix"
	$(BIN)/sktypes plan check examples/plans/date_weather.wrong.plan.json --views examples/date_weather.py; test $$? -eq 1
	@echo "== the Python plugins served over MCP (sktypes serve, stdio) and called with the official client"
	$(PY) examples/mcp_call.py

.PHONY: lint
lint: $(VENV)/.installed-dev ## ruff check, ruff format --check, mypy --strict
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict sktypes sktypes_codegen examples tests/typing_*.py

.PHONY: test
test: $(VENV)/.installed-dev $(COMPAT_VENV)/.installed lint ## the whole suite: lint, types, unit, property, golden, corpus, docs
	@# the docs' browser test needs Chromium: installed where we are root on Debian (CI), else it skips and says so
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then $(MAKE) --no-print-directory browser || echo "warning: chromium could not be installed; the browser test will skip"; fi
	$(BIN)/pytest -n 2 --dist loadgroup -q -p no:cacheprovider
	@echo "== generated code on pydantic 2.13 ($(COMPAT_VENV))"
	$(COMPAT_VENV)/bin/pytest -q -p no:cacheprovider -o addopts= tests/test_generate_compat.py
	$(MAKE) --no-print-directory integrations

# --- framework integrations: each framework in its own venv (.venv-<extra>), built by uv ---
INTEGRATIONS := semantic-kernel agent-framework langchain pydantic-ai openai-agents
TEST_EXTRAS_langchain := ,langchain-tests

.venv-%/.installed: pyproject.toml | $(VENV)/.installed-dev
	$(BIN)/uv venv --quiet --allow-existing --python $(PYTHON) .venv-$*
	$(BIN)/uv pip install --quiet --python .venv-$*/bin/python -e '.[$*,integration-tests$(TEST_EXTRAS_$*)]'
	@touch $@

.PHONY: integrations $(addprefix integration-,$(INTEGRATIONS)) integration-sk integration-af
integrations: $(addprefix integration-,$(INTEGRATIONS)) ## every framework's tests, each in its own venv

$(addprefix integration-,$(INTEGRATIONS)): integration-%: .venv-%/.installed
	.venv-$*/bin/python -m mypy --strict --cache-dir .venv-$*/.mypy_cache sktypes/integrations/$(subst -,_,$*).py
	SKTYPES_INTEGRATION=$* .venv-$*/bin/python -m pytest -q -p no:cacheprovider tests/integrations

integration-sk: integration-semantic-kernel ## Semantic Kernel's integration tests (own venv)
integration-af: integration-agent-framework ## Agent Framework's integration tests (own venv)

FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

$(VENV)/.installed-fuzz: pyproject.toml | $(VENV)/.installed-dev
	$(PY) -m pip install --quiet -e '.[dev,fuzz]'
	@touch $@

.PHONY: fuzz
fuzz: $(VENV)/.installed-fuzz ## every fuzz target for FUZZ_SECONDS each, one at a time (not in CI)
	$(PY) -m tests.fuzz.run --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

.PHONY: golden
golden: $(VENV)/.installed-dev ## regenerate golden files (review the diff)
	SKTYPES_UPDATE_GOLDEN=1 $(BIN)/pytest -q -p no:cacheprovider -m "not slow" tests -k golden

.PHONY: docs
docs: $(VENV)/.installed-dev ## build the documentation site into site/ (strict: any warning fails)
	$(BIN)/mkdocs build --strict

.PHONY: docs-serve
docs-serve: $(VENV)/.installed-dev ## serve the documentation with live reload on 127.0.0.1:8000
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

.PHONY: browser
browser: ## install Debian's chromium for the browser test of the docs (root + apt)
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@chromium --version 2>/dev/null | head -1

.PHONY: bench
bench: $(BENCH_VENV)/.installed $(BENCH_MCP_VENV)/.installed $(foreach f,$(INTEGRATIONS),.venv-$(f)/.installed) ## side-by-side benchmarks against the peers (own venvs; not a test)
	@for b in benchmarks/bench_*.py; do [ $$b = benchmarks/bench_mcp.py ] && continue; echo "== $$b"; $(BENCH_VENV)/bin/python $$b || exit 1; done
	@echo "== benchmarks/bench_mcp.py (in $(BENCH_MCP_VENV))"; $(BENCH_MCP_VENV)/bin/python benchmarks/bench_mcp.py $(BENCH_MCP_ARGS)

# e.g. a smoke run: make bench-mcp BENCH_MCP_ARGS="--calls 20 --rounds 1 --no-corpus"
.PHONY: bench-mcp
bench-mcp: $(BENCH_MCP_VENV)/.installed ## sktypes serve vs FastMCP's from_openapi only (BENCH_MCP_ARGS: its options)
	$(BENCH_MCP_VENV)/bin/python benchmarks/bench_mcp.py $(BENCH_MCP_ARGS)

.PHONY: clean
clean: ## remove the venv, caches and build output
	rm -rf $(VENV) $(COMPAT_VENV) $(BENCH_VENV) $(BENCH_MCP_VENV) $(addprefix .venv-,$(INTEGRATIONS)) .mypy_cache .pytest_cache .ruff_cache .hypothesis build dist site *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
