"""Semantic Constraint (SC), a judge metric: the rule checks of a case's machine-checkable constraints.

The judges score SC when they are configured (``judge="semantic_constraint"``); these checks
score it when they are not, or when every judge failed. Checked when the case states them:
travel mode and optimisation target, visit order ("visit a before b"), every stop open on
arrival (from the question's start time, the routing times along the submitted order and the
dwell time; with ``open_check: "stops"`` only the stops on the way, not the destination), a
chosen place open at a stated moment (``open_at``), a yes/no answer about the opening state
at the question's moment (``at``), rating and cost thresholds, the place type (any of the
accepted sub-types, or a dining place of an accepted cuisine), the radius around a place or
the buffer along a route, and the implicit need of an L2 case (the chosen place holds one of
the facts that meet the need, ``fact.keys``).
SC from rules = checks passed / checks made.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Protocol

from judging.answers import PredictedAnswer
from judging.rules import arrival_times, closed_on_arrival, order_violations, type_matches
from judging.types import CaseSpec, MetricResult, Trajectory
from kernel.opening import is_open_at
from kernel.vocabulary import Level

from .registry import metric
from .values import as_bool
from .world import World


class ConstraintWorld(World, Protocol):
    def leg(self, a: str, b: str, vehicle: str, mode: str) -> tuple[float, float] | None:
        """(distance_m, time_s) of the routing tool's route from a to b, or None when there is none."""

    def has_fact(self, place_id: str, key: str, on: date | None = None) -> bool:
        """Whether the place holds the hidden social fact ``key`` (a dated state: on the day ``on``)."""


def targets(predicted: PredictedAnswer) -> list[str]:
    """The places the agent chose (not the user's given start and end)."""
    chosen = [predicted.answer_place, predicted.value_place_id, *predicted.waypoints]
    return list(dict.fromkeys(p for p in chosen if p))


def constraint_checks(case: CaseSpec, predicted: PredictedAnswer, world: ConstraintWorld) -> list[dict]:
    """Every applicable check as {"check", "ok", "detail"}."""
    c = case.constraints
    checks: list[dict] = []

    def add(name: str, ok: bool, detail: str) -> None:
        checks.append({"check": name, "ok": bool(ok), "detail": detail})

    reference = case.answer if isinstance(case.answer, dict) else {}
    for key in ("vehicle", "mode"):
        # Checked whenever the reference answer states it: an answer that leaves it out fails the check.
        if c.get(key) and (reference.get(key) or predicted.total_distance_m is not None or getattr(predicted, key)):
            got = getattr(predicted, key)
            add(
                key,
                got == str(c[key]).strip().lower(),
                f"{key} {got!r}, the question asks for {c[key]!r}" if got else f"the answer gives no {key}",
            )
    for a, b in c.get("before", []):
        broken = order_violations(predicted.visit_order, [(a, b)])
        seen = a in predicted.visit_order and b in predicted.visit_order
        add("visit order", seen and not broken, f"{a} before {b}" + ("" if seen else " (a stop is missing)"))
    if c.get("start_time"):
        add(*_open_on_arrival(c, predicted, world))
    if c.get("at") and reference.get("place_id"):
        add(*_open_state_at(case, predicted, world, str(reference["place_id"]), datetime.fromisoformat(c["at"])))
    chosen = targets(predicted)
    for pid in chosen:
        place = world.place(pid) or {}
        if c.get("min_rating") is not None:
            add(
                "rating",
                (place.get("rating") or 0) >= c["min_rating"],
                f"{pid} rating {place.get('rating')} (at least {c['min_rating']})",
            )
        if c.get("max_cost") is not None:
            cost = place.get("cost")
            add("cost", cost is not None and cost <= c["max_cost"], f"{pid} cost {cost} (at most {c['max_cost']})")
        if c.get("place_types"):
            add(
                "place type",
                type_matches(place, c["place_types"], c.get("cuisines") or ()),
                f"{pid} is {place.get('place_type')!r}; the question accepts {', '.join(c['place_types'])}",
            )
        elif c.get("place_type"):
            add(
                "place type",
                c["place_type"].lower() in (place.get("place_type") or "").lower(),
                f"{pid} is {place.get('place_type')!r}",
            )
        if c.get("open_at"):
            add(*_open_for(place, pid, datetime.fromisoformat(c["open_at"]), c.get("open_for_min", 0)))
        if c.get("radius_m") and c.get("center"):
            d = world.distance_m(c["center"], pid)
            add("radius", d is not None and d <= c["radius_m"], f"{pid} is {d} m from {c['center']}")
        if c.get("route_buffer_m") and predicted.start and predicted.end:
            d = world.route_distance_m(pid, predicted.start, predicted.end, c.get("vehicle", "driving"))
            add("route buffer", d is not None and d <= c["route_buffer_m"], f"{pid} is {d} m from the route")
    fact = c.get("fact")
    if fact and case.level == Level.L2:
        keys = fact.get("keys") or [fact["key"]]
        on = date.fromisoformat(fact["on"]) if fact.get("on") else None
        holders = [pid for pid in chosen if any(world.has_fact(pid, key, on) for key in keys)]
        add("implicit need", bool(holders), f"chosen {chosen}; holding {' or '.join(keys)}: {holders}")
    return checks


def _open_for(place: dict, pid: str, start: datetime, minutes: int) -> tuple[str, bool, str]:
    """The place is open at ``start`` and, for a stay, every 5 minutes until its last minute."""
    moments = [start + timedelta(minutes=m) for m in range(0, max(minutes, 1), 5)]
    if minutes:
        moments.append(start + timedelta(minutes=minutes - 1))
    hours = place.get("opentime_week") or ""
    closed = [m for m in moments if is_open_at(hours, m) is not True]
    span = f" for {minutes} min" if minutes else ""
    detail = f"{pid} open from {start:%a %H:%M}{span}: " + (f"not at {closed[0]:%H:%M}" if closed else "yes")
    return ("open at" if not minutes else "open for the stay"), not closed, detail


def _open_state_at(
    case: CaseSpec, predicted: PredictedAnswer, world: ConstraintWorld, pid: str, when: datetime
) -> tuple[str, bool, str]:
    """A yes/no answer about whether the place is open at ``when`` (the question's moment) agrees with its hours."""
    said = as_bool(predicted.value, case.question, "opentime_week") if predicted.has_value else None
    truth = is_open_at((world.place(pid) or {}).get("opentime_week") or "", when)
    ok = said is not None and truth is not None and said is truth
    return (
        "open state at",
        ok,
        (
            f"{pid} at {when:%a %H:%M}: the hours say {'open' if truth else 'closed'}, "
            f"the answer says {'no reading' if said is None else 'open' if said else 'closed'}"
        ),
    )


def _open_on_arrival(c: dict, predicted: PredictedAnswer, world: ConstraintWorld) -> tuple[str, bool, str]:
    order = list(predicted.visit_order)
    if len(order) < 2:
        return "open on arrival", False, "no visit order to time"
    routed = [world.leg(a, b, c.get("vehicle", "driving"), c.get("mode", "time")) for a, b in zip(order, order[1:])]
    legs = [leg for leg in routed if leg is not None]
    if len(legs) < len(routed):
        return "open on arrival", False, "a leg of the submitted order has no route"
    dwell = c.get("dwell_minutes", 0) * 60
    arrivals = arrival_times(datetime.fromisoformat(c["start_time"]), [leg[1] for leg in legs], dwell)
    # "stops": only the stops on the way must be open (a detour's destination need not be).
    judged = order[1:-1] if c.get("open_check") == "stops" else order[1:]
    hours = {pid: (world.place(pid) or {}).get("opentime_week", "") for pid in judged}
    closed = closed_on_arrival(order, arrivals, hours, dwell_s=dwell)
    times = ", ".join(f"{pid} {t:%H:%M}" for pid, t in zip(order[1:], arrivals))
    return "open on arrival", not closed, f"arrivals {times}; closed: {closed or 'none'}"


def semantic_constraint_rules(case: CaseSpec, predicted: PredictedAnswer, world: ConstraintWorld) -> MetricResult:
    """SC from the rule checks alone (source "rules"): the share of checks passed."""
    if not predicted.submitted:
        why = f"The answer is invalid ({predicted.invalid})" if predicted.invalid else "No answer was submitted"
        return MetricResult("SC", 0.0, f"{why}, so no constraint is met.", source="rules")
    checks = constraint_checks(case, predicted, world)
    if not checks:
        return MetricResult(
            "SC",
            None,
            "The case has no machine-checkable constraint and no judge scored it.",
            {"calculable": False},
            source="rules",
        )
    passed = sum(ch["ok"] for ch in checks)
    failed = [f"{ch['check']}: {ch['detail']}" for ch in checks if not ch["ok"]]
    explanation = f"{passed} of {len(checks)} constraint checks pass" + (
        f"; failed: {'; '.join(failed)}" if failed else "."
    )
    return MetricResult("SC", passed / len(checks), explanation, {"checks": checks}, source="rules")


@metric("SC", kind="outcome", judge="semantic_constraint")
def semantic_constraint(
    case: CaseSpec, predicted: PredictedAnswer, trajectory: Trajectory | None, *, world: ConstraintWorld
) -> MetricResult:
    """Semantic Constraint (SC): the judges' score when they give one, else the share of rule checks passed."""
    return semantic_constraint_rules(case, predicted, world)
