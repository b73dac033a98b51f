"""The frameworks' shared core, without any framework: schemas reshaped, the checked call."""

from __future__ import annotations

import asyncio
import json
import warnings
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field

import sktypes as sk
from sktypes.integrations import RECURSION_DEPTH, SchemaCutWarning
from sktypes.integrations._core import error_text, tools
from sktypes.integrations._schema import restore_absent, tool_schema
from sktypes.kernel import FunctionInvocationContext, Kernel, NextFilter
from tests.typefamilies import Item, Pet, Tree


class Owner(BaseModel):
    email: str
    phone: str | None = None
    nick: str = "x"


class Order(BaseModel):
    items: list[Item]
    owner: Owner | None = None
    note: str = ""


class Shop:
    """A shop."""

    @sk.kernel_function
    def place(self, order: Order, express: bool = False, pet: Pet | None = None) -> Order:
        """Place an order."""
        return order

    @sk.kernel_function
    async def count(self, limit: Annotated[int, Field(ge=0, le=10)] = 3) -> list[int]:
        """Count up to the limit."""
        return list(range(limit))

    @sk.kernel_function
    def grow(self, tree: Tree) -> int:
        """Count a tree's nodes."""
        return 1 + sum(self.grow(c) for c in tree.children)

    @sk.kernel_function
    def tally(self, counts: dict[str, int]) -> int:
        """Add the counts."""
        return sum(counts.values())


VIEWS = {v.name: v for v in sk.plugin_views(Shop())}


def refs(node: Any) -> list[str]:
    text = json.dumps(node)
    return [part for part in text.split('"') if part.startswith("#/")]


# --- inlining -----------------------------------------------------------------------


def test_inlined_schema_has_no_refs_and_keeps_descriptions() -> None:
    shaped = tool_schema(VIEWS["place"], inline=True, strict=False)
    assert shaped.inlined and not shaped.cuts
    assert refs(shaped.parameters) == []
    assert "$defs" not in shaped.parameters
    item = shaped.properties["order"]["properties"]["items"]["items"]
    assert item["description"] == "An order line."
    assert item["properties"]["sku"]["minLength"] == 1


def test_recursion_is_cut_at_the_documented_depth_and_reported() -> None:
    with pytest.warns(SchemaCutWarning, match=r"Shop\.grow: .* depth 3 at /properties/tree/"):
        shaped = tool_schema(VIEWS["grow"], inline=True, strict=False)
    (cut,) = shaped.cuts
    assert cut.count("/children/items") == RECURSION_DEPTH
    node: Any = shaped.parameters
    for part in cut.strip("/").split("/"):
        node = node[part]
    assert node["type"] == "object" and "nested deeper than 3 levels" in node["description"]


def test_a_ref_next_to_clashing_keywords_is_kept_apart() -> None:
    view = sk.FunctionView(
        "f",
        parameters=(
            sk.ParameterView(
                "p",
                schema={
                    "$ref": "#/$defs/N",
                    "minimum": 3,
                    "description": "here",
                    "$defs": {"N": {"type": "integer", "minimum": 0, "description": "there"}},
                },
            ),
        ),
    )
    prop = tool_schema(view, inline=True, strict=False).properties["p"]
    assert prop == {
        "allOf": [{"type": "integer", "minimum": 0, "description": "there"}],
        "minimum": 3,
        "description": "here",
    }


def test_a_reference_that_cannot_be_inlined_names_its_place() -> None:
    view = sk.FunctionView(
        "f", parameters=(sk.ParameterView("p", schema={"$ref": "https://x.example/s.json"}),)
    )
    with pytest.raises(sk.SchemaError, match=r"f: /properties/p: cannot inline"):
        tool_schema(view, inline=True, strict=False)


@pytest.mark.parametrize("name", ["place", "count", "tally"])
@settings(max_examples=60)
@given(data=st.data())
def test_inlined_schema_accepts_and_rejects_like_the_view(name: str, data: st.DataObject) -> None:
    view = VIEWS[name]
    sent = tool_schema(view, inline=True, strict=False).parameters
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers(-2, 2000) | st.text(max_size=3),
        lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=6,
    )
    keys = st.sampled_from(["order", "items", "sku", "qty", "owner", "email", "limit", "counts"])
    instance = data.draw(st.dictionaries(keys, json_values | st.dictionaries(keys, json_values)))
    mine = Draft202012Validator(view.parameters_schema).is_valid(instance)
    assert Draft202012Validator(sent).is_valid(instance) == mine


# --- strict -------------------------------------------------------------------------


def test_strict_makes_optional_arguments_required_and_nullable() -> None:
    shaped = tool_schema(VIEWS["place"], inline=False, strict=True)
    params = shaped.parameters
    assert shaped.strict
    assert params["required"] == ["order", "express", "pet"]
    assert params["properties"]["express"]["type"] == ["boolean", "null"]
    owner = params["$defs"]["Owner"]
    assert owner["required"] == ["email", "phone", "nick"]
    assert owner["additionalProperties"] is False


def test_strict_cannot_take_a_mapping() -> None:
    with pytest.raises(sk.SchemaError, match=r"Shop\.tally: .*cannot be made strict"):
        tool_schema(VIEWS["tally"], inline=False, strict=True)
    assert not tool_schema(VIEWS["tally"], inline=False, strict=None, strict_default=True).strict


def test_strict_with_a_cut_recursion_falls_back_or_fails() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SchemaCutWarning)
        assert not tool_schema(VIEWS["grow"], inline=True, strict=None, strict_default=True).strict
        with pytest.raises(sk.SchemaError, match="recursive definition had to be cut"):
            tool_schema(VIEWS["grow"], inline=True, strict=True)
    kept = tool_schema(VIEWS["grow"], inline=False, strict=True)  # $defs carry recursion
    assert kept.strict and "$defs" in kept.parameters


def test_restore_absent_turns_strict_nulls_back_into_absence() -> None:
    sent = {
        "order": {"items": [], "owner": {"email": "a", "phone": None, "nick": None}, "note": None},
        "express": None,
        "pet": None,
    }
    assert restore_absent(VIEWS["place"], sent) == {
        "order": {"items": [], "owner": {"email": "a", "phone": None}},
        "pet": None,  # ``Pet | None`` takes null itself
    }


def test_restore_absent_leaves_values_without_nulls_alone() -> None:
    args = {"order": {"items": [{"sku": "a", "qty": 1}]}}
    assert restore_absent(VIEWS["place"], args) is args


# --- the checked call ---------------------------------------------------------------


def shop_tools(**options: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SchemaCutWarning)
        found = tools(Shop(), inline=False, strict=None, **options)
    return {t.view.name: t for t in found}


def test_tools_are_named_like_the_openai_manual() -> None:
    assert sorted(t.name for t in shop_tools().values()) == [
        "Shop-count",
        "Shop-grow",
        "Shop-place",
        "Shop-tally",
    ]


def test_a_valid_call_returns_the_typed_value_sync_and_async() -> None:
    place = shop_tools()["place"]
    args = {"order": {"items": [{"sku": "a", "qty": 2}]}, "express": True}
    typed = Order(items=[Item(sku="a", qty=2)])
    assert place.invoke_sync(args) == typed
    assert asyncio.run(place.invoke(json.dumps(args))) == typed
    count = shop_tools()["count"]
    assert count.invoke_sync({"limit": 2}) == [0, 1]  # an async function, called synchronously
    assert count.invoke_sync(None) == [0, 1, 2]


def test_sync_call_inside_a_running_loop_still_works() -> None:
    count = shop_tools()["count"]

    async def inside() -> Any:
        return count.invoke_sync({"limit": 1})

    assert asyncio.run(inside()) == [0]


def test_bad_arguments_name_every_path() -> None:
    place = shop_tools()["place"]
    bad = {"order": {"items": [{"sku": "", "qty": 0}], "owner": {"phone": 1}}, "rush": True}
    with pytest.raises(sk.ArgumentsError) as raised:
        place.invoke_sync(bad)
    text = error_text(raised.value, place)
    assert text.startswith("The arguments for Shop-place could not be used.")
    for path in ("$.order.items[0].sku", "$.order.items[0].qty", "$.order.owner.phone"):
        assert f"- at {path}:" in text
    assert "- at $.rush: unknown argument (known: express, order, pet)" in text


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{order: ", "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        (b"3", "must be a JSON object"),
    ],
)
def test_arguments_that_are_not_an_object_are_refused(raw: Any, message: str) -> None:
    with pytest.raises(sk.HydrationError, match=message):
        shop_tools()["place"].arguments(raw)


def test_repairable_json_text_is_repaired() -> None:
    assert shop_tools()["count"].arguments("```json\n{'limit': 2,}\n```") == {"limit": 2}


def test_strict_tools_read_nulls_as_absent() -> None:
    place = shop_tools(strict_default=True)["place"]
    assert place.schema.strict
    value = place.invoke_sync(
        {"order": {"items": [], "owner": None, "note": None}, "express": None, "pet": None}
    )
    assert value == Order(items=[])


def test_a_kernels_filters_run_around_each_call() -> None:
    kernel = Kernel()
    kernel.add_plugin(Shop())
    seen: list[str] = []

    @kernel.add_filter
    async def record(context: FunctionInvocationContext, next: NextFilter) -> None:
        seen.append(context.function.name)
        await next(context)

    count = {t.view.name: t for t in tools(kernel, inline=False, strict=False)}["count"]
    assert count.invoke_sync({"limit": 1}) == [0]
    assert asyncio.run(count.invoke({})) == [0, 1, 2]
    assert seen == ["count", "count"]


def test_results_as_json_and_text() -> None:
    place = shop_tools()["place"]
    order = Order(items=[Item(sku="a", qty=1)])
    assert place.json_result(order) == {
        "items": [{"sku": "a", "qty": 1}],
        "owner": None,
        "note": "",
    }
    assert json.loads(place.text_result(order)) == place.json_result(order)
    assert place.text_result("plain") == "plain"


def double(x: int) -> int:
    """Twice x."""
    return 2 * x


def test_lists_of_views_and_callables_are_grouped_by_plugin() -> None:
    found = tools([*sk.plugin_views(Shop()), double], inline=False, strict=False)
    assert sorted(t.name for t in found) == [
        "Shop-count",
        "Shop-grow",
        "Shop-place",
        "Shop-tally",
        "double",
    ]
    assert {t.name: t for t in found}["double"].invoke_sync({"x": 2}) == 4


def test_for_llm_is_shared_by_arguments_errors() -> None:
    error = sk.ArgumentsError([sk.errors.ErrorDetail("$.a", "bad", "1")])
    assert error.for_llm(header="H") == "H\n- at $.a: bad (got 1)"


# --- the decorator: its own attribute, and Semantic Kernel's marks read ---------------


def test_sktypes_decorator_writes_only_its_own_attribute() -> None:
    method = Shop.place
    assert isinstance(method.__sktypes_function__, sk.introspect.KernelFunctionInfo)  # type: ignore[attr-defined]
    assert not hasattr(method, "__kernel_function__")
    assert not hasattr(method, "__kernel_function_name__")


def test_functions_marked_the_way_semantic_kernel_marks_them_are_read() -> None:
    def lights(self: Any, id: Annotated[int, "Which light"], kernel: Any = None) -> bool:
        """Switch it.

        Args:
            id: ignored: the annotation describes it.
        """
        return True

    # what semantic_kernel.functions.kernel_function sets (tested against the real one in
    # tests/integrations/semantic_kernel)
    lights.__kernel_function__ = True  # type: ignore[attr-defined]
    lights.__kernel_function_name__ = "switch"  # type: ignore[attr-defined]
    lights.__kernel_function_description__ = lights.__doc__  # type: ignore[attr-defined]
    plugin = type("Lights", (), {"lights": lights})
    (view,) = sk.plugin_views(plugin())
    assert view.name == "switch"
    assert view.description == "Switch it."
    assert [p.name for p in view.parameters] == ["id"]


class Crew(BaseModel):
    owners: list[Owner]
    lead: Owner | Item | None = None


class Office:
    """An office."""

    @sk.kernel_function
    def staff(self, crew: Crew, spare: list[Owner] | None = None) -> int:
        """Count."""
        return len(crew.owners)


def test_restore_absent_follows_refs_arrays_and_unions() -> None:
    (view,) = sk.plugin_views(Office())
    sent = {
        "crew": {
            "owners": [{"email": "a", "phone": None, "nick": None}],
            "lead": {"email": "b", "phone": "1", "nick": None},
        },
        "spare": None,
    }
    assert restore_absent(view, sent) == {
        "crew": {"owners": [{"email": "a", "phone": None}], "lead": {"email": "b", "phone": "1"}},
        "spare": None,
    }
    strict = tools(Office(), inline=False, strict=True)[0]
    assert strict.invoke_sync(sent) == 1


def test_an_openapi_plugin_is_a_target_with_the_specs_schemas() -> None:
    from tests.integrations.support import PETS_SPEC

    found = {t.name: t for t in tools(sk.load_openapi(PETS_SPEC), inline=True, strict=False)}
    assert sorted(found) == ["Pets-addPet", "Pets-listPets"]
    body = found["Pets-addPet"].schema.properties["body"]
    assert refs(body) == []
    assert body["properties"]["name"]["minLength"] == 1
    assert body["properties"]["owner"]["properties"]["phone"]["pattern"] == "^[0-9+ ]{6,20}$"
    with pytest.raises(sk.ArgumentsError, match=r"\$\.body\.kind"):
        found["Pets-addPet"].invoke_sync({"body": {"name": "Rex", "kind": "cow"}})
