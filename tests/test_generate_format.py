"""Generated attribute lines come out the way ruff's formatter writes them.

Each case is a class attribute whose line is too long in a different way; the module made
of all of them must compile and pass ``ruff format --check`` unchanged (the generator
cannot run ruff: its output must not depend on the installed ruff).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sktypes_codegen._render import assignment

BIN = Path(sys.executable).parent
LONG = "IoK8SApimachineryPkgApisMetaV1ServerAddressByClientCIDR"
LITERAL = "Literal[" + ", ".join(f'"value_number_{i}"' for i in range(12)) + "]"

CASES = [
    ("short", "int", "None", []),
    ("short_alias", "int | None", None, ["default=None", 'alias="shortAlias"']),
    ("shard_info", f"{LONG} | None", None, ["default=None", 'alias="shardInfo"']),
    ("preferred_during_scheduling", f"list[{LONG}] | None", None, ["default=None", 'alias="p"']),
    ("server_address_by_client_cid_rs", f"list[{LONG}]", None, ['alias="serverAddress"']),
    ("conversion_of_the_custom_resource", f"{LONG}Conversion | None", "None", []),
    ("status", f"{LITERAL} | None", "None", []),
    ("required_status", LITERAL, None, []),
    ("conditions", f"list[{LONG}ConditionsAndMore{LONG}] | None", "None", []),
]


@pytest.mark.skipif(not (BIN / "ruff").exists(), reason="ruff is not installed")
def test_long_attribute_lines_are_formatted_as_ruff_formats_them(tmp_path: Path) -> None:
    lines = [assignment(name, ann, value, args) for name, ann, value, args in CASES]
    body = "".join(f"    {line}\n" for line in lines)
    module = (
        "from typing import Any, Literal\n\nfrom pydantic import BaseModel, Field\n\n"
        + "".join(f"{n} = Any\n" for n in (LONG, f"{LONG}Conversion", f"{LONG}ConditionsAndMore"))
        + f"\n\nclass Model(BaseModel):\n{body}"
    )
    compile(module, "model.py", "exec")
    path = tmp_path / "model.py"
    path.write_text(module)
    result = subprocess.run(
        [BIN / "ruff", "format", "--isolated", "--line-length", "100", "--diff", str(path)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    long = [line for line in module.splitlines() if len(line) > 100]
    assert all(" " not in line.strip() for line in long), long  # only unsplittable names
