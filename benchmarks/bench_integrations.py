"""Per-call overhead of a tool call through each framework: sktypes' export vs the native tool.

    python benchmarks/bench_integrations.py            # every framework whose venv exists
    python benchmarks/bench_integrations.py --calls 1000

Each framework runs in its own venv (``.venv-<framework>``, made by ``make integrations``),
in a child process (``benchmarks/_integrations.py``) that times both tools in the same run:
the framework's native tool built from the function by its own decorator, and the tool
``sktypes.integrations.<framework>.export`` makes for the same function, each called through
the framework's own call path (Semantic Kernel ``kernel.invoke``, Agent Framework
``FunctionTool.invoke``, LangChain ``tool.invoke(tool_call)``, a pydantic-ai agent run with
20 tool calls per model response, Agents SDK ``on_invoke_tool``). Figures are the best of 7
rounds. The target: sktypes ≤ 1.3x the native path while validating fully.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORKS = ["semantic-kernel", "agent-framework", "langchain", "pydantic-ai", "openai-agents"]
TARGET = 1.3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400, help="calls per round")
    options = parser.parse_args()
    rows = []
    for framework in FRAMEWORKS:
        python = ROOT / f".venv-{framework}" / "bin" / "python"
        if not python.exists():
            print(f"  {framework}: no .venv-{framework} (run make integrations); skipped")
            continue
        done = subprocess.run(
            [
                str(python),
                str(ROOT / "benchmarks" / "_integrations.py"),
                framework,
                str(options.calls),
            ],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        )
        if done.returncode != 0:
            print(f"  {framework}: failed: {(done.stderr or done.stdout).strip()[-400:]}")
            return 1
        rows += [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    print(f"{'framework':<16} {'function':<12} {'native µs':>10} {'sktypes µs':>11} {'ratio':>6}")
    for row in rows:
        ratio = row["sktypes_us"] / row["native_us"]
        mark = "" if ratio <= TARGET else f"  (> {TARGET}x)"
        print(
            f"{row['framework']:<16} {row['function']:<12} {row['native_us']:>10.1f} "
            f"{row['sktypes_us']:>11.1f} {ratio:>5.2f}x{mark}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
