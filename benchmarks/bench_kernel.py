"""``Kernel.invoke`` per call: validation, hydration, the call and the result, in µs.

Run: ``python benchmarks/bench_kernel.py`` (this tree), or
``python benchmarks/bench_kernel.py --against DIR`` to measure this tree and another
checkout of sktypes side by side: each round runs both trees in fresh processes, in
turn, so machine noise hits both alike; the ratio is this tree's best over the other's.

Cases (each a real ``Kernel`` without filters, arguments as a model sends them):

  str          ``echo(text: str)``: the commonest tool shape
  scalars      ``scale(text, times=2, factor=1.5, loud=False)``, defaults filled in
  lax          ``forecast(days: int)`` with ``{"days": "2"}`` (a numeric string)
  model+date   ``place(order: Order, when: date | None)``: pydantic does the work
  json-only    a view without native types (a remote operation): schema check only
  filtered     ``str`` again, through one pass-through invocation filter
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CALLS = 20_000
ROUNDS = 5


def cases() -> dict[str, tuple[Any, Any, dict[str, Any]]]:
    """``name -> (kernel, function name, arguments)``."""
    from pydantic import BaseModel

    from sktypes import kernel_function
    from sktypes.kernel import Kernel, KernelFunction
    from sktypes.views import FunctionView, ParameterView

    class Order(BaseModel):
        sku: str
        qty: int

    def echo(text: str) -> str:
        """Echo the text."""
        return text

    def scale(text: str, times: int = 2, factor: float = 1.5, loud: bool = False) -> str:
        """Repeat the text."""
        return text

    def forecast(days: int) -> int:
        """Days ahead."""
        return days

    def place(order: Order, when: dt.date | None = None) -> str:
        """Place an order."""
        return order.sku

    place.__annotations__["order"] = Order  # a local class: no string to resolve

    remote = FunctionView(
        name="get",
        plugin_name="Api",
        parameters=(
            ParameterView("id", schema={"type": "integer", "minimum": 1}, is_required=True),
            ParameterView("q", schema={"type": "string", "maxLength": 20}),
        ),
    )

    kernel = Kernel()
    for fn in (echo, scale, forecast, place):
        kernel.add_function(kernel_function(fn), "Tools")
    kernel.add_function(KernelFunction(remote, lambda args: args, hydrate=False), "Api")

    async def passthrough(context: Any, call_next: Any) -> None:
        await call_next(context)

    filtered = Kernel(filters=[passthrough])
    filtered.add_function(kernel_function(echo), "Tools")
    return {
        "str": (kernel, "Tools.echo", {"text": "hello"}),
        "scalars": (kernel, "Tools.scale", {"text": "a", "times": 3}),
        "lax": (kernel, "Tools.forecast", {"days": "2"}),
        "model+date": (
            kernel,
            "Tools.place",
            {"order": {"sku": "tea", "qty": 2}, "when": "2024-05-01"},
        ),
        "json-only": (kernel, "Api.get", {"id": 7, "q": "tea"}),
        "filtered": (filtered, "Tools.echo", {"text": "hello"}),
    }


def measure() -> dict[str, float | None]:
    """Best µs per ``Kernel.invoke`` of each case (``None``: the case fails on this tree)."""
    out: dict[str, float | None] = {}
    loop = asyncio.new_event_loop()
    for name, (kernel, function, arguments) in cases().items():
        fn = kernel.get_function(function)

        async def batch(n: int, fn: Any = fn, kernel: Any = kernel, args: Any = arguments) -> float:
            start = time.perf_counter()
            for _ in range(n):
                await kernel.invoke(fn, args)
            return time.perf_counter() - start

        try:
            loop.run_until_complete(batch(1))
        except Exception:  # e.g. the lax case before lax coercions existed
            out[name] = None
            continue
        best = min(loop.run_until_complete(batch(CALLS)) for _ in range(ROUNDS))
        out[name] = best / CALLS * 1e6
    loop.close()
    return out


def run_tree(tree: Path) -> dict[str, float | None]:
    """:func:`measure` in a fresh process importing sktypes from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    result: dict[str, float | None] = json.loads(done.stdout)
    return result


def best_of(runs: list[dict[str, float | None]]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for name in runs[0]:
        values = [r[name] for r in runs if r.get(name) is not None]
        out[name] = min(v for v in values if v is not None) if values else None
    return out


def show(figures: dict[str, float | None], against: dict[str, float | None] | None) -> None:
    def cell(v: float | None) -> str:
        return f"{v:9.2f}" if v is not None else "    fails"

    header = f"{'case':12} {'this tree µs':>12}"
    if against is not None:
        header += f" {'other µs':>9} {'ratio':>7}"
    print(header)
    for name, value in figures.items():
        line = f"{name:12} {cell(value):>12}"
        if against is not None:
            other = against.get(name)
            ratio = f"{value / other:6.2f}x" if value is not None and other else "      -"
            line += f" {cell(other)} {ratio}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print this tree's figures as JSON")
    parser.add_argument("--against", type=Path, help="another sktypes checkout to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="process pairs with --against")
    options = parser.parse_args()
    if options.json:
        print(json.dumps(measure()))
        return
    print(f"Kernel.invoke, best of {ROUNDS} x {CALLS} calls per process, µs per call")
    if options.against is None:
        show(measure(), None)
        return
    ours: list[dict[str, float | None]] = []
    theirs: list[dict[str, float | None]] = []
    for _ in range(options.rounds):  # interleaved: noise hits both trees alike
        ours.append(run_tree(HERE.parent))
        theirs.append(run_tree(options.against.resolve()))
    print(f"side by side with {options.against} ({options.rounds} process pairs, interleaved)")
    show(best_of(ours), best_of(theirs))


if __name__ == "__main__":
    main()
