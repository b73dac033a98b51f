"""`AggregatePromptTemplateFactory`: several formats side by side; the first taker wins."""

from __future__ import annotations

from pathlib import Path

from sktypes.errors import UnknownTemplateFormatError
from sktypes.templates._config import PromptTemplateConfig
from sktypes.templates._handlebars import HandlebarsPromptTemplateFactory
from sktypes.templates._jinja import Jinja2PromptTemplateFactory
from sktypes.templates._limits import TemplateLimits
from sktypes.templates._loading import load_prompt_template_config
from sktypes.templates._protocols import PromptTemplate, PromptTemplateFactory
from sktypes.templates._sk_template import KernelPromptTemplateFactory

__all__ = ["AggregatePromptTemplateFactory", "create_prompt_template", "load_prompt_template"]


class AggregatePromptTemplateFactory:
    """Ask each factory in turn; the first that does not raise ``UnknownTemplateFormatError`` wins.

    Args:
        *factories: the factories, in order. None given means the three built-in formats
            (``semantic-kernel``, ``jinja2``, ``handlebars``). A third-party format is a
            factory object with a ``create(config)`` method.
        limits: the output bound of the built-in formats (when no factories are given).
    """

    __slots__ = ("factories",)

    def __init__(
        self, *factories: PromptTemplateFactory, limits: TemplateLimits | None = None
    ) -> None:
        self.factories: tuple[PromptTemplateFactory, ...] = factories or (
            KernelPromptTemplateFactory(limits),
            Jinja2PromptTemplateFactory(limits),
            HandlebarsPromptTemplateFactory(limits),
        )

    def create(self, config: PromptTemplateConfig) -> PromptTemplate:
        """Return the first template a factory creates for ``config``.

        Raises:
            UnknownTemplateFormatError: no factory handles ``config.template_format``.
            TemplateError: the accepting factory could not parse the template.
        """
        for factory in self.factories:
            try:
                return factory.create(config)
            except UnknownTemplateFormatError:
                continue
        names = ", ".join(type(f).__name__ for f in self.factories) or "no factories"
        raise UnknownTemplateFormatError(
            f"no factory handles the template format {config.template_format!r} (asked: {names})",
            where=config.name or None,
        )


_DEFAULT = AggregatePromptTemplateFactory()


def create_prompt_template(
    config: PromptTemplateConfig,
    factory: PromptTemplateFactory | None = None,
    *,
    limits: TemplateLimits | None = None,
) -> PromptTemplate:
    """Create a template with ``factory`` (default: the three built-in formats).

    Args:
        config: the template and its settings.
        factory: who creates it (default: the three built-in formats).
        limits: the output bound of the built-in formats (ignored with a ``factory``).
    """
    if factory is None:
        factory = _DEFAULT if limits is None else AggregatePromptTemplateFactory(limits=limits)
    return factory.create(config)


def load_prompt_template(
    path: str | Path,
    factory: PromptTemplateFactory | None = None,
    *,
    limits: TemplateLimits | None = None,
) -> PromptTemplate:
    """Load a config file and parse its template: what ``sktypes check`` needs.

    Raises:
        TemplateError: the file does not load or validate, or the template does not parse;
            the message names the file and the line.
        UnknownTemplateFormatError: no factory handles the file's ``template_format``.
    """
    config = load_prompt_template_config(path)
    try:
        return create_prompt_template(config, factory, limits=limits)
    except UnknownTemplateFormatError as exc:
        if exc.file is None:
            raise UnknownTemplateFormatError(exc.message, file=str(path)) from None
        raise
