# sktypes — every task a fresh clone needs. `make help` lists them.
SHELL := /bin/bash
PYTHON ?= python3
export HYPOTHESIS_PROFILE ?= ci
export NO_MKDOCS_2_WARNING := 1

.DEFAULT_GOAL := help

# --- installs: every venv from its committed lock (lock/requirements-*.txt, `make lock`) ---
# `make test-latest` builds the same venvs (named .venv-latest*) from the newest versions
# pyproject.toml allows instead, so upstream drift is found on purpose, not by a red CI.
ifdef LATEST
VENV := .venv-latest
ENV := .venv-latest-
else
VENV := .venv
ENV := .venv-
endif
BIN := $(VENV)/bin
PY := $(BIN)/python
UV := $(BIN)/uv
UV_VERSION := $(shell sed -n 's/^uv==//p' lock/requirements-dev.txt)
LOCK_PYTHON := 3.11
LOCK_PLATFORM := x86_64-manylinux_2_28
comma := ,

# $(call install,VENV,LOCK,EXTRAS[,MORE]): the locked pins exactly (uv pip sync removes what
# the lock does not list), then sktypes itself, editable, without resolving again. LATEST:
# the newest allowed versions of the same requirements.
ifdef LATEST
install = $(UV) pip install --quiet --upgrade --python $(1)/bin/python -e '.$(if $(3),[$(3)])' $(4) --config-settings editable_mode=compat
else
install = $(UV) pip sync --quiet --python $(1)/bin/python lock/requirements-$(2).txt && $(UV) pip install --quiet --no-deps --python $(1)/bin/python -e . --config-settings editable_mode=compat
endif

# a venv with uv (the version the dev lock pins), which installs every other venv
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet "uv==$(UV_VERSION)"

$(VENV)/.installed-base: lock/requirements-run.txt | $(BIN)/python
ifdef LATEST
	$(call install,$(VENV),run,mcp)
else
	$(UV) pip install --quiet --python $(PY) -r lock/requirements-run.txt
	$(UV) pip install --quiet --no-deps --python $(PY) -e . --config-settings editable_mode=compat
endif
	@touch $@

$(VENV)/.installed-dev: lock/requirements-dev.txt | $(BIN)/python
	$(call install,$(VENV),dev,dev)
	@touch $@ $(VENV)/.installed-base

# The lower bounds of pyproject.toml, proved: every runtime requirement at the lowest version
# allowed (pydantic 2.12.0: its MISSING sentinel is pydantic.experimental's, as on 2.13, which
# Semantic Kernel pins), from its own lock (lock/lowest.in, --resolution lowest-direct), also
# under `make test-latest`. It runs the tests that need only the runtime requirements.
LOWEST_VENV := .venv-lowest

$(LOWEST_VENV)/.installed: lock/requirements-lowest.txt | $(BIN)/python
	$(UV) venv --quiet --allow-existing --python $(PYTHON) $(LOWEST_VENV)
	$(UV) pip sync --quiet --python $(LOWEST_VENV)/bin/python lock/requirements-lowest.txt
	$(UV) pip install --quiet --no-deps --python $(LOWEST_VENV)/bin/python -e . --config-settings editable_mode=compat
	@touch $@

BENCH_VENV := .bench-venv

$(BENCH_VENV)/.installed: lock/requirements-bench.txt | $(BIN)/python
	$(UV) venv --quiet --allow-existing --python $(PYTHON) $(BENCH_VENV)
	$(call install,$(BENCH_VENV),bench,bench)
	@touch $@

# The MCP benchmark's own venv: FastMCP needs mcp 2, the bench venv's semantic-kernel pins mcp<2
BENCH_MCP_VENV := .bench-mcp-venv

$(BENCH_MCP_VENV)/.installed: lock/requirements-bench-mcp.txt | $(BIN)/python
	$(UV) venv --quiet --allow-existing --python $(PYTHON) $(BENCH_MCP_VENV)
	$(call install,$(BENCH_MCP_VENV),bench-mcp,bench-mcp)
	@touch $@

# --- the lock: one file per venv, for CPython $(LOCK_PYTHON) on Linux (what CI runs) ---
# `make lock` brings the locks in step with pyproject.toml, keeping every pin it can;
# `make lock UPGRADE=1` moves every pin to the newest allowed version (then run make test).
INTEGRATIONS := semantic-kernel agent-framework langchain pydantic-ai openai-agents
TEST_EXTRAS_langchain := ,langchain-tests
LOCK_FILES := dev run lowest fuzz bench bench-mcp $(INTEGRATIONS)
compile = $(UV) pip compile --quiet --python-version $(LOCK_PYTHON) --python-platform $(LOCK_PLATFORM) $(if $(UPGRADE),--upgrade) --custom-compile-command 'make lock'
LOCK_dev := pyproject.toml --extra dev
LOCK_run := pyproject.toml --extra mcp -c lock/requirements-dev.txt
LOCK_fuzz := pyproject.toml --extra dev --extra fuzz -c lock/requirements-dev.txt
LOCK_lowest := pyproject.toml lock/lowest.in --resolution lowest-direct
LOCK_bench := pyproject.toml --extra bench
LOCK_bench-mcp := pyproject.toml --extra bench-mcp
$(foreach f,$(INTEGRATIONS),$(eval LOCK_$(f) := pyproject.toml --extra $(f) --extra integration-tests$(subst $(comma), --extra ,$(TEST_EXTRAS_$(f)))))

.PHONY: lock
lock: | $(BIN)/python ## bring lock/ in step with pyproject.toml (UPGRADE=1: newest allowed versions)
	@for f in $(LOCK_FILES); do echo "lock/requirements-$$f.txt"; done
	$(compile) $(LOCK_dev) -o lock/requirements-dev.txt
	$(foreach f,$(filter-out dev,$(LOCK_FILES)),$(compile) $(LOCK_$(f)) -o lock/requirements-$(f).txt &&) true

.PHONY: lock-check
lock-check: | $(BIN)/python ## fail when a lock no longer matches pyproject.toml (run make lock)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && cp lock/*.txt "$$tmp"/ && \
	$(compile) $(LOCK_dev) -o "$$tmp/requirements-dev.txt" && \
	$(foreach f,$(filter-out dev,$(LOCK_FILES)),$(compile) $(subst lock/requirements-dev.txt,$$tmp/requirements-dev.txt,$(LOCK_$(f))) -o "$$tmp/requirements-$(f).txt" &&) \
	for f in $(LOCK_FILES); do \
	  diff -q <(grep '^[A-Za-z0-9]' lock/requirements-$$f.txt) <(grep '^[A-Za-z0-9]' "$$tmp/requirements-$$f.txt") >/dev/null \
	  || { echo "lock/requirements-$$f.txt is out of step with pyproject.toml: run make lock"; exit 1; }; \
	done; echo "lock: in step with pyproject.toml"

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
test: $(VENV)/.installed-dev $(LOWEST_VENV)/.installed node_modules/.installed $(if $(LATEST),,lock-check) lint ## the whole suite (from the lock): lint, types, unit, property, golden, corpus, docs
	@# the docs' browser test needs Chromium: installed where we are root on Debian (CI), else it skips and says so
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then $(MAKE) --no-print-directory browser || echo "warning: chromium could not be installed; the browser test will skip"; fi
	$(BIN)/pytest -n 2 --dist loadgroup -q -p no:cacheprovider
	$(MAKE) --no-print-directory test-lowest
	$(MAKE) --no-print-directory integrations

# The tests that need only the runtime requirements, pytest and hypothesis: all but the
# modules and tests below (dev tools: ruff, mypy, pre-commit, the MCP SDK, the oracles,
# the docs; the corpus, which the main suite reads). A new test module that imports a dev
# package goes in LOWEST_SKIP.
LOWEST_SKIP := tests/integrations tests/fuzz tests/test_fuzz_smoke.py tests/test_api.py \
  tests/test_docs_examples.py tests/test_docs_site.py tests/test_packaging.py \
  tests/test_precommit_e2e.py tests/test_stubs.py tests/test_auth.py tests/test_corpus_openapi.py \
  tests/test_generate_conformance.py tests/test_generate_consistency.py \
  tests/test_generate_corpus.py tests/test_generate_oracle.py tests/test_generate_roundtrip.py \
  tests/test_generate_split.py tests/test_schema_types.py tests/test_subsume_soundness.py \
  tests/test_templates_handlebars.py tests/test_validation_warnings.py tests/test_vendor_conformance.py \
  tests/test_vendor_arguments.py tests/test_vendor_compare.py tests/test_vendor_misreadings.py \
  tests/test_argument_doors.py tests/test_newcomer.py tests/test_mcp_listings.py \
  tests/test_mcp_packages.py tests/test_mcp_unreachable.py tests/test_mcp_spec_records.py
# ... and the tests that need mypy or the tokenizer extra (sktypes[tokens]). The Gemini round
# trip: the lowest hypothesis draws {"enum": [false, 0], "items": false}: said exactly now
# (anyOf by kind, tests/test_manual_roundtrip.py), but read back without its vacuous array
# keywords (no listed value is an array: the same values, spelt differently), so not the
# identity the property asks for; the main suite's draws pass. openapi-spec-validator 0.7.1 (the
# lowest bound: semantic-kernel 1.45 pins < 0.8) does not check schemas in $ref'd files: the
# load says so (tests/test_openapi_validator.py), so check_clean's finding there is not made.
LOWEST_DESELECT := tests/test_check.py::test_pre_commit_try_repo_runs_the_hook \
  tests/test_check_clean.py::test_a_changed_ref_file_is_loaded_and_its_finding_reported \
  tests/test_manual_roundtrip.py::test_manual_views_manual_is_the_identity[gemini] \
  tests/test_code_mode.py::test_every_source_gives_an_importable_strict_clean_module \
  tests/test_manual_detail.py::test_the_tokenizer_is_real_o200k_when_installed \
  tests/test_manual_detail.py::test_the_estimate_is_within_ten_percent_of_o200k_on_manuals \
  tests/test_manual_detail.py::test_a_budget_counted_by_the_estimate_fits_as_o200k_counts_it \
  tests/test_manual_detail.py::test_budget_keeps_each_function_as_rich_as_fits \
  tests/test_manual_detail.py::test_cli_detail_budget_and_report \
  tests/test_generate.py::test_golden_packages_pass_ruff_and_mypy_strict \
  tests/test_generate.py::test_parameters_named_like_modules_do_not_import_them \
  tests/test_integrations_core.py::test_an_openapi_plugin_is_a_target_with_the_specs_schemas

.PHONY: test-lowest
test-lowest: $(LOWEST_VENV)/.installed ## the runtime-only tests on the lowest versions pyproject.toml allows
	@echo "== the lowest allowed versions ($(LOWEST_VENV): pydantic $$($(LOWEST_VENV)/bin/python -c 'import pydantic; print(pydantic.VERSION)'))"
	$(LOWEST_VENV)/bin/pytest -n 2 -q -p no:cacheprovider -o addopts= $(addprefix --ignore=,$(LOWEST_SKIP)) $(addprefix --deselect=,$(LOWEST_DESELECT)) tests

.PHONY: test-latest
test-latest: ## the whole suite on the newest versions pyproject.toml allows (.venv-latest*; not in CI)
	$(MAKE) --no-print-directory test LATEST=1

# --- framework integrations: each framework in its own venv (.venv-<extra>), from its lock ---
$(ENV)%/.installed: lock/requirements-%.txt | $(BIN)/python
	$(UV) venv --quiet --allow-existing --python $(PYTHON) $(ENV)$*
	$(call install,$(ENV)$*,$*,$*$(comma)integration-tests$(TEST_EXTRAS_$*))
	@touch $@

.PHONY: integrations $(addprefix integration-,$(INTEGRATIONS)) integration-sk integration-af
integrations: $(addprefix integration-,$(INTEGRATIONS)) ## every framework's tests, each in its own venv

$(addprefix integration-,$(INTEGRATIONS)): integration-%: $(ENV)%/.installed
	$(ENV)$*/bin/python -m mypy --strict --cache-dir $(ENV)$*/.mypy_cache sktypes/integrations/$(subst -,_,$*).py
	SKTYPES_INTEGRATION=$* $(ENV)$*/bin/python -m pytest -q -p no:cacheprovider tests/integrations

integration-sk: integration-semantic-kernel ## Semantic Kernel's integration tests (own venv)
integration-af: integration-agent-framework ## Agent Framework's integration tests (own venv)

FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=

$(VENV)/.installed-fuzz: lock/requirements-fuzz.txt | $(VENV)/.installed-dev
	$(UV) pip install --quiet --python $(PY) -r lock/requirements-fuzz.txt
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
bench: $(BENCH_VENV)/.installed $(BENCH_MCP_VENV)/.installed $(foreach f,$(INTEGRATIONS),$(ENV)$(f)/.installed) ## side-by-side benchmarks against the peers (own venvs; not a test)
	@for b in benchmarks/bench_*.py; do case $$b in benchmarks/bench_mcp.py|benchmarks/bench_manual.py) continue;; esac; echo "== $$b"; $(BENCH_VENV)/bin/python $$b || exit 1; done
	@echo "== benchmarks/bench_mcp.py (in $(BENCH_MCP_VENV))"; $(BENCH_MCP_VENV)/bin/python benchmarks/bench_mcp.py $(BENCH_MCP_ARGS)
	@echo "== benchmarks/bench_manual.py (in $(BENCH_MCP_VENV))"; $(BENCH_MCP_VENV)/bin/python benchmarks/bench_manual.py

# e.g. a smoke run: make bench-mcp BENCH_MCP_ARGS="--calls 20 --rounds 1 --no-corpus"
.PHONY: bench-mcp
bench-mcp: $(BENCH_MCP_VENV)/.installed ## sktypes serve vs FastMCP's from_openapi only (BENCH_MCP_ARGS: its options)
	$(BENCH_MCP_VENV)/bin/python benchmarks/bench_mcp.py $(BENCH_MCP_ARGS)

# --- conformance: generated clients against Stoplight Prism over real vendor specs ---
# Prism comes from the committed package-lock.json (npm ci: every tarball checked against
# the lock's integrity) into ./node_modules; node is the system's. The vendor specs are
# fetched by pinned version into .cache/specs/ (tests/vendor/specs.py records their sha256).
node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

.PHONY: specs
specs: $(VENV)/.installed-dev ## fetch the pinned vendor specs into .cache/specs/ (checked by sha256)
	$(PY) -m tests.vendor fetch

.PHONY: conformance
conformance: $(VENV)/.installed-dev node_modules/.installed ## every operation of every real spec against Prism, static and dynamic; rewrites docs/conformance.md (SPECS=github,corpus-* MODES=static)
	nice $(PY) -m tests.vendor run $(if $(SPECS),--specs '$(SPECS)') $(if $(MODES),--modes '$(MODES)')

.PHONY: clean
clean: ## remove the venv, caches and build output
	rm -rf .venv .venv-* $(BENCH_VENV) $(BENCH_MCP_VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis build dist site *.egg-info node_modules .cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
