"""Read a prompt template config from a YAML or JSON file, with errors naming file and line.

The file goes through sktypes' one document loader (:mod:`sktypes._documents`) under
:data:`PROMPT_CONFIG_LIMITS`: the document limits, with a 2 MB size limit and no YAML
aliases (a prompt has no use for them). A config that does not validate is reported at its
first problem's place (``file:line:column: $.path: why``), the others after it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from sktypes import _pointer
from sktypes._documents import decode_utf8, locate, parse_document, read_file
from sktypes.errors import TemplateError, format_error
from sktypes.limits import DEFAULT_LIMITS, DocumentLimits
from sktypes.templates._config import PromptTemplateConfig

__all__ = [
    "MAX_CONFIG_BYTES",
    "PROMPT_CONFIG_LIMITS",
    "looks_like_prompt_template_config",
    "load_prompt_template_config",
    "parse_prompt_template_config",
]

PROMPT_CONFIG_LIMITS = DocumentLimits(
    max_bytes=2_000_000,
    max_depth=DEFAULT_LIMITS.max_depth,
    max_aliases=0,
    max_nodes=DEFAULT_LIMITS.max_nodes,
)
"""The limits a prompt template config file is read under."""

MAX_CONFIG_BYTES = PROMPT_CONFIG_LIMITS.max_bytes
"""Larger prompt files are refused."""


def looks_like_prompt_template_config(data: Any) -> bool:
    """Whether parsed file data is meant as a prompt template config (for ``sktypes check``).

    A mapping with a string ``template`` and at least one other config key; most of its keys
    must be config keys, so a typo still counts as a config (and is then reported).
    """
    if not isinstance(data, dict) or not isinstance(data.get("template"), str):
        return False
    known = set(PromptTemplateConfig.model_fields)
    keys = set(data)
    return len(keys & known) >= 2 and len(keys - known) <= len(keys & known)


def load_prompt_template_config(path: str | Path) -> PromptTemplateConfig:
    """Read and validate a prompt template config file (``.yaml``, ``.yml`` or ``.json``).

    Raises:
        TemplateError: the file cannot be read, does not parse, or does not validate; the
            message names the file and the line (and ``$.path`` for validation problems).
    """
    name = str(path)
    raw = read_file(Path(path), name, PROMPT_CONFIG_LIMITS, TemplateError)
    return parse_prompt_template_config(decode_utf8(raw, name, TemplateError), file=name)


def parse_prompt_template_config(text: str, *, file: str | None = None) -> PromptTemplateConfig:
    """Parse config text (YAML or JSON; JSON is YAML) and validate it.

    Raises:
        TemplateError: the text does not parse or validate (message names the line).
    """
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise TemplateError("a lone surrogate is not Unicode text", file=file, line=line) from None
    data = parse_document(raw, file, TemplateError, PROMPT_CONFIG_LIMITS, strict_json=True)
    if not isinstance(data, dict):
        raise TemplateError("a prompt template config must be a mapping", file=file, line=1)
    try:
        config = PromptTemplateConfig.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, raw, file) from None
    config._file = file
    config._first_line, config._indent = _block_start(raw)
    return config


def _block_start(raw: bytes) -> tuple[int | None, int]:
    """The line where the ``template`` text starts when it is a ``|`` block, and its indent.

    Only a literal block keeps the template's lines as the file's lines (and its columns,
    shifted by the indentation); for other styles errors count from the template's start.
    """
    found = locate(raw, "/template", PROMPT_CONFIG_LIMITS)
    if found is None or found.style != "|":
        return None, 0
    first = found.line + 1  # the line after "template: |"
    for text in raw.splitlines()[first - 1 :]:
        if text.strip():
            return first, len(text) - len(text.lstrip(b" "))
    return first, 0


def _validation_error(exc: ValidationError, raw: bytes, file: str | None) -> TemplateError:
    """The first problem at its place (``file:line:column: $.path: why``), then the others."""
    problems = []
    for error in exc.errors():
        loc = [p for p in error["loc"] if p not in _UNION_TAGS]
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
        problems.append((path, _place_of(raw, loc), str(error["msg"])))
    (path, (line, column), why), others = problems[0], problems[1:]
    also = "".join(f"; {format_error(m, line=n, column=c, where=p)}" for p, (n, c), m in others)
    message = f"invalid prompt template config: {why}{also}"
    return TemplateError(message, file=file, line=line, column=column, where=path)


_UNION_TAGS = frozenset({"function-after[_valid_schema(), nullable[dict[str,any]]]"})


def _place_of(raw: bytes, loc: list[int | str]) -> tuple[int | None, int | None]:
    """The line and column of ``loc`` (its key's, or its deepest existing parent's)."""
    for end in range(len(loc), -1, -1):
        found = locate(raw, _pointer.join("", *loc[:end]), PROMPT_CONFIG_LIMITS)
        if found is not None:
            return found.key_line, found.key_column
    return None, None
