"""The small interfaces templates need, and the ones a third-party format implements.

Templates need a kernel to find and invoke functions; a format provides a factory and
its templates.

A template is created without a kernel; functions are looked up at render time (late
binding, ADR "custom prompt template formats"), so the kernel is an argument of
:meth:`PromptTemplate.render`. :class:`sktypes.kernel.Kernel` satisfies
:class:`TemplateKernel`; so does any object with the same two methods.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from sktypes.templates._config import PromptTemplateConfig
from sktypes.views import FunctionView, ParameterView

__all__ = ["PromptTemplate", "PromptTemplateFactory", "TemplateFunction", "TemplateKernel"]


class TemplateFunction(Protocol):
    """A kernel function as templates see it: something with a :class:`FunctionView`."""

    @property
    def view(self) -> FunctionView:
        """The function's view (name, plugin, parameters, return)."""
        ...


class TemplateKernel(Protocol):
    """What rendering needs from a kernel."""

    def get_function(self, name: str, /) -> TemplateFunction:
        """Return the function called ``Plugin.function``; raise if there is none."""
        ...

    async def invoke(self, function: Any, arguments: Mapping[str, Any], /) -> Any:
        """Invoke ``function`` with arguments hydrated to its parameter types.

        Returns a result whose ``.value`` is the function's output.
        """
        ...


@runtime_checkable
class PromptTemplate(Protocol):
    """A parsed template: its typed signature, and a render method."""

    @property
    def config(self) -> PromptTemplateConfig:
        """The configuration the template was created from."""
        ...

    @property
    def parameters(self) -> tuple[ParameterView, ...]:
        """The config's input variables plus every variable the template uses."""
        ...

    async def render(self, kernel: TemplateKernel | None, arguments: Mapping[str, Any]) -> str:
        """Render the template; functions are looked up in ``kernel`` now, not before."""
        ...


@runtime_checkable
class PromptTemplateFactory(Protocol):
    """Creates templates of the formats it handles."""

    def create(self, config: PromptTemplateConfig) -> PromptTemplate:
        """Parse ``config.template`` once and return the template.

        Raises:
            UnknownTemplateFormatError: the factory does not handle ``config.template_format``.
            TemplateError: the template does not parse (the message names line and column).
        """
        ...
