"""The recorded link from a generated package to its spec and options (``sktypes.json``).

``generate_plugin`` writes ``OUT/<name>/sktypes.json``::

    {
      "spec": "../../api/v1/openapi.yaml",
      "inputs": {"../../api/v1/openapi.yaml": "<sha256>", "../../api/v1/pet.yaml": "<sha256>"},
      "name": "petstore_v1",
      "options": {"layout": "single", "sync": false, "validate": true, "line_length": 88,
                  "include": [], "exclude": []}
    }

Paths are relative to the package directory (POSIX separators), so the record stays true
when the repository moves. ``inputs`` holds the spec and every local file its ``$ref``s reach,
transitively, each with the SHA-256 of its bytes: ``sktypes check`` pairs a changed file with
every package generated from it, names the file that changed, and regenerates with the
recorded options to find hand edits. No timestamps, no versions: generating twice gives the
same bytes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from sktypes._documents import read_document, read_file
from sktypes.errors import GenerationError, SktypesError
from sktypes.limits import DEFAULT_LIMITS
from sktypes.openapi import spec_files

__all__ = ["LINK_FILE", "GenerationOptions", "Link", "read_link", "spec_inputs", "write_link"]

LINK_FILE = "sktypes.json"
"""The link record's file name inside a generated package."""


@dataclass(frozen=True, slots=True)
class GenerationOptions:
    """The options a package was generated with (what regenerating it needs)."""

    sync: bool = False
    validate: bool = True
    split: bool = False
    line_length: int = 100
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    ref_roots: tuple[str, ...] = ()  # relative to the package directory, POSIX separators

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``layout`` is ``"split"`` or ``"single"``)."""
        out: dict[str, Any] = {
            "layout": "split" if self.split else "single",
            "sync": self.sync,
            "validate": self.validate,
            "line_length": self.line_length,
            "include": list(self.include),
            "exclude": list(self.exclude),
        }
        if self.ref_roots:
            out["ref_roots"] = list(self.ref_roots)
        return out

    def ref_dirs(self, package: Path) -> list[Path]:
        """The recorded ``ref_roots``, resolved against the package directory."""
        return [resolved(package / r) for r in self.ref_roots]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str) -> GenerationOptions:
        """Read the JSON form back; :class:`GenerationError` naming ``where`` when malformed."""
        try:
            layout = data.get("layout", "single")
            if layout not in ("single", "split"):
                raise ValueError(f"layout {layout!r}")
            options = cls(
                sync=_bool(data.get("sync", False)),
                validate=_bool(data.get("validate", True)),
                split=layout == "split",
                line_length=int(data.get("line_length", 100)),
                include=tuple(str(p) for p in data.get("include", ())),
                exclude=tuple(str(p) for p in data.get("exclude", ())),
                ref_roots=tuple(str(p) for p in data.get("ref_roots", ())),
            )
        except (TypeError, ValueError) as exc:
            raise GenerationError(f"malformed options: {exc}", file=where) from None
        return options


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r} is not true or false")
    return value


@dataclass(frozen=True, slots=True)
class Link:
    """A package's link record, with paths resolved against the package directory."""

    package: Path
    name: str
    spec: Path
    inputs: dict[Path, str] = field(default_factory=dict)
    options: GenerationOptions = GenerationOptions()

    def changed_inputs(self) -> Iterator[tuple[Path, str]]:
        """Every input whose bytes differ from the record: ``(path, "changed"|"missing")``."""
        for path, digest in self.inputs.items():
            try:
                now = file_digest(path)
            except GenerationError:
                yield path, "missing"
                continue
            if now != digest:
                yield path, "changed"


def resolved(path: Path) -> Path:
    """``path`` with its symlinks resolved; a loop is left unresolved (made absolute).

    What a link record names is resolved this way: a symlink loop there is a finding of
    ``sktypes check`` (which ``lstat``-s each path before it reads it), not an exception.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop (RuntimeError before Python 3.13)
        return Path(os.path.abspath(path))


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, read by the one loader's reader.

    Only a regular file is read (a device or a FIFO is refused without being opened, so
    nothing blocks or grows without end), within :attr:`DocumentLimits.max_bytes`.

    Raises:
        GenerationError: the file cannot be read, or is refused (the message says why).
    """
    raw = read_file(path, str(path), DEFAULT_LIMITS, GenerationError, regular_only=True)
    return hashlib.sha256(raw).hexdigest()


def spec_inputs(spec: Path, *, ref_roots: Iterable[Path] = ()) -> list[Path]:
    """The spec and every local file its ``$ref``s reach, transitively (resolved paths).

    The files ``load_openapi`` admits (:func:`sktypes.openapi.spec_files`): remote
    references are not inputs, and a file outside the spec's directory (and ``ref_roots``),
    a device or an unreadable file is not read here either.
    """
    try:
        return spec_files(spec, ref_roots=ref_roots)
    except SktypesError:
        return [spec.resolve()]


def _relative(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


def relative_to_package(path: Path, package_dir: Path) -> str:
    """``path`` relative to the package directory (POSIX), as the link record holds paths."""
    return _relative(path.resolve(), package_dir.resolve())


def link_text(package_dir: Path, spec: Path, name: str, options: GenerationOptions) -> str:
    """The link record of a package about to be written at ``package_dir``."""
    base = package_dir.resolve()
    inputs = spec_inputs(spec, ref_roots=options.ref_dirs(base))
    record = {
        "spec": _relative(inputs[0], base),
        "inputs": {_relative(p, base): file_digest(p) for p in inputs},
        "name": name,
        "options": options.to_dict(),
    }
    return orjson.dumps(record, option=orjson.OPT_INDENT_2).decode() + "\n"


def write_link(
    package_dir: Path, spec: Path, name: str, options: GenerationOptions, into: Path
) -> None:
    """Write the link record of the package that will live at ``package_dir`` into ``into``."""
    (into / LINK_FILE).write_text(link_text(package_dir, spec, name, options), encoding="utf-8")


def read_link(package_dir: Path) -> Link | None:
    """The package's link record, or ``None`` when it has none.

    Raises:
        GenerationError: the record is not a regular file, not valid JSON (its line), or
            misses a field (names the file).
    """
    file = package_dir / LINK_FILE
    if not os.path.lexists(file):
        return None
    where = str(file)
    # the one loader: a regular file only (never a device or a FIFO), within the limits
    try:
        _, data = read_document(file, where, GenerationError, regular_only=True, strict_json=True)
    except GenerationError as exc:
        if not exc.message.startswith("invalid JSON: "):
            raise
        place = f" ({exc.where})" if exc.where else ""
        problem = f"not valid JSON: {exc.message.removeprefix('invalid JSON: ')}{place}"
        raise GenerationError(problem, file=where) from None
    try:
        base = package_dir.resolve()
        inputs = {resolved(base / str(k)): str(v) for k, v in dict(data["inputs"]).items()}
        return Link(
            package=package_dir,
            name=str(data["name"]),
            spec=resolved(base / str(data["spec"])),
            inputs=inputs,
            options=GenerationOptions.from_dict(data.get("options", {}), where),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GenerationError(
            f"not a link record: missing or malformed {exc}", file=where
        ) from None
