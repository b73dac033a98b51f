"""Generated models behave alike on pydantic 2.14 (``pydantic.MISSING``) and 2.12-2.13.

Semantic Kernel pins ``pydantic<2.14``, where the sentinel lives in
``pydantic.experimental.missing_sentinel``. ``make test`` runs this module twice: in ``.venv``
(pydantic 2.14+) and in ``.venv-lowest`` (pydantic 2.12.0, every runtime requirement at the
lowest version pyproject.toml allows), built by the Makefile. It needs only pytest and
sktypes' own requirements.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import pydantic
import pytest

import sktypes as sk
from sktypes.generated import MISSING, discriminated_by
from sktypes.remote import Request, build_request
from sktypes_codegen import generate_plugin

SPECS = Path(__file__).parent / "specs"


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("compat")
    out = {}
    for stem in ("composition", "requests"):
        generate_plugin(SPECS / f"{stem}.yaml", root, name=f"compat_{stem}")
        sys.path.insert(0, str(root))
        try:
            out[stem] = importlib.import_module(f"compat_{stem}")
        finally:
            sys.path.remove(str(root))
    return out


def test_the_sentinel_is_pydantics_own() -> None:
    if pydantic.VERSION >= "2.14":
        assert MISSING is pydantic.MISSING  # type: ignore[attr-defined, unused-ignore]
    else:
        from pydantic.experimental.missing_sentinel import MISSING as experimental

        assert MISSING is experimental


def test_absent_stays_absent_and_null_stays_null(packages: dict[str, Any]) -> None:
    models = importlib.import_module("compat_requests.models")
    patch = models.OrderPatch.model_validate({"note": None})
    assert patch.status is MISSING
    assert patch.model_dump(mode="json", by_alias=True) == {"note": None}
    assert models.OrderPatch().model_dump(mode="json") == {}
    with pytest.raises(pydantic.ValidationError):
        models.OrderPatch.model_validate({"quantity": 51})  # maximum: 50
    with pytest.raises(pydantic.ValidationError):
        models.OrderPatch.model_validate({"other": 1})  # additionalProperties: false
    order = {"id": 1, "status": "open", "note": None, "extra": {"kept": True}}
    assert (
        models.Order.model_validate(order).model_dump(
            mode="json", by_alias=True, exclude_unset=True
        )
        == order
    )


def test_requests_send_exactly_what_was_given(packages: dict[str, Any]) -> None:
    plugin = packages["requests"].CompatRequestsPlugin("http://127.0.0.1:1")
    models = importlib.import_module("compat_requests.models")
    body = models.OrderPatch.model_validate({"note": None})
    built = build_request("http://x", plugin._patch_order_request(orderId=3, body=body))
    assert json.loads(built.content) == {"note": None}
    query: Request = plugin._get_order_request(orderId=3)
    assert str(build_request("http://x", query).url) == "http://x/orders/3"


def test_inheritance_and_discriminators(packages: dict[str, Any]) -> None:
    models = importlib.import_module("compat_composition.models")
    assert issubclass(models.ShowDog, models.WorkingDog)
    assert issubclass(models.WorkingDog, models.Dog)
    adapter = pydantic.TypeAdapter(models.Animal)
    cat = adapter.validate_python({"kind": "cat", "lives": 9})
    assert type(cat).__name__ == "CatAnimal"
    with pytest.raises(pydantic.ValidationError):
        adapter.validate_python({"kind": "fish"})
    views = sk.plugin_views(packages["composition"].CompatCompositionPlugin())
    assert views == sk.load_openapi(SPECS / "composition.yaml").views


class _Private(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    view: str | MISSING = MISSING
    login: str
    disk: int


class _Public(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid")
    view: str | MISSING = MISSING
    login: str


_User = Annotated[
    Annotated[_Private, pydantic.Tag("private-user")] | Annotated[_Public, pydantic.Tag("public")],
    discriminated_by("view", {"private": "private-user"}),
]


def test_a_discriminator_member_left_out_falls_back_to_matching_each_option() -> None:
    # GitHub's /user: oneOf [private-user, public-user] discriminated by user_view_type, which
    # neither requires; answers without it failed with "Unable to extract tag"
    adapter = pydantic.TypeAdapter(_User)
    assert type(adapter.validate_python({"login": "o", "disk": 1})) is _Private
    assert type(adapter.validate_json(b'{"login": "o"}')) is _Public
    with pytest.raises(pydantic.ValidationError):
        adapter.validate_python({"login": "o", "other": 1})  # no option matches
    # a member that is there still decides, mapped or by the definition's name
    assert type(adapter.validate_python({"view": "public", "login": "o"})) is _Public
    with pytest.raises(pydantic.ValidationError):
        adapter.validate_python({"view": "public", "login": "o", "disk": 1})
    with pytest.raises(pydantic.ValidationError):
        adapter.validate_python({"view": "unknown", "login": "o"})
    user = adapter.validate_python({"login": "o", "disk": 1})
    assert adapter.dump_python(user, mode="json") == {"login": "o", "disk": 1}
    assert adapter.validate_python(user) is user  # model instances pass as they are
    # the fallback is no option of its own in the JSON Schema
    assert adapter.json_schema()["oneOf"] == [
        {"$ref": "#/$defs/_Private"},
        {"$ref": "#/$defs/_Public"},
    ]
