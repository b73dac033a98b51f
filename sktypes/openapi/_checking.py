"""The validation step of a load, run beside the building of the views when it can be.

A load validates in three steps (:class:`Validation`):

1. :meth:`~Validation.start`, before the views are built: on a big spec (at least
   :data:`FORK_MIN_BYTES`) with no verdict recorded, a forked child (:mod:`._forked`)
   admits every ``$ref``'d document and runs openapi-spec-validator on its copy of the
   parsed documents, on the second core;
2. :meth:`~Validation.prepare`, after the views are built, exactly where the sequential
   load validates: every ``$ref``'d document is admitted and the verdict's key computed; a
   recorded verdict ends the child;
3. :meth:`~Validation.finish`, when the caller is about to commit (write files, answer a
   client, return the plugin): the child's outcome is taken if it ran on the very
   documents the parent admitted (same files in the same order, same digests), else the
   validator runs here. The verdict (recorded by the parent), the error or the warnings
   are then those of the sequential run, in the same order.

``SKTYPES_VALIDATE_INLINE=1``, another thread in the process, or a platform without
``os.fork`` make every step run in the process.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Callable, Iterable

from sktypes._stages import stage
from sktypes.errors import OpenApiError
from sktypes.openapi._forked import Forked, run_forked
from sktypes.openapi._model import OpenApiPlugin
from sktypes.openapi._refs import Refs
from sktypes.openapi._source import Document, locate
from sktypes.openapi._verdicts import (
    Outcome,
    Verdict,
    outcome_of,
    recorded,
    settle,
    validate_once,
    verdict_key,
)

__all__ = ["FORK_MIN_BYTES", "Validation", "add_line", "validate_spec"]

FORK_MIN_BYTES = 256 * 1024
"""A spec smaller than this is validated in the process (forking would cost more)."""


class Validation:
    """openapi-spec-validator's verdict on one load, computed concurrently when it can be."""

    def __init__(
        self, doc: Document, version: int, refs: Refs, *, strict: bool, concurrent: bool
    ) -> None:
        """``concurrent``: start a child now if it is worth it (no remote ``$ref``s read)."""
        self.doc = doc
        self.version = version
        self.refs = refs
        self.strict = strict
        self._child: Forked | None = None
        self._key: str | None = None
        self._known: Verdict | None = None
        if concurrent:
            self._start()

    def _run(self) -> tuple[str, ...] | None:
        """One run of the validator, as the sequential load makes it."""
        if self.strict:
            validate_spec(self.doc, self.version, self.refs)
            return None
        lines: list[str] = []
        validate_spec(self.doc, self.version, self.refs, lines.append)
        return tuple(lines)

    def _start(self) -> None:
        raw = self.doc.raw()
        if raw is None or len(raw) < FORK_MIN_BYTES:
            return
        if recorded(verdict_key(self.refs, self.version), report=not self.strict) is not None:
            return  # a spec validated before (checked again, on every document, in prepare)

        def work() -> tuple[list[str], str | None, Outcome]:  # in the child
            self.refs.admit_all()
            key = verdict_key(self.refs, self.version)
            return [uri for uri, _ in self.refs.documents()], key, outcome_of(self._run)

        self._child = run_forked(work)

    def prepare(self) -> None:
        """Admit every ``$ref``'d document and look the verdict up (after the build)."""
        stage(f"validating {self.doc.display}")
        try:
            self.refs.admit_all()  # the validator sees these documents and nothing else
            self._key = verdict_key(self.refs, self.version)
        except BaseException:
            self.cancel()
            raise
        self._known = recorded(self._key, report=not self.strict)
        if self._known is not None:
            self.cancel()

    def cancel(self) -> None:
        """End the child, if one runs (the load failed, or the verdict is known)."""
        if self._child is not None:
            self._child.cancel()
            self._child = None

    def verdict(self) -> Verdict:
        """The verdict (joining the child, or validating here)."""
        if self._known is not None:
            return self._known
        outcome: Outcome | None = None
        if self._child is not None:
            sent = self._child.result()
            self._child = None
            uris = [uri for uri, _ in self.refs.documents()]
            if (
                isinstance(sent, tuple)
                and len(sent) == 3
                and self._key is not None
                and sent[0] == uris
                and sent[1] == self._key
            ):
                outcome = sent[2]
        if outcome is None:
            outcome = outcome_of(self._run)
        self._known = settle(self.doc, self._key, outcome, report=not self.strict)
        return self._known

    def finish(self, plugin: OpenApiPlugin, warnings: list[str]) -> OpenApiPlugin:
        """``plugin`` validated: the error raised, or the problems added to ``warnings``."""
        doc, version, refs = self.doc, self.version, self.refs
        try:
            if self.strict:
                verdict = self.verdict()
                verdict.check(doc.display)
            else:
                verdict = _named_from_here(doc, self.verdict())
                if (
                    verdict.problems
                    and not plugin.views
                    and doc.data.get("paths") not in (None, {})
                ):
                    # nothing could be built: the first problem is an error
                    first = validate_once(
                        doc, version, refs, lambda: validate_spec(doc, version, refs)
                    )
                    first.check(doc.display)
                warnings.extend(verdict.problems)
            if len(refs.documents()) > 1:  # (the validator is not imported here otherwise)
                from sktypes.openapi._validate import ref_files_not_checked

                gap = ref_files_not_checked(refs)  # an old validator: said, never passed silently
                if gap is not None:
                    warnings.append(gap)
        except OpenApiError as exc:
            add_line(exc, [d for _, d in refs.documents()])
            raise
        return dataclasses.replace(plugin, validation=verdict)


def add_line(exc: OpenApiError, documents: Iterable[Document]) -> None:
    """Give an error naming a JSON pointer the line and column of that place in its file."""
    where = exc.where
    if exc.line is not None or not where or where == "/" or not where.startswith("/"):
        return
    for doc in documents:
        if doc.display == exc.file:
            found = locate(doc.raw(), where)
            if found is not None:
                exc.at_line(found.key_line, found.key_column)
            return


def _named_from_here(doc: Document, verdict: Verdict) -> Verdict:
    """A ``$ref``'d file in the problems is recorded from the spec's folder: name it from here."""
    base = posixpath.dirname(doc.display)
    if not base or not any(_in_other_file(line) for line in verdict.problems):
        return verdict
    lines = []
    for line in verdict.problems:
        if _in_other_file(line) and "://" not in line.partition("#")[0]:
            file, _, rest = line.partition("#")
            line = f"{posixpath.normpath(posixpath.join(base, file))}#{rest}"
        lines.append(line)
    return dataclasses.replace(verdict, problems=tuple(lines))


def _in_other_file(line: str) -> bool:
    """A validation line placed in a ``$ref``'d file (``<file>#<pointer> ...: ...``)."""
    return not line.startswith("/") and "#" in line.partition(": ")[0]


def validate_spec(
    doc: Document, version: int, refs: Refs, report: Callable[[str], None] | None = None
) -> None:
    """openapi-spec-validator on ``doc`` (:mod:`._validate`, imported when first needed)."""
    from sktypes.openapi._validate import validate_spec as run

    run(doc, version, refs, report)
