"""`FunctionResult`: the typed value a kernel function returned, with its view."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from sktypes.content._base import KernelContent, register_content_type
from sktypes.errors import ContentError, SktypesError
from sktypes.views import FunctionView

__all__ = ["FunctionResult"]

T = TypeVar("T")


@register_content_type
@dataclass(slots=True)
class FunctionResult(KernelContent, Generic[T]):
    """What invoking a function produced.

    One result with the choices inside (ADR "content and streaming", option 4): ``value``
    is the first (or only) choice; ``choices`` holds every choice when a service returned
    several, and is empty otherwise.

    Args:
        value: the native value, typed by the function's return annotation.
        function: the view of the function that produced it (``None`` when unknown).
        choices: every choice, when there were several.
    """

    type_name: ClassVar[str] = "function_invocation_result"

    value: T
    function: FunctionView | None = None
    choices: list[T] = field(default_factory=list)

    @classmethod
    def from_choices(
        cls, choices: list[T], function: FunctionView | None = None
    ) -> FunctionResult[T]:
        """A result whose value is the first of several choices."""
        if not choices:
            raise ContentError("a result needs at least one choice")
        return cls(value=choices[0], function=function, choices=list(choices))

    def get_choice(self, index: int = 0) -> T:
        """Return choice ``index`` (``value`` when there is only one)."""
        if not self.choices:
            if index != 0:
                raise IndexError(index)
            return self.value
        return self.choices[index]

    def __str__(self) -> str:
        return str(self.value)

    def _to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type_name, "value": self.value}
        if self.function is not None:
            out["function"] = self.function.to_dict()
        if self.choices:
            out["choices"] = self.choices
        return self._base_fields(out)

    @classmethod
    def _from_fields(cls, data: dict[str, Any]) -> FunctionResult[Any]:
        function = None
        if data.get("function") is not None:
            try:
                function = FunctionView.from_dict(data["function"])
            except SktypesError as exc:
                raise ContentError(exc.message, where="function") from None
        choices = data.get("choices") or []
        if type(choices) is not list:
            raise ContentError("'choices' must be an array", where="choices")
        return FunctionResult(value=data.get("value"), function=function, choices=choices)
