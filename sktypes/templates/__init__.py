"""Prompt templates: one factory protocol, three formats, parsed once, safe by default.

Implements Semantic Kernel's ADR "custom prompt template formats": a template is created
from a :class:`PromptTemplateConfig` without a kernel, parsed (compiled) once, and
rendered many times with ``await template.render(kernel, arguments)``; functions are
looked up in the kernel at render time. Formats:

- ``semantic-kernel``: ``{{$var}}``, ``{{plugin.function $arg name='value'}}``
  (:class:`KernelPromptTemplateFactory`);
- ``jinja2``: a sandboxed Jinja2 template, functions as ``plugin_function(...)``
  (:class:`Jinja2PromptTemplateFactory`);
- ``handlebars``: pybars3, functions as ``{{plugin-function arg}}``
  (:class:`HandlebarsPromptTemplateFactory`).

:class:`AggregatePromptTemplateFactory` puts factories side by side (first that accepts
wins); a third party adds a format with any object that has ``create(config)``.

Safety: values and function outputs are text, never template code, and are encoded
(``& < > " '``) unless the config sets ``allow_dangerously_set_content`` for the template
or the variable; :func:`parse_chat_prompt` turns ``<message role="...">`` blocks of a
rendered prompt into a :class:`~sktypes.content.ChatHistory`, decoding them again.
"""

from sktypes.templates._chat import parse_chat_prompt
from sktypes.templates._config import (
    HANDLEBARS_FORMAT,
    JINJA2_FORMAT,
    KERNEL_FORMAT,
    InputVariable,
    OutputVariable,
    PromptTemplateConfig,
    prompt_template_config_schema,
)
from sktypes.templates._factory import (
    AggregatePromptTemplateFactory,
    create_prompt_template,
    load_prompt_template,
)
from sktypes.templates._handlebars import HandlebarsPromptTemplate, HandlebarsPromptTemplateFactory
from sktypes.templates._jinja import Jinja2PromptTemplate, Jinja2PromptTemplateFactory
from sktypes.templates._limits import DEFAULT_TEMPLATE_LIMITS, TemplateLimits
from sktypes.templates._loading import (
    load_prompt_template_config,
    looks_like_prompt_template_config,
    parse_prompt_template_config,
)
from sktypes.templates._protocols import (
    PromptTemplate,
    PromptTemplateFactory,
    TemplateFunction,
    TemplateKernel,
)
from sktypes.templates._sk_template import KernelPromptTemplate, KernelPromptTemplateFactory

__all__ = [
    "PromptTemplateConfig",
    "InputVariable",
    "OutputVariable",
    "KERNEL_FORMAT",
    "JINJA2_FORMAT",
    "HANDLEBARS_FORMAT",
    "load_prompt_template_config",
    "load_prompt_template",
    "prompt_template_config_schema",
    "parse_prompt_template_config",
    "looks_like_prompt_template_config",
    "PromptTemplate",
    "PromptTemplateFactory",
    "TemplateKernel",
    "TemplateFunction",
    "KernelPromptTemplateFactory",
    "Jinja2PromptTemplateFactory",
    "HandlebarsPromptTemplateFactory",
    "AggregatePromptTemplateFactory",
    "KernelPromptTemplate",
    "Jinja2PromptTemplate",
    "HandlebarsPromptTemplate",
    "create_prompt_template",
    "parse_chat_prompt",
    "TemplateLimits",
    "DEFAULT_TEMPLATE_LIMITS",
]
