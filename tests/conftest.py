"""Shared test configuration: hypothesis profiles (``ci`` is bounded; ``dev`` explores more)."""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A real HTTP API on 127.0.0.1 (pages, failures, OAuth2, streams): the ``remote_server`` fixture.
# The package generated from tests/specs/runtime/remote_rules.yaml (``package_dir``) and its module
# (``rules``): the remote-client rules tested through a generated package and ``serve``.
from tests.remote_rules import package_dir, rules  # noqa: E402, F401
from tests.remote_server import remote_server  # noqa: E402, F401

# Validation verdicts are cached per user (sktypes.openapi._verdicts): the suite keeps its own
os.environ.setdefault("SKTYPES_CACHE_DIR", tempfile.mkdtemp(prefix="sktypes-test-cache-"))
