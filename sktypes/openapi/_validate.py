"""Spec validation with openapi-spec-validator, reported as one line with pointer and line.

The validator's own errors carry a path; the best one (``jsonschema.exceptions.best_match``,
the most specific) becomes an :class:`OpenApiError` naming the file, the JSON pointer and,
for text specs, the line. Anything else it raises (a ``referencing`` error, a recursion
error on a pathological document) is reported without a traceback as well.

The validator resolves ``$ref``s itself, through ``jsonschema-path`` handlers (by default:
``urllib`` for every scheme, no size limit, no timeout). It is given one handler for every
scheme, which serves the documents sktypes has already admitted (:mod:`._refs`) and refuses
any other URI: validation reads and fetches nothing.

The validator re-walks the ``allOf``/``anyOf``/``oneOf``/``items``/``not`` tree under every
``allOf`` member, through ``$ref``s, without remembering what it has seen: "diamonds"
(``S2: allOf [S1, S1]``, ``S3: allOf [S2, S2]``...) cost it 2^depth. That cost is computed
first, in linear time (:func:`validation_cost`), together with the other superlinear walk:
``jsonschema-path`` resolves a chain of ``$ref``s to ``$ref``s again at every access, so a
chain of n aliases costs n^2. A spec over :data:`MAX_VALIDATION_COST` is refused
(``validate=False`` loads it) instead of hanging. Real specs stay far below it (the 25 of
the corpus: at most ~600).
"""

from __future__ import annotations

import contextlib
import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any
from urllib.parse import urldefrag

from jsonschema.exceptions import ValidationError, best_match

from sktypes import _pointer
from sktypes.errors import OpenApiError, snippet
from sktypes.openapi._refs import Place, Refs, clean_ref
from sktypes.openapi._source import Document, line_of
from sktypes.openapi._validator import checks_ref_files, spec_validator, supports

__all__ = ["ref_files_not_checked", "validate_spec"]

_MESSAGE_LIMIT = 160
MAX_REPORTED = 50
"""Most validation problems listed one by one when they are reported as warnings."""
MAX_VALIDATION_COST = 25_000
"""Most schema visits the validator's ``allOf`` walk may need (~80 µs each)."""
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_SUBSCHEMA_ONE = ("items", "not")


def _path_options() -> dict[str, Any]:
    """The validator's own resolved-ref cache size (settings exist from version 0.8 on)."""
    try:
        from openapi_spec_validator.settings import OpenAPISpecValidatorSettings
    except ImportError:  # openapi-spec-validator 0.7 (e.g. next to semantic-kernel)
        return {}
    return {"resolved_cache_maxsize": OpenAPISpecValidatorSettings().resolved_cache_maxsize}


def _pointer_of(path: Iterable[Any]) -> str:
    return _pointer.join("", *path)


class _NotAdmitted(Exception):
    """The validator asked for a document sktypes did not admit."""


class _AdmittedOnly(Mapping[str, Any]):
    """``jsonschema-path`` handlers: every scheme maps to one reader of admitted documents.

    ``jsonschema-path`` falls back to ``urlopen`` for a scheme it has no handler for, so
    this mapping claims to have one for every scheme.
    """

    def __init__(self, refs: Refs) -> None:
        self._refs = refs

    def __contains__(self, scheme: object) -> bool:
        return True

    def __getitem__(self, scheme: str) -> Any:
        return self._read

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def _read(self, uri: str) -> Any:
        doc = self._refs.document(clean_ref(urldefrag(uri)[0]))
        if doc is None:
            raise _NotAdmitted(f"$ref to {uri!r} was not admitted")
        return doc.data


def validate_spec(
    doc: Document, version: int, refs: Refs, report: Callable[[str], None] | None = None
) -> None:
    """Validate ``doc`` as OpenAPI ``version`` (2, 30, 31 or 32); raise on the first error.

    ``refs`` holds the admitted documents (:meth:`Refs.admit_all` has run); the validator
    resolves ``$ref``s among them only.

    With ``report``, nothing is raised: every problem the validator finds (at most
    :data:`MAX_REPORTED`, then a count of the rest) is passed to it as one line,
    ``<pointer> (line N): <message>``, the form of ``OpenApiPlugin.warnings``.

    OpenAPI 3.2: openapi-spec-validator checks the document against the 3.2 schema but
    not what an ``itemSchema`` holds (only that it is an object or a boolean), and not the
    ``query``/``additionalOperations`` operations beyond the schema. sktypes checks every
    ``itemSchema`` against JSON Schema 2020-12's metaschema first (its ``$ref``s are
    resolved, and checked, when the operation is loaded, as ``schema``'s are). With a
    validator that has no 3.2 support (0.7), only those structural checks are made.
    """
    from jsonschema_path import SchemaPath

    if version == 32:
        check_item_schemas(doc, report)
        if not supports(32):  # pragma: no cover - openapi-spec-validator 0.7
            return

    cost = validation_cost(refs)
    if cost > MAX_VALIDATION_COST:
        error = OpenApiError(
            f"too costly to validate: openapi-spec-validator would walk over {cost} schemas "
            f"(the limit is {MAX_VALIDATION_COST}; allOf diamonds or long $ref chains); "
            "load it with validate=False",
            file=doc.display,
        )
        if report is None:
            raise error
        report(f"/: not validated: {error.message}")
        return
    cls = spec_validator(version)
    try:
        spec = SchemaPath.from_dict(
            doc.data, base_uri=refs.root_uri, handlers=_AdmittedOnly(refs), **_path_options()
        )
        errors = cls(spec).iter_errors()
        first = next(errors, None)  # a valid spec costs one pass, as the validator alone
        if report is not None:
            _report_all(doc, refs, first, errors, report)
            return
    except RecursionError:
        message = "the validator gave up: spec nested too deeply"
        if report is not None:
            report(f"/: not validated: {message}")
            return
        raise OpenApiError(message, file=doc.display) from None
    except Exception as exc:  # the validator leaks referencing/IO errors: report, don't crash
        broken = refs.first_unresolvable()  # name the $ref and its place, not the validator's
        if broken is not None:
            if report is not None:
                report(f"{broken.where or '/'}: {broken.message}")
                return
            raise broken from None
        refused = _cause(exc, _NotAdmitted)
        message = (
            f"the spec does not validate: {refused}"
            if refused is not None
            else f"the spec does not validate: {type(exc).__name__}: {snippet(str(exc), 120)}"
        )
        if report is not None:
            report(f"/: {message}")
            return
        raise OpenApiError(message, file=doc.display) from None
    if first is None:
        return
    best = first
    # the most specific part of the first error (looking for more errors would cost another
    # pass of the validator); best_match may trip on the validator's errors: keep the first
    with contextlib.suppress(Exception):
        best = best_match([first]) or first
    _raise(doc, refs, best)


def ref_files_not_checked(refs: Refs) -> str | None:
    """The warning line for ``$ref``'d files whose schemas the validator does not check.

    ``None`` when it checks them (openapi-spec-validator 0.8.1 and later) or there are none.
    """
    checked, installed = checks_ref_files()
    others = [doc.display for uri, doc in refs.documents() if uri != refs.root_uri]
    if checked or not others:
        return None
    shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
    return (
        f"/: the schemas in $ref'd files ({shown}) were not validated: openapi-spec-validator "
        f"{installed} does not check them (0.8.1 and later do)"
    )


def check_item_schemas(doc: Document, report: Callable[[str], None] | None = None) -> None:
    """Every OpenAPI 3.2 ``itemSchema`` must be a JSON Schema (2020-12's metaschema).

    The first that is not raises; with ``report``, each is reported instead.
    """
    from jsonschema import Draft202012Validator

    meta = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    for pointer, schema in _item_schemas(doc.data):
        error = best_match(meta.iter_errors(schema))
        if error is None:
            continue
        inner = _pointer.join(pointer, *error.absolute_path)
        line = line_of(doc.raw(), inner)
        where = f"{inner} (line {line})" if line is not None else inner
        message = (
            f"not a valid OpenAPI document: itemSchema: {snippet(error.message, _MESSAGE_LIMIT)}"
        )
        if report is not None:
            report(f"{where}: {message}")
            continue
        raise OpenApiError(message, file=doc.display, where=inner)  # load adds line:column


def _item_schemas(data: Any) -> Iterator[tuple[str, Any]]:
    """``(pointer, itemSchema)`` of every media type object under a ``content`` map."""
    stack: list[tuple[str, Any, str]] = [("", data, "")]
    while stack:
        pointer, node, parent = stack.pop()
        if isinstance(node, Mapping):
            if parent == "content":
                for media, value in node.items():
                    if isinstance(value, Mapping) and "itemSchema" in value:
                        yield _pointer.join(pointer, str(media), "itemSchema"), value["itemSchema"]
            stack.extend((_pointer.join(pointer, str(k)), v, str(k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((_pointer.join(pointer, i), v, "") for i, v in enumerate(node))


def _cause(exc: BaseException, kind: type[BaseException]) -> BaseException | None:
    """``exc`` or the first exception of ``kind`` it was raised from (``referencing`` wraps)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, kind):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _where(doc: Document, refs: Refs, error: ValidationError) -> str:
    """``<pointer> (line N)``, or ``<file>#<pointer> (line N)`` in a ``$ref``'d file.

    The file is named from the spec's folder (the line is recorded with the verdict, which
    any working directory may read back: :func:`sktypes.openapi._load` names it from there).
    """
    found, pointer = _place(doc, refs, error)
    line = line_of(found.raw(), pointer)
    where = pointer
    if found is not doc:
        other = found.display
        if "://" not in other:
            other = posixpath.relpath(other, posixpath.dirname(doc.display) or ".")
        where = f"{other}#{pointer}"
    return f"{where} (line {line})" if line is not None else where


_SEARCHED = 2_000_000
"""A spec's own text is searched for a misplaced error's value only up to this size (each
search walks the whole document; ``$ref``'d files, usually small, are searched first)."""


def _place(doc: Document, refs: Refs, error: ValidationError) -> tuple[Document, str]:
    """The document and pointer of the value an error is about.

    openapi-spec-validator checks a schema reached through a ``$ref`` on its own: the path
    of an error inside it starts at that schema (``/properties/n/type``), not at the spec's
    root. Where the spec has no such value there, the ``$ref``'d documents, then the spec
    (up to :data:`_SEARCHED` bytes), are searched for the node from which that path leads
    to the very value (the first, in document order).
    """
    tokens = list(error.absolute_path)
    pointer = _pointer_of(tokens) or "/"
    if not tokens or _leads_to(doc.data, tokens, error.instance):
        return doc, pointer
    others = [d for _, d in refs.documents() if d is not doc]
    raw = doc.raw()
    if raw is not None and len(raw) <= _SEARCHED:
        others.append(doc)
    for found in others:
        at = _search(found.data, tokens, error.instance)
        if at is not None:
            return found, _pointer_of([*at, *tokens]) or "/"
    return doc, pointer


def _search(data: Any, tokens: list[Any], instance: Any) -> list[Any] | None:
    """The path (in document order, the first) of a node ``tokens`` lead from to ``instance``."""
    stack: list[tuple[Any, list[Any]]] = [(data, [])]
    while stack:
        node, at = stack.pop()
        if _leads_to(node, tokens, instance):
            return at
        if isinstance(node, Mapping):
            items: Iterable[tuple[Any, Any]] = node.items()
        elif isinstance(node, list):
            items = enumerate(node)
        else:
            continue
        children = [(v, [*at, k]) for k, v in items if isinstance(v, (Mapping, list))]
        stack.extend(reversed(children))
    return None


def _leads_to(node: Any, tokens: list[Any], instance: Any) -> bool:
    for token in tokens:
        in_list = isinstance(node, list) and isinstance(token, int) and 0 <= token < len(node)
        if not (in_list or (isinstance(node, Mapping) and token in node)):
            return False
        node = node[token]
    if isinstance(node, (Mapping, list)):
        return node is instance or node == instance
    return type(node) is type(instance) and node == instance


def _message(error: ValidationError) -> str:
    return f"not a valid OpenAPI document: {snippet(error.message, _MESSAGE_LIMIT)}"


def _raise(doc: Document, refs: Refs, error: ValidationError) -> None:
    """The error at its pointer; ``load_document`` adds the pointer's line and column."""
    found, pointer = _place(doc, refs, error)
    raise OpenApiError(_message(error), file=found.display, where=pointer)


def _report_all(
    doc: Document,
    refs: Refs,
    first: ValidationError | None,
    rest: Iterator[ValidationError],
    report: Callable[[str], None],
) -> None:
    """Pass every problem to ``report`` (the most specific part of each), in spec order."""
    count = 0
    error = first
    while error is not None:
        count += 1
        if count <= MAX_REPORTED:
            best = error
            with contextlib.suppress(Exception):
                best = best_match([error]) or error
            report(f"{_where(doc, refs, best)}: {_message(best)}")
        error = next(rest, None)
    if count > MAX_REPORTED:
        report(f"/: {count - MAX_REPORTED} more validation problems not listed")


def validation_cost(refs: Refs) -> int:
    """The validator's superlinear work, computed in linear time without recursion.

    The ``allOf`` walk's cost for one member is the size of the tree below it (``allOf``,
    ``anyOf``, ``oneOf``, ``items``, ``not``; ``$ref``s followed); each distinct schema's size
    is computed once (a part reached twice counts twice, as in the walk). A cycle counts its
    schemas once: the walk would recurse until Python stops it, which is reported anyway.
    A ``$ref`` whose target is itself a ``$ref`` adds the chain's extra hops.
    """
    sizes: dict[int, int] = {}
    hops: dict[str, int] = {}
    total = 0
    for uri, doc in refs.documents():
        stack: list[Any] = [doc.data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                ref = node.get("$ref")
                if isinstance(ref, str):
                    total += _extra_hops(ref, uri, refs, hops)
                members = node.get("allOf")
                if isinstance(members, list):
                    for member in members:
                        total += _tree_size(member, uri, refs, sizes)
                        if total > MAX_VALIDATION_COST:
                            return total
                stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
            elif isinstance(node, list):
                stack.extend(v for v in node if isinstance(v, (dict, list)))
    return total


def _extra_hops(ref: str, base: str, refs: Refs, hops: dict[str, int]) -> int:
    """How many ``$ref``s follow the first one on the chain that starts at ``ref``."""
    chain: list[str] = []
    node: Any = {"$ref": ref}
    end = 0
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        try:
            node, target = refs.lookup(node["$ref"], Place(base, ""), admit=False)
        except OpenApiError:
            break
        if target in hops:
            end = hops[target] + 1
            break
        if target in chain:
            break
        chain.append(target)
        base = urldefrag(target)[0]
    for target in reversed(chain):  # each link: the hops after it
        hops[target] = end
        end += 1
    return max(end - 1, 0)


def _resolved(node: Any, base: str, refs: Refs) -> tuple[Any, str]:
    seen: set[str] = set()
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        try:
            node, target = refs.lookup(node["$ref"], Place(base, ""), admit=False)
        except OpenApiError:
            return None, base
        if target in seen:
            return None, base
        seen.add(target)
        base = urldefrag(target)[0]
    return node, base


def _children(node: dict[str, Any], base: str) -> list[tuple[Any, str]]:
    out: list[tuple[Any, str]] = []
    for key in _SUBSCHEMA_LISTS:
        value = node.get(key)
        if isinstance(value, list):
            out.extend((v, base) for v in value)
    for key in _SUBSCHEMA_ONE:
        value = node.get(key)
        if isinstance(value, dict):
            out.append((value, base))
    return out


def _tree_size(root: Any, base: str, refs: Refs, sizes: dict[int, int]) -> int:
    """The size of the subschema tree under ``root`` (memoized per resolved schema)."""
    node, base = _resolved(root, base, refs)
    if not isinstance(node, dict):
        return 1
    if id(node) in sizes:
        return sizes[id(node)]
    sizes[id(node)] = 1  # a cycle back to this schema counts it once
    # frames: [schema, children left, size so far]
    stack: list[list[Any]] = [[node, _children(node, base), 1]]
    while stack:
        frame = stack[-1]
        if not frame[1]:
            stack.pop()
            sizes[id(frame[0])] = frame[2]
            if stack:
                stack[-1][2] += frame[2]
            continue
        child, child_base = frame[1].pop()
        child, child_base = _resolved(child, child_base, refs)
        if not isinstance(child, dict):
            frame[2] += 1
        elif id(child) in sizes:
            frame[2] += sizes[id(child)]
        else:
            sizes[id(child)] = 1
            stack.append([child, _children(child, child_base), 1])
        if frame[2] > MAX_VALIDATION_COST:
            return int(frame[2])
    return sizes[id(node)]
