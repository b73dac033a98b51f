"""The ADR's plan run over the *generated* OpenAPI plugins, against a local server.

``make run`` runs ``python examples/plan_over_openapi.py``: it serves the two example APIs
(``schemas/examples/*.openapi.yaml``) from a real HTTP server on 127.0.0.1, generates a typed
plugin package for each spec, adds them to a :class:`~sktypes.kernel.Kernel` under the ADR's
plugin names, checks the plan ``examples/plans/date_weather.plan.json`` against the specs'
views and runs it: ``GetDate1(1)``, then ``GetWeatherForecast1`` on ``$.date`` of that output.

The check uses the specs' views, the contract. The generated models turn a property the
spec does not mark ``required`` into ``X | None`` (absent → ``None``), so checked against the
generated methods' own views the same wiring is flagged: ``date`` may be missing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import importlib
import json
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from sktypes.kernel import Kernel
from sktypes.openapi import load_openapi
from sktypes.plan import Plan, check_plan, run_plan
from sktypes_codegen import generate_plugin

ROOT = Path(__file__).resolve().parents[1]
TODAY = dt.date(2026, 1, 1)


class _Api(BaseHTTPRequestHandler):
    """Both example APIs: ``GET /date?numDays=N`` and ``GET /forecast?date=YYYY-MM-DD``."""

    def do_GET(self) -> None:
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        body: dict[str, Any]
        if url.path.endswith("/date"):
            day = TODAY + dt.timedelta(days=int(query.get("numDays", "0")))
            body = {"date": day.isoformat()}
        elif url.path.endswith("/forecast"):
            day = dt.date.fromisoformat(query["date"])
            body = {"degreesFahrenheit": 50 + day.toordinal() % 30}
        else:
            self.send_error(404)
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        print(f"  server: {self.command} {self.path}")


def _load(spec: str, name: str, out: Path) -> Any:
    generate_plugin(ROOT / "schemas" / "examples" / spec, out, name=name)
    return importlib.import_module(name)


async def main() -> int:
    """Serve, generate, check, run; return the process exit code."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Api)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sys.path.insert(0, tmp)
            date = _load("date_plugin.openapi.yaml", "demo_date_plugin", Path(tmp))
            weather = _load("weather_plugin.openapi.yaml", "demo_weather_plugin", Path(tmp))
            kernel = Kernel()
            kernel.add_plugin(date.DemoDatePlugin(base), "DatePluginSimpleComplex")
            kernel.add_plugin(weather.DemoWeatherPlugin(base), "WeatherPluginSimpleComplex")
            plan_file = ROOT / "examples" / "plans" / "date_weather.plan.json"
            plan = Plan.model_validate_json(plan_file.read_text())
            specs = ROOT / "schemas" / "examples"
            views = [
                *load_openapi(specs / "date_plugin.openapi.yaml").views,
                *load_openapi(specs / "weather_plugin.openapi.yaml").views,
            ]
            issues = check_plan(plan, views)
            for issue in issues:
                print(f"  {issue}")
            if issues:
                return 1
            print("plan checks clean against the specs' views")
            value = await run_plan(plan, kernel)
            print(f"plan run on the generated plugins against {base}: {value}")
            return 0
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
