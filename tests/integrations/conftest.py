"""The framework integrations' tests: each framework runs in its own venv (``make integrations``).

``SKTYPES_INTEGRATION`` names the framework this environment has (``semantic_kernel``,
``agent_framework``, ``langchain``, ``pydantic_ai``, ``openai_agents``); the other
frameworks' directories are not collected. The main venv sets none, so none is.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.integrations import support

FRAMEWORKS = ("semantic_kernel", "agent_framework", "langchain", "pydantic_ai", "openai_agents")
_HERE = os.environ.get("SKTYPES_INTEGRATION", "").replace("-", "_")
collect_ignore = [name for name in FRAMEWORKS if name != _HERE]


@pytest.fixture(scope="session")
def pets_server() -> Iterator[str]:
    """The pets API of :mod:`support`, served on 127.0.0.1."""
    with support.serve() as url:
        yield url


@pytest.fixture(scope="session")
def generated_pets(tmp_path_factory: pytest.TempPathFactory, pets_server: str) -> object:
    """An instance of the plugin generated from the pets spec, calling the local server."""
    return support.generated_plugin(tmp_path_factory.mktemp("generated"), pets_server)


@pytest.fixture(scope="session")
def openapi_pets(pets_server: str) -> object:
    """The pets spec as a kernel plugin calling the local server (no generated code)."""
    return support.openapi_plugin(pets_server)
