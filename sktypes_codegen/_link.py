"""The recorded link from a generated package to its spec and options (``sktypes.json``).

``generate_plugin`` writes ``OUT/<name>/sktypes.json``::

    {
      "spec": "../../api/v1/openapi.yaml",
      "inputs": {"../../api/v1/openapi.yaml": "<sha256>", "../../api/v1/pet.yaml": "<sha256>"},
      "name": "petstore_v1",
      "options": {"layout": "single", "sync": false, "validate": true, "line_length": 88,
                  "include": [], "exclude": []},
      "generator": "sktypes 0.1.0 (code 3f1e...)",
      "files": {"__init__.py": "<sha256>", "models.py": "<sha256>", ...},
      "validation": {"digest": "<sha256>", "validator": "openapi-spec-validator 0.8.5",
                     "valid": true}
    }

Paths are relative to the package directory (POSIX separators), so the record stays true
when the repository moves. ``inputs`` holds the spec and every local file its ``$ref``s reach,
transitively, each with the SHA-256 of its bytes: ``sktypes check`` pairs a changed file with
every package generated from it, names the file that changed, and regenerates with the
recorded options to find hand edits. No timestamps: generating twice gives the same bytes.

``generator`` names the generator that wrote ``files`` (sktypes' version and a digest of its
code), with the SHA-256 of each file it wrote: while the inputs are unchanged and the same
generator runs, a fresh generation would write exactly those bytes, so ``sktypes check``
compares digests instead of generating again (another generator regenerates and compares,
as without them). ``validation`` is openapi-spec-validator's verdict on the inputs
(:mod:`sktypes.openapi._verdicts`): a spec whose digest it names is not validated again.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from sktypes._documents import read_document, read_file
from sktypes.errors import GenerationError, SktypesError
from sktypes.limits import DEFAULT_LIMITS

if TYPE_CHECKING:
    from sktypes.openapi._verdicts import Verdict

__all__ = [
    "LINK_FILE",
    "GenerationOptions",
    "Link",
    "generator_identity",
    "read_link",
    "spec_inputs",
    "write_link",
]

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
    generator: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    validation_record: Any = None

    @property
    def validation(self) -> Verdict | None:
        """The spec's recorded validation verdict (read when asked: it needs the loader)."""
        return _verdict(self.validation_record)

    def recorded_output(self) -> bool:
        """Whether the recorded ``files`` are what a fresh generation gives now.

        That is when the record lists them and the generator that wrote them is the one
        running (and, as the caller checks first, the inputs are unchanged).
        """
        return bool(self.files) and self.generator == generator_identity()

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


@functools.cache
def generator_identity() -> str:
    """Sktypes' version and a digest of the code that generates (``sktypes``, its codegen)."""
    h = hashlib.sha256()
    codegen = Path(__file__).resolve().parent  # found without importing either package
    for top in (codegen.parent / "sktypes", codegen):
        for path in sorted(top.rglob("*")):
            if path.suffix in (".py", ".jinja", ".json") and "__pycache__" not in path.parts:
                h.update(path.relative_to(top).as_posix().encode() + b"\0")
                h.update(path.read_bytes())
    try:
        version = metadata.version("sktypes")
    except metadata.PackageNotFoundError:  # pragma: no cover - run from a source tree
        version = "unknown"
    return f"sktypes {version} (code {h.hexdigest()[:16]})"


def spec_inputs(spec: Path, *, ref_roots: Iterable[Path] = ()) -> list[Path]:
    """The spec and every local file its ``$ref``s reach, transitively (resolved paths).

    The files ``load_openapi`` admits (:func:`sktypes.openapi.spec_files`): remote
    references are not inputs, and a file outside the spec's directory (and ``ref_roots``),
    a device or an unreadable file is not read here either.
    """
    from sktypes.openapi import spec_files

    try:
        return spec_files(spec, ref_roots=ref_roots)
    except SktypesError:
        return [spec.resolve()]


def _relative(path: Path, base: Path) -> str:
    return Path(os.path.relpath(path, base)).as_posix()


def relative_to_package(path: Path, package_dir: Path) -> str:
    """``path`` relative to the package directory (POSIX), as the link record holds paths."""
    return _relative(path.resolve(), package_dir.resolve())


def link_text(
    package_dir: Path,
    spec: Path,
    name: str,
    options: GenerationOptions,
    *,
    files: Mapping[str, str] | None = None,
    validation: Verdict | None = None,
) -> str:
    """The link record of a package about to be written at ``package_dir``.

    ``files`` (path → content) are the generated files, recorded by digest with the
    generator; ``validation`` is the spec's verdict (recorded when it is "valid").
    """
    base = package_dir.resolve()
    inputs = spec_inputs(spec, ref_roots=options.ref_dirs(base))
    record: dict[str, Any] = {
        "spec": _relative(inputs[0], base),
        "inputs": {_relative(p, base): file_digest(p) for p in inputs},
        "name": name,
        "options": options.to_dict(),
    }
    if files is not None:
        record["generator"] = generator_identity()
        record["files"] = {
            f: hashlib.sha256(files[f].encode("utf-8")).hexdigest() for f in sorted(files)
        }
    if validation is not None and validation.valid and validation.key:
        record["validation"] = validation.to_dict()
    return orjson.dumps(record, option=orjson.OPT_INDENT_2).decode() + "\n"


def write_link(
    package_dir: Path,
    spec: Path,
    name: str,
    options: GenerationOptions,
    into: Path,
    *,
    files: Mapping[str, str] | None = None,
    validation: Verdict | None = None,
) -> None:
    """Write the link record of the package that will live at ``package_dir`` into ``into``."""
    text = link_text(package_dir, spec, name, options, files=files, validation=validation)
    (into / LINK_FILE).write_text(text, encoding="utf-8")


def _verdict(value: Any) -> Verdict | None:
    if value is None:
        return None
    from sktypes.openapi._verdicts import Verdict

    return Verdict.from_dict(value)


def _digests(value: Any) -> dict[str, str]:
    """The recorded ``files`` (empty when absent or malformed: the check regenerates)."""
    if not isinstance(value, dict):
        return {}
    out = {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}
    if len(out) != len(value) or any(".." in Path(k).parts or Path(k).is_absolute() for k in out):
        return {}
    return out


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
            generator=data.get("generator") if isinstance(data.get("generator"), str) else None,
            files=_digests(data.get("files")),
            validation_record=data.get("validation"),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise GenerationError(
            f"not a link record: missing or malformed {exc}", file=where
        ) from None
