"""Check a plan against function views before running it.

Every step must call a known function with its required arguments and no unknown ones;
literals must validate; references must point at an existing step, through a path its
return schema declares, to a value the target parameter accepts (JSON Schema
subsumption). An ``unknown`` compatibility is a warning, everything else an error.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import orjson
from jsonschema import Draft202012Validator

from sktypes.plan._jsonpath import (
    PathError,
    Segment,
    node_member_names,
    render_path,
    resolve_node,
)
from sktypes.plan._model import Plan, PlanIssue, PlanStep, Reference
from sktypes.plan._subsume import node_compatibility
from sktypes.plan._verdict import (
    FORMAT_CHECKER,
    MISSING,
    Compatibility,
    Verdict,
    show,
    unknown,
)
from sktypes.plan._witness import embed
from sktypes.schema import AnyNode, Node, SchemaModel, parse
from sktypes.validate import json_path
from sktypes.views import FunctionView, ParameterView

__all__ = ["check_plan", "dependency_cycles"]

_SUGGEST_DEPTH = 3
_SUGGEST_NODES = 64
_SUGGEST_BUDGET = 2_000  # per candidate path: suggestions must stay cheap


def check_plan(
    plan: Plan, views: Iterable[FunctionView], *, optional_paths: bool = False
) -> list[PlanIssue]:
    """Return every problem of ``plan`` against ``views`` (empty when there is none).

    Args:
        plan: the plan to check.
        views: the functions it may call, found by ``Plugin.Function``.
        optional_paths: also warn about a path through a member the output does not
            promise (not ``required``, or nullable). Off by default: OpenAPI schemas often
            leave ``required`` out, the ADR's own manual included.

    Returns:
        Errors (unknown function or step, missing or unknown argument, a path the output
        does not declare, a literal or reference the parameter rejects, a dependency cycle)
        and warnings (a reference whose compatibility cannot be decided), in plan order.
    """
    by_name: dict[str, FunctionView] = {}
    for v in views:
        by_name.setdefault(v.fully_qualified_name, v)
    steps = {s.id: s for s in plan.steps}
    issues: list[PlanIssue] = []
    for step in plan.steps:
        view = by_name.get(step.function)
        if view is None:
            fix = _closest(step.function, by_name)
            issues.append(PlanIssue(step.id, None, f"unknown function {step.function!r}", fix))
        issues.extend(_step_issues(step, view, steps, by_name, optional_paths))
    for cycle in dependency_cycles(plan):
        chain = " -> ".join(repr(s) for s in [*cycle, cycle[0]])
        issues.append(PlanIssue(cycle[0], None, f"steps depend on each other: {chain}"))
    if plan.output is not None:
        issues.extend(_output_issues(plan.output, steps, by_name))
    return issues


def _closest(name: str, names: Iterable[str]) -> str | None:
    match = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
    return f"did you mean {match[0]!r}?" if match else None


def _step_issues(
    step: PlanStep,
    view: FunctionView | None,
    steps: Mapping[str, PlanStep],
    by_name: Mapping[str, FunctionView],
    optional_paths: bool,
) -> Iterator[PlanIssue]:
    params = {p.name: p for p in view.parameters} if view is not None else {}
    for name, arg in step.arguments.items():
        if isinstance(arg, Reference):
            source = steps.get(arg.from_)
            if source is None:
                fix = _closest(arg.from_, steps)
                yield PlanIssue(step.id, name, f"no step {arg.from_!r} to take a value from", fix)
                continue
            if source.id == step.id:
                yield PlanIssue(step.id, name, "a step cannot use its own output")
                continue
        if view is None:
            continue
        param = params.get(name)
        if param is None:
            if not view.accepts_extra:
                yield PlanIssue(
                    step.id,
                    name,
                    f"{view.fully_qualified_name} has no parameter {name!r}",
                    _closest(name, params) or f"its parameters: {', '.join(params) or 'none'}",
                )
            continue
        if isinstance(arg, Reference):
            source_view = by_name.get(steps[arg.from_].function)
            if source_view is not None:  # else reported on the source step
                yield from _reference_issues(step.id, name, arg, param, source_view)
                if optional_paths:
                    yield from _optional_path_issues(step.id, name, arg, source_view)
        else:
            yield from _literal_issues(step.id, name, arg, param)
    if view is not None:
        for p in view.parameters:
            if p.is_required and p.name not in step.arguments:
                kind = f" ({p.type.value})" if p.type is not None else ""
                yield PlanIssue(
                    step.id,
                    p.name,
                    f"missing required argument {p.name!r}{kind}",
                    f"add {p.name!r} to the step's arguments",
                )


def _literal_issues(
    step_id: str, name: str, value: Any, param: ParameterView
) -> Iterator[PlanIssue]:
    if param.schema is None:
        return
    validator = Draft202012Validator(param.schema.to_python(), format_checker=FORMAT_CHECKER)
    for error in sorted(validator.iter_errors(value), key=lambda e: json_path(e.absolute_path)):
        at = json_path(error.absolute_path)
        where = "" if at == "$" else f" at {at}"
        yield PlanIssue(step_id, name, f"{show(value)} is not valid{where}: {error.message}")


def _reference_issues(
    step_id: str,
    name: str,
    ref: Reference,
    param: ParameterView,
    source_view: FunctionView,
) -> Iterator[PlanIssue]:
    output = source_view.return_parameter.schema
    place = f"`{ref.path}` of" if ref.path and ref.path != "$" else "the output of"
    described = f"{place} step {ref.from_!r} ({source_view.fully_qualified_name})"
    if output is None:
        yield PlanIssue(step_id, name, f"step {ref.from_!r} returns nothing to use")
        return
    root = parse(output)
    target = parse(param.schema if param.schema is not None else True)
    try:
        resolved = resolve_node(root, root.root, ref.segments)
    except PathError as exc:
        suggestions = _suggest(root, (), target, name)
        yield PlanIssue(
            step_id,
            name,
            f"{ref.path} is not in the output of step {ref.from_!r}"
            f" ({source_view.fully_qualified_name}): at {exc.where}: {exc.message}",
            _fix(ref.from_, suggestions) or _path_fix(root, ref.segments),
        )
        return
    if _untyped(resolved.node) and not _untyped(target.root):
        yield PlanIssue(
            step_id,
            name,
            f"cannot prove that {described} fits parameter {name!r}: its schema says nothing",
            severity="warning",
        )
        return
    verdict = _checked(
        node_compatibility(resolved.node, root, target.root, target), root, ref.segments
    )
    if verdict.verdict is Verdict.COMPATIBLE:
        return
    suggestions = _suggest(root, ref.segments, target, name)
    if verdict.verdict is Verdict.INCOMPATIBLE:
        yield PlanIssue(
            step_id,
            name,
            f"{described} does not fit parameter {name!r}: {verdict.reason}"
            f" (e.g. {show(verdict.witness)})",
            _fix(ref.from_, suggestions),
        )
    else:
        yield PlanIssue(
            step_id,
            name,
            f"cannot prove that {described} fits parameter {name!r}: {verdict.reason}",
            _fix(ref.from_, suggestions),
            severity="warning",
        )


def _optional_path_issues(
    step_id: str, name: str, ref: Reference, source_view: FunctionView
) -> Iterator[PlanIssue]:
    output = source_view.return_parameter.schema
    if output is None or not ref.segments:
        return
    root = parse(output)
    try:
        resolved = resolve_node(root, root.root, ref.segments)
    except PathError:
        return  # reported as a path that does not exist
    if resolved.optional:
        yield PlanIssue(
            step_id,
            name,
            f"`{ref.path}` may be missing from the output of step {ref.from_!r}"
            f" ({source_view.fully_qualified_name}): a member on the way is not required"
            " or may be null",
            severity="warning",
        )


def _untyped(node: Node) -> bool:
    return isinstance(node, AnyNode)


def _checked(
    verdict: Compatibility, root: SchemaModel, segments: Sequence[Segment]
) -> Compatibility:
    """Keep an ``incompatible`` verdict only if its witness fits in a whole output value.

    The schema a path selects can admit values no whole output holds (a member whose
    siblings constrain it); placing the witness in an output and validating settles it.
    """
    if verdict.verdict is not Verdict.INCOMPATIBLE or not segments:
        return verdict
    whole = embed(root.root, segments, verdict.witness)
    validator = Draft202012Validator(root.document.to_python(), format_checker=FORMAT_CHECKER)
    try:
        fits = whole is not MISSING and validator.is_valid(whole)
    except Exception:  # a schema the validator cannot use
        fits = False
    return verdict if fits else unknown(verdict.reason)


def _suggest(
    root: SchemaModel, start: Sequence[Segment], target: SchemaModel, name: str
) -> list[str]:
    """Paths under ``start`` whose values the target accepts (the argument's name first)."""
    found: list[tuple[Segment, ...]] = []
    queue: list[tuple[Segment, ...]] = [tuple(start)]
    visited = 0
    while queue and visited < _SUGGEST_NODES:
        path = queue.pop(0)
        visited += 1
        try:
            node = resolve_node(root, root.root, path).node
        except PathError:
            continue
        if path != tuple(start):
            c = node_compatibility(node, root, target.root, target, budget=_SUGGEST_BUDGET)
            if c.compatible:
                found.append(path)
                continue
        if len(path) - len(start) < _SUGGEST_DEPTH:
            queue.extend((*path, member) for member in node_member_names(node))
    found.sort(key=lambda p: (p[-1] != name, len(p)))
    return [render_path(p) for p in found[:3]]


def _fix(source: str, paths: Sequence[str]) -> str | None:
    if not paths:
        return None
    first = orjson.dumps({"$from": source, "path": paths[0]}).decode()
    more = "".join(f" or `{p}`" for p in paths[1:])
    return f"use `{paths[0]}`{more}: {first}"


def _output_issues(
    ref: Reference, steps: Mapping[str, PlanStep], by_name: Mapping[str, FunctionView]
) -> Iterator[PlanIssue]:
    source = steps.get(ref.from_)
    if source is None:
        yield PlanIssue(
            None, None, f"no step {ref.from_!r} to take the output from", _closest(ref.from_, steps)
        )
        return
    view = by_name.get(source.function)
    if view is None or not ref.segments:
        return
    if view.return_parameter.schema is None:
        yield PlanIssue(None, None, f"step {ref.from_!r} returns nothing to use")
        return
    root = parse(view.return_parameter.schema)
    try:
        resolve_node(root, root.root, ref.segments)
    except PathError as exc:
        yield PlanIssue(
            None,
            None,
            f"{ref.path} is not in the output of step {ref.from_!r}"
            f" ({view.fully_qualified_name}): at {exc.where}: {exc.message}",
            _path_fix(root, ref.segments),
        )


def _path_fix(root: SchemaModel, segments: Sequence[Segment]) -> str | None:
    """``did you mean `$.degreesFahrenheit`?`` for the first member that does not exist."""
    for i, seg in enumerate(segments):
        try:
            resolve_node(root, root.root, segments[: i + 1])
        except PathError:
            if not isinstance(seg, str):
                return None
            parent = resolve_node(root, root.root, segments[:i]).node
            names = node_member_names(parent)
            match = difflib.get_close_matches(seg, names, n=1, cutoff=0.5)
            return f"did you mean `{render_path((*segments[:i], match[0]))}`?" if match else None
    return None


MAX_CYCLES = 20
"""At most this many dependency cycles are reported (a plan has one to fix first)."""


def dependency_cycles(plan: Plan) -> list[list[str]]:
    """Groups of steps whose references go round in a circle (each cycle once).

    A depth-first walk from each step in plan order, without recursion: a plan with
    thousands of steps in one circle is reported like a small one. At most
    :data:`MAX_CYCLES` cycles are returned.
    """
    ids = {s.id for s in plan.steps}
    edges = {
        s.id: [r.from_ for _, r in s.references() if r.from_ in ids and r.from_ != s.id]
        for s in plan.steps
    }
    cycles: list[list[str]] = []
    seen_cycles: set[frozenset[str]] = set()
    done: set[str] = set()
    for start in plan.steps:
        if start.id in done:
            continue
        trail: list[str] = [start.id]
        position = {start.id: 0}
        stack = [iter(edges[start.id])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                node = trail.pop()
                del position[node]
                done.add(node)
                continue
            if nxt in position:
                cycle = trail[position[nxt] :]
                key = frozenset(cycle)
                if key not in seen_cycles and len(cycles) < MAX_CYCLES:
                    seen_cycles.add(key)
                    cycles.append(cycle)
                continue
            if nxt in done:
                continue
            position[nxt] = len(trail)
            trail.append(nxt)
            stack.append(iter(edges[nxt]))
    return cycles
