"""Generated attribute lines and signatures come out the way ruff's formatter writes them.

The layout (``sktypes_codegen._render``) works on annotation nodes, never on re-parsed text.
Hand-picked cases and random annotation trees (hypothesis) are laid out at random indents and
name lengths; the module made of all of them must compile and pass ``ruff format --check``
unchanged (the generator cannot run ruff: its output must not depend on the installed ruff).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sktypes_codegen._annotations import (
    ANY,
    INT,
    MISSING,
    NONE,
    STR,
    Call,
    Expr,
    Name,
    Raw,
    Subscript,
    Value,
    annotated,
    literal,
    union,
)
from sktypes_codegen._render import assignment, signature

BIN = Path(sys.executable).parent
LONG = "IoK8SApimachineryPkgApisMetaV1ServerAddressByClientCIDR"
FIELD = Name("Field")
TAG = Name("Tag")
LIST = Name("list")
DICT = Name("dict")
TUPLE = Name("tuple")
CLASS = Name(LONG, local=True)


def field(**kwargs: object) -> Call:
    return Call(
        FIELD, kwargs=tuple((k, v if v is MISSING else Value(v)) for k, v in kwargs.items())
    )


CASES: list[tuple[str, Expr, Expr | None]] = [
    ("short", INT, Value(None)),
    ("short_alias", union([INT, NONE]), field(default=None, alias="shortAlias")),
    ("shard_info", union([CLASS, NONE]), field(default=None, alias="shardInfo")),
    ("preferred", union([Subscript(LIST, (CLASS,)), MISSING]), field(default=None, alias="p")),
    ("server_address_by_client_cid_rs", Subscript(LIST, (CLASS,)), field(alias="serverAddr")),
    ("conversion_of_the_custom_resource", union([Name(LONG + "Conversion"), NONE]), Value(None)),
    ("status", union([literal([f"value_number_{i}" for i in range(12)]), MISSING]), MISSING),
    ("required_status", literal([f"value_number_{i}" for i in range(12)]), None),
    (
        "constrained_value_with_a_long_name",
        union([annotated(STR, [field(pattern="^[a-z]+$", min_length=1, max_length=100)]), MISSING]),
        field(default=MISSING, alias="constrainedValue"),
    ),
    (
        "pets",
        annotated(
            union([annotated(Name(f"Cat{LONG}"), [Call(TAG, (Value("Cat"),))]), NONE]),
            [Call(Name("discriminated_by"), (Value("petType"), Value({"cat": "Cat"})))],
        ),
        None,
    ),
    ("pair", Subscript(TUPLE, (CLASS, Name(LONG + "Other"))), Value(None)),
    ("mapping", union([Subscript(DICT, (STR, annotated(INT, [field(ge=1)]))), MISSING]), MISSING),
]

_NAMES = [INT, STR, ANY, NONE, MISSING, CLASS, Name("Pet", local=True), Name("datetime.datetime")]
_LEAVES = st.sampled_from(_NAMES) | st.builds(
    literal, st.lists(st.sampled_from(["a", "bb", "value_with_length", 1, True]), min_size=1)
)


def _tree(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    return st.one_of(
        st.builds(lambda e: Subscript(LIST, (e,)), children),
        st.builds(lambda e: Subscript(DICT, (STR, e)), children),
        st.builds(lambda a, b: Subscript(TUPLE, (a, b)), children, children),
        st.builds(lambda opts: union(opts), st.lists(children, min_size=2, max_size=4)),
        st.builds(
            lambda e, n: annotated(e, [field(ge=n, le=n + 10_000_000)]),
            children,
            st.integers(0, 10**9),
        ),
    )


ANNOTATIONS = st.recursive(_LEAVES, _tree, max_leaves=8)
VALUES = (
    st.none()
    | st.sampled_from([MISSING, Value(None), Value(12), field(alias="wireName")])
    | ANNOTATIONS  # a type alias: ``Name: TypeAlias = <annotation>``
)


def _ruff_accepts(module: str, tmp_path: Path) -> None:
    compile(module, "model.py", "exec")
    path = tmp_path / "model.py"
    path.write_text(module)
    result = subprocess.run(
        [BIN / "ruff", "format", "--isolated", "--line-length", "100", "--diff", str(path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not (BIN / "ruff").exists(), reason="ruff is not installed")
def test_long_attribute_lines_are_formatted_as_ruff_formats_them(tmp_path: Path) -> None:
    lines = [assignment(name, ann, value) for name, ann, value in CASES]
    body = "".join(f"    {line}\n" for line in lines)
    _ruff_accepts(f"class Model(BaseModel):\n{body}", tmp_path)
    long = [line for line in body.splitlines() if len(line) > 100]
    assert all(" " not in line.strip() for line in long), long  # only unsplittable names


@pytest.mark.skipif(not (BIN / "ruff").exists(), reason="ruff is not installed")
@settings(max_examples=15, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 70), ANNOTATIONS, VALUES, st.booleans()), min_size=1, max_size=12
    )
)
def test_random_annotations_are_laid_out_as_ruff_lays_them_out(
    tmp_path_factory: pytest.TempPathFactory,
    cases: list[tuple[int, Expr, Expr | None, bool]],
) -> None:
    fields = []
    params = []
    for i, (width, annotation, value, required) in enumerate(cases):
        name = f"f{i}_" + "x" * width
        if required and value is None:  # what a generated method does with its JSON result
            value = Call(Name("parse_json"), (annotation, Raw("response")))
        fields.append(f"    {assignment(name, annotation, value)}\n")
        params.append((name, annotation, None if required else "MISSING"))
    params.sort(key=lambda p: p[2] is not None)
    method = signature("method", [("self", None, None), *params], cases[0][1], 4, is_async=True)
    module = f"class Model(BaseModel):\n{''.join(fields)}\n    {method}\n        pass\n"
    _ruff_accepts(module, tmp_path_factory.mktemp("fmt"))
