"""datamodel-code-generator as a differential oracle for generated models.

Where datamodel-code-generator models a spec (OpenAPI 3.x; it writes one module), its model of
each named schema and ours are given the same instances: drawn from the schema and mutated once.
Whenever datamodel-code-generator's verdict (accept or refuse) agrees with the schema's (the
oracle of :mod:`tests.roundtrip`), ours must agree too. Where it disagrees with the schema (it
types optional fields ``X | None``, ignores formats, coerces ``"1"`` to ``1``), the spec decides
and the count is printed (``-s``).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from pydantic import BaseModel, TypeAdapter, ValidationError

import sktypes as sk
from tests.corpus_util import CORPUS
from tests.instances import instances
from tests.roundtrip import mutations, oracle
from tests.test_generate_consistency import import_generated
from tests.test_generate_roundtrip import one_operation_per_schema

datamodel_code_generator = pytest.importorskip("datamodel_code_generator")

SPECS = {
    "petstore_v3": CORPUS / "oai-v3.0-petstore" / "petstore.yaml",
    "petstore_expanded_v3": CORPUS / "oai-v3.0-petstore-expanded" / "petstore-expanded.json",
    "uspto": CORPUS / "oai-v3.0-uspto" / "uspto.yaml",
    "link_example": CORPUS / "oai-v3.0-link-example" / "link-example.yaml",
    "twilio_oauth": CORPUS / "twilio-oauth-v1" / "twilio_oauth_v1.json",
    "twilio_messaging": CORPUS / "twilio-messaging-v1" / "twilio_messaging_v1.json",
    "composition": Path(__file__).parent / "specs" / "composition.yaml",
    "requests": Path(__file__).parent / "specs" / "requests.yaml",
}
EXAMPLES = 6


def _their_models(spec: Path, out: Path, name: str) -> Any:
    from datamodel_code_generator import DataModelType, InputFileType, generate

    target = out / f"{name}.py"
    generate(
        spec,
        input_file_type=InputFileType.OpenAPI,
        output=target,
        output_model_type=DataModelType.PydanticV2BaseModel,
        disable_timestamp=True,
    )
    loaded = importlib.util.spec_from_file_location(name, target)
    assert loaded is not None and loaded.loader is not None
    module = importlib.util.module_from_spec(loaded)
    sys.modules[name] = module
    loaded.loader.exec_module(module)
    return module


def _accepts(validate: Any, instance: Any) -> bool:
    try:
        validate(instance)
    except ValidationError:
        return False
    return True


def _compare(name: str, model: type[BaseModel], schema: dict[str, Any], ours: Any) -> int:
    """Compare on drawn and mutated instances; return how often theirs disagrees with the spec."""
    validator = oracle(schema)
    adapter = TypeAdapter(ours)
    wrong = 0

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def compare(data: st.DataObject) -> None:
        nonlocal wrong
        instance = data.draw(instances(schema))
        for candidate in (instance, data.draw(mutations(instance))):
            right = validator.is_valid(candidate)
            them = _accepts(model.model_validate, candidate)
            us = _accepts(lambda v: adapter.validate_json(json.dumps(v), strict=True), candidate)
            if them != right:
                wrong += 1
                continue
            assert us == right, (
                f"{name}: datamodel-code-generator {'accepts' if them else 'refuses'} "
                f"{candidate!r} as the schema does; ours does not"
            )

    compare()
    return wrong


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(k for k, v in SPECS.items() if v.is_file()))
def test_where_datamodel_code_generator_is_right_ours_is_too(key: str, tmp_path: Path) -> None:
    spec = SPECS[key]
    try:
        theirs = _their_models(spec, tmp_path, f"dmcg_{key}")
    except datamodel_code_generator.Error as exc:
        pytest.skip(f"datamodel-code-generator does not model it as one module: {exc}")
    synthetic, count, _ = one_operation_per_schema(spec, tmp_path / "spec", multi_file=False)
    plugin_cls = import_generated(synthetic, tmp_path / "ours", f"oracle_{key}")
    loaded = sk.load_openapi(synthetic, validate=False)
    views = {v.name: v for v in sk.plugin_views(plugin_cls())}
    compared = their_wrong = 0
    for view in loaded.views:
        name = view.return_parameter.description or ""
        model = getattr(theirs, name, None) or getattr(theirs, name[:1].upper() + name[1:], None)
        schema = view.return_parameter.schema
        if not (isinstance(model, type) and issubclass(model, BaseModel)) or schema is None:
            continue
        ours = views[view.name].return_parameter.native_type
        try:
            their_wrong += _compare(name, model, schema.to_python(), ours)
        except Unsatisfiable:  # hypothesis-jsonschema cannot draw from it
            continue
        compared += 1
    print(
        f"\noracle {key}: {compared} of {count} named schemas compared with "
        f"datamodel-code-generator; {their_wrong} instances where it disagrees with the schema"
    )
    assert compared > 0
