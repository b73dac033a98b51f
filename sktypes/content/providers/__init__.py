"""Provider wire formats ⇄ chat history: OpenAI Chat Completions, Anthropic, Gemini.

Pure functions, no network: ``to_<provider>(history)`` builds what a request carries,
``from_<provider>(...)`` reads it back (and responses and stream chunks). A history
recorded with one provider converts to another's format; call ids are simulated where
the target needs them.
"""

from sktypes.content.providers.anthropic import (
    from_anthropic,
    from_anthropic_response,
    from_anthropic_stream,
    to_anthropic,
)
from sktypes.content.providers.gemini import (
    from_gemini,
    from_gemini_response,
    from_gemini_stream,
    to_gemini,
)
from sktypes.content.providers.openai import (
    from_openai,
    from_openai_chunk,
    from_openai_response,
    to_openai,
)

__all__ = [
    "from_anthropic",
    "from_anthropic_response",
    "from_anthropic_stream",
    "from_gemini",
    "from_gemini_response",
    "from_gemini_stream",
    "from_openai",
    "from_openai_chunk",
    "from_openai_response",
    "to_anthropic",
    "to_gemini",
    "to_openai",
]
