"""The results table in ``docs/conformance.md``, written from ``tests/vendor/results.json``."""

from __future__ import annotations

from pathlib import Path

from tests.vendor.run import SpecResult

__all__ = ["RESULTS", "TABLE", "write_table"]

ROOT = Path(__file__).resolve().parents[2]
RESULTS = Path(__file__).with_name("results.json")
TABLE = ROOT / "docs" / "conformance.md"
BEGIN = "<!-- conformance-results: begin (make conformance writes this part) -->"
END = "<!-- conformance-results: end -->"


def write_table(results: dict[str, SpecResult]) -> None:
    """Replace the part of ``docs/conformance.md`` between the markers with ``results``."""
    page = TABLE.read_text(encoding="utf-8")
    head, _, rest = page.partition(BEGIN)
    _, _, tail = rest.partition(END)
    TABLE.write_text(head + BEGIN + "\n" + render(results) + END + tail, encoding="utf-8")


def render(results: dict[str, SpecResult]) -> str:
    lines = [
        "| spec | version | operations | imports | mypy --strict | "
        "static: callable / accepted / parsed | dynamic: callable / accepted / parsed |",
        "|---|---|---:|---|---:|---|---|",
    ]
    for key, r in sorted(results.items()):
        imports = "yes" if r.importable else f"**no**: {r.cause}"
        mypy = "-" if r.mypy_errors is None else str(r.mypy_errors)
        cells = [_cell(r, m) for m in ("static", "dynamic")]
        operations = f"{r.operations} ({r.streamed} streamed)" if r.streamed else str(r.operations)
        row = [key, r.version, operations, imports, mypy, *cells]
        lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    for key, r in sorted(results.items()):
        failures = [(m, f) for m, c in r.modes.items() for f in c.failures]
        if not failures:
            continue
        lines.append(f'??? note "{key}: {len(failures)} failures"')
        lines.append("")
        for mode, f in failures:
            # a list item, not a table cell: a pipe is a pipe (`\|` shows the backslash)
            lines.append(f"    - `{f.operation}` {mode}, not {f.stage}{f.whose}: {f.cause}")
        lines.append("")
    return "\n".join(lines) + "\n"


def _cell(r: SpecResult, mode: str) -> str:
    c = r.modes.get(mode)
    if c is None:
        return "-"
    if c.error:
        return f"Prism: {c.error}"
    return f"{c.callable}/{c.run} · {c.accepted}/{c.callable} · {c.parsed}/{c.answered_2xx}"
