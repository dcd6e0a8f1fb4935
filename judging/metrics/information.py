"""Information Grounding IG (eq. 5): how much of the information the case requires the trajectory observed.

The paper writes IG = (1/|o|) Σ_o 1[o ∈ τ*], summing over the observations o of the trajectory
but normalising by |o|. Read literally that is precision: an agent that calls one tool whose
result happens to be required scores 1 without ever looking at the rest, and every extra
exploratory call lowers IG, which is Tool Efficiency's job. The text says IG "measures whether
the intermediate information covers the required information", which is recall, so we
normalise by the required evidence E instead:

    IG = |{e ∈ E : e observed in τ}| / |E|

E is built from the case:
- each required attribute {place_id, key}: observed when a tool result holds a record with that
  place_id and that field ("tag:<text>" names the field "tag"). place_detail returns every
  field; searches return place_id, name, place_type, rating and cost.
- each required note_id: observed when a record with that note_id also carries the note's
  "desc" (note_detail does); a title in a search_notes list is not reading the note.
- each place_id of the reference answer: observed when any tool result contains it.
- for routing and trip cases, each consecutive leg (a, b) of the reference visit order: observed
  when a routing result goes from a to b with the case's vehicle and mode.
Failed calls observe nothing; submit_answer is not an observation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from judging.answers import PredictedAnswer
from judging.types import CaseSpec, MetricResult, Trajectory
from kernel.vocabulary import ROUTE_CATEGORIES

from .common import ratio_text, reference_of
from .registry import metric


@metric("IG", kind="process")
def information_grounding(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world=None
) -> MetricResult:
    """Information Grounding (eq. 5, normalised by the required evidence): IG = |observed ∩ E| / |E|."""
    required = required_evidence(case)
    if not required:
        return MetricResult("IG", None, "the case requires no evidence", {"required": []})
    records = list(_observed_records(trajectory))
    observed = [label for label, test in required if test(records)]
    missed = [label for label, _ in required if label not in observed]
    value = len(observed) / len(required)
    details = {"required": [label for label, _ in required], "observed": observed, "missed": missed}
    text = f"observed {len(observed)} of {len(required)} required pieces of evidence: IG = {ratio_text(value)}"
    if trajectory is None or not trajectory.steps:
        text = f"no tool was called, so none of the {len(required)} required pieces of evidence was observed"
    elif missed:
        text += f"; missed {', '.join(missed)}"
    return MetricResult("IG", value, text, details)


def required_evidence(case: CaseSpec) -> list[tuple[str, Any]]:
    """E as (label, test) pairs; a test takes the observed records and says whether the item was seen."""
    evidence = case.required_evidence or {}
    items: list[tuple[str, Any]] = []
    for attribute in evidence.get("attributes") or []:
        place_id, key = str(attribute.get("place_id", "")), str(attribute.get("key", ""))
        field = key.split(":", 1)[0]
        items.append((f"attribute {place_id}.{key}", _has_field(place_id, field)))
    for note_id in evidence.get("note_ids") or []:
        items.append((f"note {note_id}", _read_note(str(note_id))))
    reference = reference_of(case)
    for place_id in reference.place_ids:
        items.append((f"place {place_id}", _mentions(place_id)))
    if case.category in ROUTE_CATEGORIES:
        vehicle = case.constraints.get("vehicle") or reference.vehicle
        mode = case.constraints.get("mode") or reference.mode
        for a, b in zip(reference.visit_order, reference.visit_order[1:]):
            items.append((f"leg {a} -> {b} ({vehicle}, {mode})", _routed(a, b, vehicle, mode)))
    return _unique(items)


def _unique(items: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    seen: dict[str, Any] = {}
    for label, test in items:
        seen.setdefault(label, test)
    return list(seen.items())


def _has_field(place_id: str, field: str):
    return lambda records: any(r.get("place_id") == place_id and field in r for r in records)


def _read_note(note_id: str):
    return lambda records: any(r.get("note_id") == note_id and "desc" in r for r in records)


def _mentions(place_id: str):
    return lambda records: any(place_id in r.values() for r in records)


def _routed(a: str, b: str, vehicle: str | None, mode: str | None):
    def test(records: list[dict]) -> bool:
        return any(
            _place_id(r.get("start")) == a
            and _place_id(r.get("end")) == b
            and (vehicle is None or r.get("vehicle") == vehicle)
            and (mode is None or r.get("mode") == mode)
            for r in records
        )

    return test


def _place_id(value: Any) -> Any:
    return value.get("place_id") if isinstance(value, dict) else value


def _observed_records(trajectory: Trajectory | None) -> Iterator[dict]:
    """Every dict inside the successful tool results of the trajectory (submit_answer excluded)."""
    for step in trajectory.steps if trajectory else []:
        observation = step.observation
        if isinstance(observation, str):
            try:
                observation = json.loads(observation)
            except json.JSONDecodeError:
                continue
        failed = step.error_kind or (isinstance(observation, dict) and "error" in observation)
        if step.tool == "submit_answer" or failed:
            continue
        yield from _dicts(observation)


def _dicts(value: Any) -> Iterator[dict]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _dicts(item)
