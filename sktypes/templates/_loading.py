"""Read a prompt template config from a YAML or JSON file, with errors naming file and line.

YAML is read with the safe loader, without aliases (no "billion laughs") and with a size
limit. A config that does not validate reports every problem as ``$.path (line N)``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from sktypes.errors import TemplateError
from sktypes.templates._config import PromptTemplateConfig

__all__ = [
    "MAX_CONFIG_BYTES",
    "looks_like_prompt_template_config",
    "load_prompt_template_config",
    "parse_prompt_template_config",
]

MAX_CONFIG_BYTES = 2_000_000
"""Larger prompt files are refused."""


class _NoAliasLoader(yaml.SafeLoader):
    """The safe loader, refusing anchors and aliases."""

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise yaml.MarkedYAMLError(
                "while composing", None, "aliases are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)


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
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise TemplateError(f"cannot read the file: {exc.strerror}", file=name) from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise TemplateError(f"file is larger than {MAX_CONFIG_BYTES} bytes", file=name)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TemplateError(f"not UTF-8 (byte {exc.start})", file=name) from None
    return parse_prompt_template_config(text, file=name)


def parse_prompt_template_config(text: str, *, file: str | None = None) -> PromptTemplateConfig:
    """Parse config text (YAML or JSON; JSON is YAML) and validate it.

    Raises:
        TemplateError: the text does not parse or validate (message names the line).
    """
    data = _parse(text, file)
    if not isinstance(data, dict):
        raise TemplateError("a prompt template config must be a mapping", file=file, where="line 1")
    try:
        config = PromptTemplateConfig.model_validate(data)
    except ValidationError as exc:
        raise _validation_error(exc, text, file) from None
    config._file = file
    config._first_line = _block_start(text)
    return config


def _block_start(text: str) -> int | None:
    """The file line where the ``template`` text starts, when it is a ``|`` block scalar.

    Only a literal block keeps the template's lines as the file's lines; for other styles
    errors count lines from the template's start.
    """
    root = _compose(text)
    if not isinstance(root, yaml.MappingNode):
        return None
    for key, value in root.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "template":
            if isinstance(value, yaml.ScalarNode) and value.style == "|":
                return int(value.start_mark.line) + 2  # the line after "template: |"
            return None
    return None


def _parse(text: str, file: str | None) -> Any:
    if text.lstrip().startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            where = f"line {exc.lineno} column {exc.colno}"
            raise TemplateError(f"invalid JSON: {exc.msg}", file=file, where=where) from None
    try:
        return yaml.load(text, Loader=_NoAliasLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1} column {mark.column + 1}" if mark else None
        problem = str(exc.problem or exc.context or "invalid YAML")
        raise TemplateError(f"invalid YAML: {problem}", file=file, where=place) from None
    except yaml.YAMLError as exc:
        raise TemplateError(f"invalid YAML: {exc}", file=file) from None


def _validation_error(exc: ValidationError, text: str, file: str | None) -> TemplateError:
    root = _compose(text)
    problems = []
    first_line: int | None = None
    for error in exc.errors():
        loc = [p for p in error["loc"] if p not in _UNION_TAGS]
        path = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc)
        line = _line_of(root, loc)
        if first_line is None and line is not None:
            first_line = line
        at = f" (line {line})" if line is not None else ""
        problems.append(f"{path}{at}: {error['msg']}")
    message = "invalid prompt template config: " + "; ".join(problems)
    where = f"line {first_line}" if first_line is not None else None
    return TemplateError(message, file=file, where=where)


_UNION_TAGS = frozenset({"function-after[_valid_schema(), nullable[dict[str,any]]]"})


def _compose(text: str) -> yaml.Node | None:
    try:
        return yaml.compose(text, Loader=_NoAliasLoader)
    except yaml.YAMLError:
        return None


def _line_of(node: yaml.Node | None, loc: list[int | str]) -> int | None:
    """The 1-based line of the node at ``loc`` (or of its deepest existing parent)."""
    if node is None:
        return None
    line: int = node.start_mark.line + 1
    for part in loc:
        child: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                    child = value if isinstance(part, str) else key
                    break
        elif (
            isinstance(node, yaml.SequenceNode)
            and isinstance(part, int)
            and 0 <= part < len(node.value)
        ):
            child = node.value[part]
        if child is None:
            return line
        node = child
        line = node.start_mark.line + 1
    return line
