"""The ``semantic-kernel`` format: parsed once into blocks, rendered by walking them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sktypes.errors import Location, TemplateError, UnknownTemplateFormatError
from sktypes.templates._calls import bind_arguments, find_function, invoke
from sktypes.templates._config import (
    KERNEL_FORMAT,
    PromptTemplateConfig,
    merged_arguments,
    template_parameters,
)
from sktypes.templates._limits import DEFAULT_TEMPLATE_LIMITS, RenderBudget, TemplateLimits
from sktypes.templates._protocols import TemplateKernel
from sktypes.templates._safety import encode, to_text
from sktypes.templates._sk_syntax import Block, Call, Text, Val, Var, parse
from sktypes.views import ParameterView

__all__ = ["KernelPromptTemplate", "KernelPromptTemplateFactory"]


class _TrustedVar(Var):
    """A variable the config trusts: emitted without encoding."""

    __slots__ = ()


class KernelPromptTemplate:
    """A template in Semantic Kernel syntax (``{{$var}}``, ``{{plugin.function $arg}}``).

    Args:
        config: the config; its ``template`` is parsed now.
        limits: the output bound (:data:`DEFAULT_TEMPLATE_LIMITS`).

    Raises:
        TemplateError: a malformed block (the message names its line and column).
    """

    __slots__ = ("_blocks", "_config", "_defaults", "_limits", "_parameters", "_trust_output")

    def __init__(self, config: PromptTemplateConfig, limits: TemplateLimits | None = None) -> None:
        self._config = config
        self._limits = limits or DEFAULT_TEMPLATE_LIMITS
        blocks = parse(config.template, config.place)
        self._blocks: tuple[Block, ...] = tuple(
            _TrustedVar(b.name) if isinstance(b, Var) and config.trusted(b.name) else b
            for b in blocks
        )
        self._trust_output = config.allow_dangerously_set_content
        self._defaults = config.defaults()
        self._parameters = template_parameters(config, _variables(self._blocks))

    @property
    def config(self) -> PromptTemplateConfig:
        """The configuration the template was created from."""
        return self._config

    @property
    def parameters(self) -> tuple[ParameterView, ...]:
        """The config's input variables plus every variable the template uses."""
        return self._parameters

    async def render(
        self, kernel: TemplateKernel | None = None, arguments: Mapping[str, Any] | None = None
    ) -> str:
        """Render: text as is, variables encoded (unless trusted), functions called now.

        Raises:
            TemplateError: a called function is missing or fails, or the output passed
                :attr:`TemplateLimits.max_output`, or the blocks and calls
                :attr:`TemplateLimits.max_steps`.
        """
        args = merged_arguments(self._defaults, arguments or {})
        parts: list[str] = []
        append = parts.append
        config = self._config
        budget = RenderBudget(self._limits, config.source_file, config.name)
        for block in self._blocks:  # one step each: the text, variable or call it renders
            budget.steps -= 1
            if budget.steps < 0:
                raise budget.work_error()
            kind = block.__class__  # dispatch on the exact class: the hot loop of rendering
            if kind is Text:
                text = block.text  # type: ignore[union-attr]
            elif kind is Var:
                text = encode(args.get(block.name))  # type: ignore[union-attr]
            elif kind is _TrustedVar:
                text = to_text(args.get(block.name))  # type: ignore[union-attr]
            elif kind is Val:
                text = block.value  # type: ignore[union-attr]
            else:
                try:
                    value = await self._call(kernel, block, args)  # type: ignore[arg-type]
                except TemplateError as exc:
                    raise _at(exc, block.place) from exc.__cause__  # type: ignore[union-attr]
                text = to_text(value) if self._trust_output else encode(value)
            budget.left -= len(text)
            if budget.left < 0:
                raise budget.error()
            append(text)
        return "".join(parts)

    async def _call(
        self, kernel: TemplateKernel | None, call: Call, args: Mapping[str, Any]
    ) -> Any:
        """Call a function; an argument naming a missing variable is left out (not ``None``)."""
        function = find_function(kernel, call.name)
        params = function.view.parameters
        missing: list[str] = []
        positional: tuple[Any, ...] = ()
        if call.first is not None:
            value = _operand(call.first, args)
            if value is not None:
                positional = (value,)
            elif params:
                missing.append(params[0].name)
        named: dict[str, Any] = {}
        for name, operand in call.named:
            value = _operand(operand, args)
            if value is None:
                missing.append(name)
            else:
                named[name] = value
        bound = bind_arguments(function.view, args, positional, named)
        for name in missing:
            bound.pop(name, None)
        return await invoke(kernel, function, bound)


def _at(exc: TemplateError, place: Location) -> TemplateError:
    """``exc`` (raised while calling a block's function) placed at the block."""
    if exc.file is not None or exc.line is not None:
        return exc
    return type(exc)(
        exc.message,
        file=place.file,
        line=place.line,
        column=place.column,
        where=", ".join(p for p in (place.where, exc.where) if p) or None,
    )


def _operand(operand: Var | Val, args: Mapping[str, Any]) -> Any:
    return operand.value if isinstance(operand, Val) else args.get(operand.name)


def _variables(blocks: tuple[Block, ...]) -> list[str]:
    names: list[str] = []
    for block in blocks:
        if isinstance(block, Var):
            names.append(block.name)
        elif isinstance(block, Call):
            operands = ([block.first] if block.first is not None else []) + [
                v for _, v in block.named
            ]
            names.extend(o.name for o in operands if isinstance(o, Var))
    return names


class KernelPromptTemplateFactory:
    """Creates ``semantic-kernel`` templates.

    Args:
        limits: the output bound for the templates it creates.
    """

    __slots__ = ("limits",)

    def __init__(self, limits: TemplateLimits | None = None) -> None:
        self.limits = limits

    def create(self, config: PromptTemplateConfig) -> KernelPromptTemplate:
        """Parse ``config.template`` and return the template.

        Raises:
            UnknownTemplateFormatError: the format is not ``semantic-kernel``.
            TemplateError: a malformed block.
        """
        if config.template_format != KERNEL_FORMAT:
            raise UnknownTemplateFormatError(
                f"KernelPromptTemplateFactory handles {KERNEL_FORMAT!r}, "
                f"not {config.template_format!r}"
            )
        return KernelPromptTemplate(config, self.limits)
