"""Stoplight Prism (``node_modules/.bin/prism``, installed by ``make node_modules``) on 127.0.0.1.

``prism mock SPEC --errors`` checks every request against the spec (an invalid one is answered
4xx with the violations) and answers a valid one from the spec's examples, or, with
``--dynamic``, from its schemas (json-schema-faker, seeded here so runs repeat). With
``--errors`` an answer that breaks the spec is replaced by a 500 naming the violations: the
server's own fault, kept apart from the client's. Every answer carries what Prism found in
the ``sl-violations`` header.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["PRISM", "Prism", "prism", "prism_available", "violations"]

ROOT = Path(__file__).resolve().parents[2]
PRISM = ROOT / "node_modules" / ".bin" / "prism"


def prism_available() -> bool:
    """Whether ``make node_modules`` has installed Prism (and node runs)."""
    return PRISM.is_file() and os.access(PRISM, os.X_OK)


@dataclass(frozen=True, slots=True)
class Prism:
    """A running Prism: ``url`` is its base URL (no base path: Prism matches the spec's paths)."""

    url: str
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def crashed(self, wait: float = 0.0) -> str | None:
        """Why Prism exited (the error line of its log), ``None`` while it runs.

        ``wait``: seconds to give a process that dropped a connection to finish exiting.
        """
        if self.process is None:
            return None
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            return None
        lines = self.log.read_text(errors="replace").splitlines()
        errors = [line.strip() for line in lines if re.match(r"\s*\w*Error\b", line)]
        where = [line.strip() for line in lines if line.strip().startswith("at ")][:1]
        said = "; ".join([*errors[-1:], *where]) or (lines[-1] if lines else "no output")
        return f"Prism crashed (exit {self.process.returncode}): {said}"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def prism(spec: Path, *, dynamic: bool, seed: int = 1, timeout: float = 300.0) -> Iterator[Prism]:
    """Run ``prism mock spec --errors [--dynamic --seed S]`` until the block ends.

    Raises:
        RuntimeError: Prism exited or did not listen within ``timeout`` seconds (its log's
            last lines say why).
    """
    with tempfile.TemporaryDirectory(prefix="prism-") as tmp:
        log = Path(tmp) / "prism.log"
        for _attempt in range(3):  # the free port may be taken between the probe and Prism
            port = _free_port()
            argv = [str(PRISM), "mock", str(spec), "--errors", "-h", "127.0.0.1", "-p", str(port)]
            if dynamic:
                argv += ["--dynamic", "--seed", str(seed)]
            with log.open("wb") as out:
                process = subprocess.Popen(
                    argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
                )
            try:
                if _wait(process, log, timeout):
                    yield Prism(f"http://127.0.0.1:{port}", log, process)
                    return
            finally:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            if "EADDRINUSE" not in log.read_text(errors="replace"):
                break
        lines = log.read_text(errors="replace").strip().splitlines()
        fatal = [line.split("fatal", 1)[1].strip() for line in lines if "✖  fatal" in line]
        said = fatal[:1] or lines[-5:]  # Prism's own fatal line, else its last words
        text = " | ".join(said).replace(f"{ROOT}/", "")
        raise RuntimeError(f"prism did not start on {spec.name}: {text}")


def _wait(process: subprocess.Popen[bytes], log: Path, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if b"Prism is listening on" in log.read_bytes():
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.1)
    return False


@dataclass(frozen=True, slots=True)
class Verdict:
    """What Prism said about one exchange.

    Attributes:
        request: what it found wrong with the request (``sl-violations`` at ``request``, or
            its own problem document: unauthorized, no path or method matched...).
        answer: what it found wrong with its own answer (the spec's example or its draw).
        server_error: Prism could not answer (a 500 problem of its own).
    """

    request: list[str]
    answer: list[str]
    server_error: str | None = None


def violations(headers: Any, body: bytes) -> Verdict:
    """Read Prism's ``sl-violations`` header and problem documents."""
    request: list[str] = []
    answer: list[str] = []
    raw = headers.get("sl-violations")
    if raw:
        try:  # "Too many violations! [...]" when the list is long (and cut short)
            items = json.loads(raw[raw.find("[") :] if "[" in raw else raw)
        except ValueError:
            side = "request" if '"location":["request"' in raw else "response"
            items = [{"location": [side], "message": raw, "severity": "Error"}]
        for item in items if isinstance(items, list) else []:
            if item.get("severity", "Error") != "Error":  # warnings (a deprecated parameter)
                continue
            location = [str(p) for p in item.get("location", [])]
            text = f"{'.'.join(location)}: {item.get('message', item)}"
            (request if location[:1] == ["request"] else answer).append(text)
    ctype = str(headers.get("content-type", ""))
    server_error = None
    if "problem+json" in ctype and body:
        try:
            problem = json.loads(body)
        except ValueError:
            problem = None
        if isinstance(problem, dict) and "stoplight.io/prism" in str(problem.get("type", "")):
            kind = str(problem.get("type")).rpartition("#")[2]
            said = f"{kind}: {problem.get('detail') or problem.get('title')}"
            details = [
                f"{'.'.join(str(p) for p in v.get('location', []))}: {v.get('message')}"
                for v in problem.get("validation") or []
                if isinstance(v, dict)
            ]
            if int(problem.get("status") or 0) >= 500:
                server_error = "; ".join([said, *details])
            elif not request:
                request.extend(details or [said])
    return Verdict(request, answer, server_error)
