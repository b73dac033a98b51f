"""The conformance harness compares an answer with its typed result dumped back (vendor/run.py).

DigitalOcean's ``droplets_create`` was recorded as "sent {"dolor2d": ..., "droplet": ...},
dumped back {"droplet": ...}", which read as a dropped member: the one line showed the first
80 characters of each side, and the dump lists a model's fields before its extra members.
Nothing was dropped: Prism drew ``"0fa7:2ded:..."`` for a ``format: ipv6`` member, which the
generated ``IPv6Address`` writes back as ``"fa7:2ded:..."``, the same address (RFC 4291 allows
leading zeros). Two spellings of one address are the same value, and a failure's line names
the JSON pointer where the two sides part.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

import sktypes as sk
from tests.instances import first_difference, same_json
from tests.remote_util import import_generated, operation_spec
from tests.vendor.run import _compare


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("0fa7:2ded:16b9:c056:60b2:3848:770e:d0d0", "fa7:2ded:16b9:c056:60b2:3848:770e:d0d0"),
        ("2001:db8:0:0:0:0:0:1", "2001:db8::1"),
        ("2001:DB8::1", "2001:db8::1"),
        ("fe80:0::1/64", "fe80::1/64"),
        ("12:34::1", "12:34:0::1"),  # looks like a time at first
    ],
)
def test_two_spellings_of_one_ipv6_address_are_the_same_value(a: str, b: str) -> None:
    assert same_json(a, b)
    assert first_difference({"ip": a}, {"ip": b}) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [("2001:db8::1", "2001:db8::2"), ("fe80::1/64", "fe80::1/48"), ("a:b", "a:c")],
)
def test_different_addresses_stay_different(a: str, b: str) -> None:
    assert not same_json(a, b)


def test_first_difference_names_the_pointer_and_both_sides() -> None:
    sent = {"extra": 1, "droplet": {"networks": {"v6": [{"ip": "::1"}, {"ip": "::2"}]}}}
    assert first_difference(sent, sent) is None
    got = {"droplet": {"networks": {"v6": [{"ip": "::1"}, {"ip": "::3"}]}}, "extra": 1}
    assert first_difference(sent, got) == '/droplet/networks/v6/1/ip: "::2" against "::3"'
    assert first_difference(sent, {"droplet": sent["droplet"]}) == "/extra: only in the first (1)"
    assert first_difference({}, {"a/b~": None}) == "/a~1b~0: only in the second (null)"
    assert first_difference([1, 2], [1]) == "/: 2 items against 1"
    assert first_difference(1, 1.0) is None
    assert first_difference(True, 1) == "/: true against 1"


RESPONSE = {
    "type": "object",
    "properties": {
        "droplet": {
            "type": "object",
            "properties": {"ip": {"type": "string", "format": "ipv6"}},
            "required": ["ip"],
        }
    },
    "required": ["droplet"],
}


def _judge(
    tmp_path: Path, body: dict[str, Any], parsed: dict[str, Any] | None = None
) -> str | None:
    """The harness's verdict on ``body`` answered and ``parsed`` (default: ``body``) parsed."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(operation_spec(response=RESPONSE)), encoding="utf-8")
    module = import_generated(spec, tmp_path / "out", "compare_pkg")
    cls = next(getattr(module, n) for n in module.__all__ if n != "ApiError")
    view = next(v for v in sk.plugin_views(cls("http://test")) if v.name == "op")
    assert view.return_parameter.native_type is not None
    content = json.dumps(body).encode()
    response = httpx.Response(200, headers={"content-type": "application/json"}, content=content)
    parsed_text = content if parsed is None else json.dumps(parsed)
    result = sk.hydrate(view.return_parameter.native_type, parsed_text, repair=False)
    operation = sk.load_openapi(spec).operation("op")
    return _compare(view, operation, response, result)


def test_an_answer_whose_ipv6_address_is_written_back_canonically_is_parsed(
    tmp_path: Path,
) -> None:
    body = {"dolor2d": -89576132, "droplet": {"ip": "0fa7:2ded::d0d0", "x_1": True}}
    assert _judge(tmp_path, body) is None


def test_a_member_lost_on_the_way_is_reported_where_it_is(tmp_path: Path) -> None:
    body = {"dolor2d": 1, "droplet": {"ip": "::1", "note": "kept?"}}
    lost = {"dolor2d": 1, "droplet": {"ip": "::1"}}
    assert _judge(tmp_path, body, lost) == (
        'sent and dumped back differ at /droplet/note: only in the first ("kept?")'
    )
