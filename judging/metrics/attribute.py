"""Attribute Accuracy A (eq. 1): 1 when every explicit attribute requirement of the query holds, else 0.

Place Perception asks for one value, so A compares the direct value with the reference value.
The other categories ask for places with explicit requirements; A checks the predicted target
places (the answer place for Nearby Discovery, the waypoints for Routing and Trip Design)
against them through the World, plus the vehicle and mode. Implicit facts, time windows and
visit-order rules are Semantic Constraint's business, not A's.
"""

from __future__ import annotations

from judging.answers import PredictedAnswer, to_float
from judging.rules import type_matches
from judging.types import CaseSpec, MetricResult, Trajectory
from kernel.vocabulary import ROUTE_CATEGORIES, Category

from .common import nothing_submitted, reference_of
from .registry import metric
from .values import same_text, values_equal
from .world import World

PLACE_REQUIREMENTS = ("place_types", "place_type", "min_rating", "max_cost", "radius_m", "route_buffer_m")


@metric("A", kind="outcome")
def attribute_accuracy(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None = None, *, world: World | None = None
) -> MetricResult:
    """Attribute Accuracy (eq. 1): A = 1[x ⊨ x_q], the answer's attributes satisfy the query's requirements."""
    if not predicted.submitted:
        return nothing_submitted("A", predicted)
    if case.category == Category.PLACE_PERCEPTION:
        return _value_accuracy(case, predicted)
    return _requirement_accuracy(case, predicted, world)


def _value_accuracy(case: CaseSpec, predicted: PredictedAnswer) -> MetricResult:
    ref = case.answer if isinstance(case.answer, dict) else {}
    expected, ref_place, ref_name = ref.get("answer"), ref.get("place_id"), ref.get("name") or ""
    details = {
        "predicted": predicted.value,
        "reference": expected,
        "predicted_place": predicted.answer_place,
        "reference_place": ref_place,
    }
    if expected is None or _names_place(expected, ref_place, ref_name):
        return _place_choice(predicted, ref_place, ref_name, details)
    if not predicted.has_value:
        return MetricResult("A", 0.0, f"the answer gives no direct value (reference {expected!r})", details)
    field = (ref.get("ref") or {}).get("attribute_key", "") if isinstance(ref.get("ref"), dict) else ""
    ok = values_equal(predicted.value, expected, field=str(field or ""), question=case.question)
    details["read_as"] = str(field or "") or "value"
    verdict = "matches" if ok else "does not match"
    return MetricResult("A", float(ok), f"the value {predicted.value!r} {verdict} the reference {expected!r}", details)


def _names_place(expected, ref_place, ref_name: str) -> bool:
    return isinstance(expected, str) and (expected.strip() == ref_place or same_text(expected, ref_name))


def _place_choice(predicted: PredictedAnswer, ref_place, ref_name: str, details: dict) -> MetricResult:
    """A place-valued answer (a comparison or choice): the chosen place must be the reference's."""
    if predicted.has_value:
        value = predicted.value
        ok = predicted.value_place_id == ref_place or (
            isinstance(value, str) and (value.strip() == ref_place or same_text(value, ref_name))
        )
        chosen = repr(value)
    else:
        ok = predicted.answer_place == ref_place
        chosen = str(predicted.answer_place)
    verdict = "is" if ok else "is not"
    return MetricResult(
        "A", float(ok), f"the chosen place {chosen} {verdict} the reference {ref_name} ({ref_place})", details
    )


def _requirement_accuracy(case: CaseSpec, predicted: PredictedAnswer, world: World | None) -> MetricResult:
    wanted = case.constraints
    checks = [
        _word_check(field, wanted[field], getattr(predicted, field))
        for field in ("vehicle", "mode")
        if wanted.get(field)
    ]
    if any(wanted.get(key) is not None for key in PLACE_REQUIREMENTS):
        if world is None:
            raise ValueError(f"case {case.case_id} has place requirements; attribute_accuracy needs a world")
        checks += _place_checks(case, predicted, world)
    failed = [c for c in checks if not c["ok"]]
    details = {"checks": checks}
    if not checks:
        return MetricResult("A", 1.0, "the query states no explicit attribute requirement", details)
    if failed:
        return MetricResult(
            "A",
            0.0,
            f"{len(failed)} of {len(checks)} requirements fail: " + "; ".join(c["why"] for c in failed),
            details,
        )
    return MetricResult("A", 1.0, f"all {len(checks)} requirements hold", details)


def _word_check(field: str, expected: str, actual: str | None) -> dict:
    ok = actual is not None and actual == str(expected).strip().lower()
    why = f"{field} is {actual!r}, the query asks for {expected!r}" if actual else f"the answer gives no {field}"
    return {"requirement": field, "expected": expected, "actual": actual, "ok": ok, "why": why}


def _targets(category: str, answer: PredictedAnswer) -> list[str]:
    if category in ROUTE_CATEGORIES:
        return list(answer.waypoints)
    return [answer.answer_place] if answer.answer_place else []


def _place_checks(case: CaseSpec, predicted: PredictedAnswer, world: World) -> list[dict]:
    """One check per (target place, place requirement).

    A target that the reference answer also holds is exempt from a requirement it fails: such a
    place is a stop the user named (e.g. "I also need to stop at ..."), not one the query filters.
    A place the world does not know is never exempt (the world and the case disagree).
    """
    reference = reference_of(case)
    targets = _targets(case.category, predicted)
    if not targets:
        return [{"requirement": "target place", "ok": False, "why": "the answer names no target place to check"}]
    exempt = set(_targets(case.category, reference))
    checks = []
    for place_id in targets:
        for check in _checks_for(place_id, case, reference, world):
            if not check["ok"] and place_id in exempt and check["requirement"] != "known place":
                check.update(ok=True, exempt=True, why=check["why"] + " (exempt: a stop the reference also has)")
            checks.append(check)
    return checks


def _checks_for(place_id: str, case: CaseSpec, reference: PredictedAnswer, world: World) -> list[dict]:
    wanted = case.constraints
    place = world.place(place_id)
    if place is None:
        return [
            {
                "requirement": "known place",
                "place_id": place_id,
                "ok": False,
                "why": f"{place_id} is not a place of this city",
            }
        ]
    out = []
    if wanted.get("place_types"):
        ok = type_matches(place, wanted["place_types"], wanted.get("cuisines") or ())
        out.append(
            _check(
                "place_type",
                place_id,
                ok,
                f"{place_id} is a {place.get('place_type')!r}, the query accepts {', '.join(wanted['place_types'])}",
            )
        )
    elif wanted.get("place_type"):
        kind = str(place.get("place_type") or "")
        ok = str(wanted["place_type"]).lower() in kind.lower()
        out.append(
            _check("place_type", place_id, ok, f"{place_id} is a {kind!r}, the query asks for {wanted['place_type']!r}")
        )
    if wanted.get("min_rating") is not None:
        rating = to_float(place.get("rating"))
        ok = rating is not None and rating >= float(wanted["min_rating"])
        out.append(
            _check(
                "min_rating",
                place_id,
                ok,
                f"{place_id} is rated {rating}, the query asks for at least {wanted['min_rating']}",
            )
        )
    if wanted.get("max_cost") is not None:
        cost = to_float(place.get("cost"))
        ok = cost is not None and cost <= float(wanted["max_cost"])
        out.append(
            _check("max_cost", place_id, ok, f"{place_id} costs {cost}, the query allows at most {wanted['max_cost']}")
        )
    if wanted.get("radius_m") is not None and wanted.get("center"):
        far = world.distance_m(wanted["center"], place_id)
        ok = far is not None and far <= float(wanted["radius_m"])
        out.append(
            _check(
                "radius_m",
                place_id,
                ok,
                f"{place_id} is {_metres(far)} from {wanted['center']}, the query allows {wanted['radius_m']} m",
            )
        )
    if wanted.get("route_buffer_m") is not None:
        out.append(_buffer_check(place_id, wanted, reference, world))
    return out


def _buffer_check(place_id: str, wanted: dict, reference: PredictedAnswer, world: World) -> dict:
    """The place lies within route_buffer_m of the route between the reference's start and end."""
    vehicle = wanted.get("vehicle") or reference.vehicle or "driving"
    if not (reference.start and reference.end):
        return _check("route_buffer_m", place_id, False, "the reference has no start and end to build the route")
    off = world.route_distance_m(place_id, reference.start, reference.end, vehicle)
    ok = off is not None and off <= float(wanted["route_buffer_m"])
    return _check(
        "route_buffer_m",
        place_id,
        ok,
        f"{place_id} is {_metres(off)} off the {vehicle} route "
        f"{reference.start} -> {reference.end}, the query allows "
        f"{wanted['route_buffer_m']} m",
    )


def _check(requirement: str, place_id: str, ok: bool, why: str) -> dict:
    return {"requirement": requirement, "place_id": place_id, "ok": ok, "why": why}


def _metres(value: float | None) -> str:
    return "an unknown distance" if value is None else f"{value:.1f} m"
