"""Serialize and restore a 1,000-message chat history: sktypes vs semantic-kernel.

The history mixes user text, assistant function calls (dict arguments), tool results
(JSON objects) and assistant answers, plus one image message. Each library builds the same
history with its own types; the script times ``to_json``/``serialize`` and
``from_json``/``restore_chat_history`` (best of several repeats, in this process) and
prints milliseconds and the ratio against sktypes. semantic-kernel is skipped with a note
when it is not installed (``pip install 'semantic-kernel==1.45.*' 'mcp<2'``).

semantic-kernel cannot serialize an image built from raw bytes (it raises), so its image
is given as a data URL; it brings results back as ``str(value)``, sktypes as JSON values
(or native types with ``kernel=``, timed separately).
"""

from __future__ import annotations

import base64
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MESSAGES = 1000
PNG = bytes(range(256)) * 4  # 1 KiB of "image"


def calibrate(fn: Callable[[], Any]) -> int:
    number = 1
    while timeit.timeit(fn, number=number) < 0.05 and number < 1000:
        number *= 2
    return number


def interleaved_best_ms(cases: dict[str, Callable[[], Any]], rounds: int = 9) -> dict[str, float]:
    """Best time per call of each case, in ms; the cases take turns so noise hits all alike."""
    numbers = {name: calibrate(fn) for name, fn in cases.items()}
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(rounds):
        for name, fn in cases.items():
            t = timeit.timeit(fn, number=numbers[name]) / numbers[name] * 1000
            best[name] = min(best[name], t)
    return best


def turn_data(n: int) -> tuple[str, dict[str, Any], dict[str, Any], str]:
    return (
        f"What is the weather in city {n}?",
        {"city": f"City{n}", "days": n % 7, "units": "metric"},
        {"city": f"City{n}", "temp_c": n % 40, "conditions": ["sunny", "windy"], "ok": True},
        f"It is {n % 40} degrees in City{n}.",
    )


def sktypes_history() -> Any:
    from sktypes.content import (
        ChatHistory,
        FunctionCallContent,
        FunctionResultContent,
        ImageContent,
        TextContent,
    )

    history = ChatHistory(system_message="You are a weather bot.")
    history.add_user_message([TextContent("Look:"), ImageContent(data=PNG, mime_type="image/png")])
    n = 0
    while len(history) < MESSAGES:
        question, args, result, answer = turn_data(n)
        history.add_user_message(question)
        call = FunctionCallContent(f"call_{n}", "Weather", "get_forecast", args)
        history.add_assistant_message([call])
        history.add_tool_message(FunctionResultContent.from_function_call(call, result))
        history.add_assistant_message(answer)
        n += 1
    del history[MESSAGES:]
    return history


def sk_history() -> Any:
    from semantic_kernel.contents import (
        AuthorRole,
        ChatHistory,
        ChatMessageContent,
        FunctionCallContent,
        FunctionResultContent,
        ImageContent,
        TextContent,
    )

    history = ChatHistory(system_message="You are a weather bot.")
    data_uri = "data:image/png;base64," + base64.b64encode(PNG).decode()
    history.add_message(
        ChatMessageContent(
            role=AuthorRole.USER,
            items=[TextContent(text="Look:"), ImageContent(data_uri=data_uri)],
        )
    )
    n = 0
    while len(history.messages) < MESSAGES:
        question, args, result, answer = turn_data(n)
        history.add_user_message(question)
        history.add_message(
            ChatMessageContent(
                role=AuthorRole.ASSISTANT,
                items=[
                    FunctionCallContent(
                        id=f"call_{n}",
                        plugin_name="Weather",
                        function_name="get_forecast",
                        arguments=args,
                    )
                ],
            )
        )
        history.add_message(
            ChatMessageContent(
                role=AuthorRole.TOOL,
                items=[
                    FunctionResultContent(
                        id=f"call_{n}",
                        plugin_name="Weather",
                        function_name="get_forecast",
                        result=result,
                    )
                ],
            )
        )
        history.add_assistant_message(answer)
        n += 1
    del history.messages[MESSAGES:]
    return history


def weather_kernel() -> Any:
    from pydantic import BaseModel

    from sktypes import kernel_function
    from sktypes.kernel import Kernel

    class Forecast(BaseModel):
        city: str
        temp_c: int
        conditions: list[str]
        ok: bool

    def get_forecast(city: str, days: int, units: str) -> Forecast:
        return Forecast(city=city, temp_c=days, conditions=[], ok=True)

    get_forecast.__annotations__["return"] = Forecast  # a local class: no string to resolve
    kernel = Kernel()
    kernel.add_function(kernel_function(get_forecast), "Weather")
    return kernel


def version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed(dist)
    except PackageNotFoundError:
        return "(source)"


def main() -> None:
    from sktypes.content import ChatHistory

    history = sktypes_history()
    text = history.to_json()
    assert ChatHistory.from_json(text) == history
    kernel = weather_kernel()
    ours = f"sktypes {version('sktypes')}"
    typed = "sktypes, restore with kernel= (typed results)"
    cases: dict[str, Callable[[], Any]] = {
        f"{ours} serialize": history.to_json,
        f"{ours} restore": lambda: ChatHistory.from_json(text),
        f"{typed} restore": lambda: ChatHistory.from_json(text, kernel=kernel),
    }
    rows = [(ours, True), (typed, False)]
    try:
        from semantic_kernel.contents import ChatHistory as SkChatHistory
    except ImportError:
        print(
            "note: semantic-kernel is not installed; skipped "
            "(pip install 'semantic-kernel==1.45.*' 'mcp<2')"
        )
    else:
        sk = sk_history()
        sk_text = sk.serialize()
        theirs = f"semantic-kernel {version('semantic-kernel')}"
        cases[f"{theirs} serialize"] = sk.serialize
        cases[f"{theirs} restore"] = lambda: SkChatHistory.restore_chat_history(sk_text)
        rows.append((theirs, True))
    fidelity = [
        ("sktypes", type(ChatHistory.from_json(text)[4].items[0].result).__name__),
        (
            "sktypes, kernel=",
            type(ChatHistory.from_json(text, kernel=kernel)[4].items[0].result).__name__,
        ),
    ]
    if len(rows) == 3:
        restored = SkChatHistory.restore_chat_history(sk_text)
        fidelity.append(("semantic-kernel", type(restored.messages[4].items[0].result).__name__))
    best = interleaved_best_ms(cases)
    base_ser, base_res = best[f"{ours} serialize"], best[f"{ours} restore"]
    print(f"{MESSAGES}-message history (text, calls, results, one image); best of 9 rounds, ms")
    print(f"{'library':<48} {'serialize':>10} {'x ours':>7} {'restore':>10} {'x ours':>7}")
    for name, has_ser in rows:
        res = best[f"{name} restore"]
        ser_cells = "-".rjust(10) + " " + "-".rjust(7)
        if has_ser:
            ser = best[f"{name} serialize"]
            ser_cells = f"{ser:10.2f} {ser / base_ser:6.1f}x"
        print(f"{name:<48} {ser_cells} {res:10.2f} {res / base_res:6.1f}x")
    print("a restored function result's type: " + ", ".join(f"{n} -> {t}" for n, t in fidelity))


if __name__ == "__main__":
    main()
