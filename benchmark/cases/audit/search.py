"""Nearby Discovery and open searches: the best place among every place the question allows."""

from __future__ import annotations

from benchmark.cases.lexicon import ACCEPT

from . import margins
from .common import (
    FAIL,
    PASS,
    Reject,
    answer_place,
    candidates,
    combine,
    cost_verdict,
    gold_fits,
    lookalikes,
    open_span_verdict,
    radius_verdict,
    rating_verdict,
    when,
)
from .evidence import check_l2
from .lookups import unique_name
from .roads import cost_of
from .world import AuditWorld


def find(world: AuditWorld, q: dict, answer) -> None:
    """``rank`` "only": the gold is the one place that may meet the question; "nearest": the closest
    (straight line, or by route with ``by: "route"``); "rating": the best rated."""
    gold = answer_place(answer)
    if gold is None:
        raise Reject("answer shape", "the answer names no place")
    center = q.get("center")
    if center:
        unique_name(world, center)
    at = when(q.get("open_at"))
    problems = gold_fits(world, gold, q.get("noun"), q.get("need"), at)
    if problems:
        raise Reject("gold does not fit", "; ".join(problems))
    rows = _admissible(world, q, center, candidates(world, q.get("noun"), q.get("need"), q.get("errand"), at=at))
    if gold not in rows or rows[gold] != (ACCEPT, PASS):
        raise Reject("gold not surely valid", f"{world.place(gold).name} does not surely meet every stated condition")
    rank = q["rank"]
    if rank == "only":
        rivals = sorted(p for p in rows if p != gold)
        if rivals:
            raise Reject(
                "rival meets the question", "other places may also meet the question: " + _names(world, rivals)
            )
    else:
        # "nearest" read either way: the gold must win in a straight line and along the walking route.
        readings = (
            [dict(q, by="straight"), dict(q, by="route", vehicle="walking", mode="distance")]
            if q.get("by") == "either"
            else [q]
        )
        for reading in readings:
            _rank(world, reading, center, gold, list(rows))
    if q.get("need"):
        _rests_on_notes(world, q, center, gold, rows, at)


def _rests_on_notes(world: AuditWorld, q: dict, center: str | None, gold: str, rows: dict, at) -> None:
    """The L2 checks (visible, notes-blind, decoys) over the places meeting every visible condition."""
    alike = {pid: ACCEPT for pid in lookalikes(world, q.get("noun"), q["need"], at)}
    visible = _admissible(world, q, center, alike)
    shown = [p for p, (_, verdict) in visible.items() if verdict == PASS]
    measure: dict[str, float] | None = None
    name = ""
    if q["rank"] == "nearest" or q.get("radius_m") is not None:
        by = "route" if q.get("by") == "route" else "straight"
        measure, name = _scores(world, dict(q, by=by), center, [gold, *shown]), "distance"
    elif q.get("min_rating") is not None:
        measure, name = {p: -(world.place(p).rating or 0.0) for p in [gold, *shown]}, "rating"
    check_l2(world, gold=gold, need=q["need"], lookalikes=shown, measure=measure, measure_name=name, at=at)


def _rank(world: AuditWorld, q: dict, center: str | None, gold: str, pids: list[str]) -> None:
    scores = _scores(world, q, center, pids)
    if gold not in scores:
        raise Reject("unreachable", f"{world.place(gold).name} cannot be reached")
    ordered = sorted(scores, key=lambda p: (scores[p], p))
    if ordered[0] != gold:
        raise Reject(
            "better rival",
            f"{world.place(ordered[0]).name} ({ordered[0]}) beats the gold "
            f"{world.place(gold).name} ({_show(q, scores[ordered[0]])} vs {_show(q, scores[gold])})",
        )
    if len(ordered) > 1:
        best, second = scores[gold], scores[ordered[1]]  # lower is better (ratings are negated)
        if q["rank"] == "rating":
            need = margins.RATING
        elif q.get("by") == "route":
            need = margins.route_margin(best, q.get("mode", "time"))
        else:
            need = margins.nearest_margin(best)
        if second - best < need - 1e-9:
            raise Reject(
                "runner-up within margin",
                f"the runner-up {world.place(ordered[1]).name} ({ordered[1]}) "
                f"is within the margin ({_show(q, second)} vs {_show(q, best)})",
            )


def _admissible(world: AuditWorld, q: dict, center: str | None, pool: dict[str, str]) -> dict[str, tuple[str, str]]:
    """{place_id: (ACCEPT or MIGHT, PASS or UNSURE)} of every place of ``pool`` no stated condition rules out."""
    moment = when(q.get("open_at"))
    stay = max(q.get("open_for_min", 0), q.get("stay_min", 0))
    rows = {}
    for pid, kind in pool.items():
        if pid == center:
            continue
        place = world.place(pid)
        verdict = combine(
            radius_verdict(world.distance_m(center, pid), q.get("radius_m")) if center else PASS,
            rating_verdict(place.rating, q.get("min_rating")),
            cost_verdict(place.cost, q.get("max_cost")),
            open_span_verdict(place.opentime_week, moment, stay),
        )
        if verdict != FAIL:
            rows[pid] = (kind, verdict)
    return rows


def _scores(world: AuditWorld, q: dict, center: str | None, pids: list[str]) -> dict[str, float]:
    if q["rank"] == "rating":
        return {p: -(world.place(p).rating or 0.0) for p in pids}
    if center is None:
        raise Reject("answer shape", "a nearest search needs a center")
    if q.get("by") == "route":
        legs = world.roads.legs_from(center, pids, q["vehicle"], q.get("mode", "time"))
        return {p: cost_of(legs[p], q.get("mode", "time")) for p in pids if p in legs}
    return {p: world.distance_m(center, p) for p in pids}


def _show(q: dict, score: float) -> str:
    if q["rank"] == "rating":
        return f"rating {-score:g}"
    if q.get("by") == "route":
        return f"{score:.0f} {'s' if q.get('mode', 'time') == 'time' else 'm'}"
    return f"{score:.0f} m"


def _names(world: AuditWorld, pids: list[str], limit: int = 5) -> str:
    shown = [f"{world.place(p).name} ({p})" for p in pids[:limit]]
    return ", ".join(shown) + (f" and {len(pids) - limit} more" if len(pids) > limit else "")
