"""HEAD operations: the answer has no content (RFC 9110, 9.3.2), whatever the spec declares.

Kubernetes declares its HEAD proxy operations with the GET's answer (``200``, ``schema:
{type: string}``, ``produces: */*``); a server answers them with headers only. The call
returns ``None`` and reads no body; the declared schema is named in a warning (it describes
the representation a GET would send), never silently dropped, never a drift.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
import warnings
from pathlib import Path

import httpx
import pytest

import sktypes as sk
from sktypes.kernel import openapi_plugin
from sktypes_codegen import generate_plugin
from tests.remote_rules import invoke

SPEC = """\
swagger: "2.0"
info: {title: Proxy, version: "1"}
host: proxy.test
paths:
  /proxy/{name}:
    parameters:
      - {in: path, name: name, required: true, type: string}
    head:
      operationId: headProxy
      produces: ["*/*"]
      responses:
        "200": {description: OK, schema: {type: string}}
    get:
      operationId: getProxy
      produces: ["*/*"]
      responses:
        "200": {description: OK, schema: {type: string}}
"""

SPEC_30 = """\
openapi: 3.0.3
info: {title: Files, version: "1"}
paths:
  /files/{name}:
    head:
      operationId: fileInfo
      parameters:
        - {in: path, name: name, required: true, schema: {type: string}}
      responses:
        "200":
          description: the file's headers
          content:
            application/json:
              schema: {type: object, required: [size], properties: {size: {type: integer}}}
"""


def _headers_only(seen: list[httpx.Request]) -> httpx.MockTransport:
    def api(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        # what a server sends a HEAD: the GET's headers, no content
        return httpx.Response(200, headers={"Content-Type": "text/plain", "Content-Length": "6"})

    return httpx.MockTransport(api)


@pytest.mark.parametrize(("text", "name"), [(SPEC, "headProxy"), (SPEC_30, "fileInfo")])
def test_a_head_operation_returns_nothing_and_says_why(
    tmp_path: Path, text: str, name: str
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    plugin = sk.load_openapi(spec)
    operation = plugin.operation(name)
    success = next(r for r in operation.responses if r.status == "200")
    assert success.schema is None and success.content_types == ()
    assert operation.response_schema is None and operation.response_content_type is None
    view = next(v for v in plugin.views if v.name == name)
    assert view.return_parameter.schema is None
    assert view.return_parameter.description  # the response's description stays
    head = [w for w in plugin.warnings if "HEAD" in w]
    assert len(head) == 1 and head[0].startswith(operation.pointer + "/responses/200: ")
    assert "no content" in head[0]


def test_the_get_beside_it_keeps_its_answer(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    plugin = sk.load_openapi(spec)
    assert plugin.operation("getProxy").response_schema is not None


def test_kernel_openapi_returns_none_for_a_head_answer() -> None:
    import yaml

    seen: list[httpx.Request] = []
    client = httpx.AsyncClient(transport=_headers_only(seen))
    head = openapi_plugin(sk.load_openapi(yaml.safe_load(SPEC)), client=client)["headProxy"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no drift: nothing was declared to come back
        assert invoke(head, {"name": "n"}) is None
    assert [r.method for r in seen] == ["HEAD"]


def test_the_generated_client_returns_none_without_drift(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the generation warning is tested above
        generate_plugin(spec, tmp_path / "out", name="head_proxy_client")
    source = (tmp_path / "out" / "head_proxy_client" / "plugin.py").read_text()
    assert "async def head_proxy(self, name: str, *, strict: bool | None = None) -> None:" in (
        source
    )
    sys.path.insert(0, str(tmp_path / "out"))
    try:
        module = importlib.import_module("head_proxy_client")
        seen: list[httpx.Request] = []

        async def main() -> object:
            async with httpx.AsyncClient(transport=_headers_only(seen)) as client:
                plugin = module.HeadProxyClientPlugin("http://proxy.test", client=client)
                return await plugin.head_proxy("n", strict=True)

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert asyncio.run(main()) is None
        assert [r.method for r in seen] == ["HEAD"]
    finally:
        sys.path.remove(str(tmp_path / "out"))
        sys.modules.pop("head_proxy_client", None)
        sys.modules.pop("head_proxy_client.plugin", None)
        sys.modules.pop("head_proxy_client.models", None)
