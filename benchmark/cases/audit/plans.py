"""Routing and Trip Design: routes, the best stop on the way, the best plan of several stops.

Every stop the question leaves open is searched over the whole city (every place of the
noun, every holder of the need), every ordering of the stops is costed with the verifier's
own shortest paths, and the gold must be the cheapest plan that surely meets every stated
condition by a margin. A stated rule (visit order, opening hours on arrival) must bind: the
plan that ignores it must be cheaper than the gold by a margin too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import permutations, product

from benchmark.cases.lexicon import ACCEPT

from . import margins
from .common import (
    FAIL,
    PASS,
    Reject,
    candidates,
    combine,
    cost_verdict,
    gold_fits,
    lookalikes,
    open_span_verdict,
    open_verdict,
    rating_verdict,
    when,
)
from .evidence import check_l2
from .lookups import unique_name
from .roads import cost_of
from .world import AuditWorld


def route(world: AuditWorld, q: dict, answer) -> None:
    for pid in (q["start"], q["end"]):
        unique_name(world, pid)
    _check_order(answer, [q["start"], q["end"]], world)
    _check_totals(answer, [world.roads.leg(q["start"], q["end"], q["vehicle"], q["mode"])])


def detour(world: AuditWorld, q: dict, answer) -> None:
    """One stop on the way from start to end, chosen by the lowest total cost."""
    start, end, mode = q["start"], q["end"], q["mode"]
    for pid in (start, end):
        unique_name(world, pid)
    stop = q["stop"]
    order = _answer_order(answer)
    if len(order) != 3 or order[0] != start or order[-1] != end:
        raise Reject("answer shape", "the answer is not start -> one stop -> end")
    gold = order[1]
    depart = when(q.get("depart"))
    if stop.get("need"):
        _no_named_holder(world, [start, end], stop["need"], depart)
    problems = gold_fits(world, gold, stop.get("noun"), stop.get("need"), depart)
    if problems:
        raise Reject("gold does not fit", "; ".join(problems))
    pool = {
        p: k
        for p, k in candidates(world, stop.get("noun"), stop.get("need"), stop.get("errand"), at=depart).items()
        if p not in (start, end)
    }
    rows = _detour_rows(world, q, pool)
    if rows.get(gold, (None, None))[:2] != (ACCEPT, PASS):
        raise Reject("gold not surely valid", f"{world.place(gold).name} does not surely meet every stated condition")
    ranked = sorted(rows, key=lambda p: (rows[p][2], p))
    best = rows[gold][2]
    if ranked[0] != gold:
        raise Reject(
            "better rival",
            f"stopping at {world.place(ranked[0]).name} ({ranked[0]}) costs "
            f"{rows[ranked[0]][2]:.0f}, "
            f"less than the gold's {best:.0f}",
        )
    if len(ranked) > 1 and rows[ranked[1]][2] - best < margins.route_margin(best, mode) - 1e-9:
        raise Reject(
            "runner-up within margin",
            f"the runner-up stop {world.place(ranked[1]).name} ({ranked[1]}) costs "
            f"{rows[ranked[1]][2]:.0f}, within the margin of the gold's {best:.0f}",
        )
    _check_totals(answer, [rows[gold][3], rows[gold][4]])
    if stop.get("need"):
        alike = {p: ACCEPT for p in lookalikes(world, stop.get("noun"), stop["need"], depart) if p not in (start, end)}
        shown = {p: row for p, row in _detour_rows(world, q, alike).items() if row[1] == PASS}
        measure = {p: row[2] for p, row in shown.items()} | {gold: best}
        check_l2(world, gold=gold, need=stop["need"], lookalikes=shown, measure=measure, measure_name="cost", at=depart)


def _detour_rows(world: AuditWorld, q: dict, pool: dict[str, str]) -> dict[str, tuple]:
    """{place_id: (kind, verdict, total cost, leg there, leg back)} of the stops of ``pool`` no stated condition
    rules out (open on arrival, for the whole stay when the question states one)."""
    start, end, vehicle, mode, stop = q["start"], q["end"], q["vehicle"], q["mode"], q["stop"]
    there = world.roads.legs_from(start, list(pool), vehicle, mode)
    back = world.roads.legs_from(end, list(pool), vehicle, mode, reverse=True)
    depart = when(q.get("depart"))
    rows = {}
    for pid, kind in pool.items():
        if pid not in there or pid not in back:
            continue
        place = world.place(pid)
        arrival = depart + timedelta(seconds=there[pid][1]) if depart else None
        verdict = combine(
            rating_verdict(place.rating, stop.get("min_rating")),
            cost_verdict(place.cost, stop.get("max_cost")),
            open_span_verdict(place.opentime_week, arrival, stop.get("stay_min", 0)),
        )
        if verdict != FAIL:
            rows[pid] = (kind, verdict, cost_of(there[pid], mode) + cost_of(back[pid], mode), there[pid], back[pid])
    return rows


def detour_costs(
    world: AuditWorld,
    start: str,
    end: str,
    vehicle: str,
    mode: str,
    places: list[str],
    depart: datetime | None = None,
) -> dict[str, float]:
    """The verifier's cost of start -> place -> end for each of ``places`` it can reach that is open on arrival
    (when ``depart`` is given): the measure a routing L2 gold is ranked by among its look-alikes."""
    q = {"start": start, "end": end, "vehicle": vehicle, "mode": mode, "stop": {}}
    if depart is not None:
        q["depart"] = depart.isoformat(timespec="minutes")
    rows = _detour_rows(world, q, {p: ACCEPT for p in places})
    return {p: row[2] for p, row in rows.items() if row[1] == PASS}


def _no_named_holder(world: AuditWorld, named: list[str], need: str, at) -> None:
    """A place the question names that already holds the need makes the extra stop needless."""
    from benchmark.cases.needs import need_of

    holders = world.holders(need_of(need).satisfied_by, at)
    held = [p for p in named if p in holders]
    if held:
        raise Reject(
            "named stop holds the need",
            f"{world.place(held[0]).name} ({held[0]}), named in the question, already meets the need: "
            "a plan without the extra stop meets everything",
        )


@dataclass
class _Plan:
    order: tuple[str, ...]
    cost: float
    totals: tuple[float, float]
    verdict: str  # PASS, UNSURE or FAIL under the stated rules
    kind: str  # ACCEPT when every open stop is a proper answer, else MIGHT
    combo: tuple[str, ...]  # the place chosen for each open stop


def trip(world: AuditWorld, q: dict, answer) -> None:
    """The best plan over every choice of the open stops and every ordering."""
    vehicle, mode = q["vehicle"], q["mode"]
    start, end = q["start"], q.get("end")
    stops = list(q.get("stops") or [])
    for pid in [start, *stops, *([end] if end else [])]:
        unique_name(world, pid)
    if q.get("selection"):
        stops = _selection(world, q["selection"], exclude={start})
    fixed = [start, *stops, *([end] if end else [])]
    at = when(q.get("depart"))
    for x, y in q.get("before") or []:
        if x == y:
            raise Reject("self-referential rule", f"the visit-order rule names {x} twice (before itself)")
    pools = []
    for item in q.get("implied") or []:
        if item.get("need"):
            _no_named_holder(world, fixed, item["need"], at)
        pool = {p: k for p, k in candidates(world, item.get("noun"), item.get("need"), at=at).items() if p not in fixed}
        if not pool:
            raise Reject("no candidate", f"no place meets the implied stop {item}")
        pools.append(pool)
    legs = _Legs(world, vehicle, mode, fixed, pools)
    combos = product(*[sorted(pool) for pool in pools])
    plans = [plan for combo in combos for plan in _plan(world, q, legs, start, end, stops, combo, pools)]
    gold_order = tuple(_answer_order(answer))
    gold = next((p for p in plans if p.order == gold_order), None)
    if gold is None:
        raise Reject("answer shape", f"the answer's order {list(gold_order)} is not a plan of this question")
    for item, pid in zip(q.get("implied") or [], gold.combo):
        problems = gold_fits(world, pid, item.get("noun"), item.get("need"), at)
        if problems:
            raise Reject("gold does not fit", "; ".join(problems))
    if gold.verdict != PASS or gold.kind != ACCEPT:
        raise Reject(
            "gold not surely valid", f"the gold plan does not surely meet every stated condition ({gold.verdict})"
        )
    valid = sorted((p for p in plans if p.verdict != FAIL), key=lambda p: (p.cost, p.order))
    if valid[0].order != gold.order:
        raise Reject(
            "better rival",
            f"the plan {list(valid[0].order)} costs {valid[0].cost:.0f}, less than the gold's {gold.cost:.0f}",
        )
    margin = margins.order_margin(gold.cost, mode)
    if len(valid) > 1 and valid[1].cost - gold.cost < margin - 1e-9:
        raise Reject(
            "runner-up within margin",
            f"the next plan {list(valid[1].order)} costs {valid[1].cost:.0f}, "
            f"within {margin:.0f} of the "
            f"gold's {gold.cost:.0f}",
        )
    if q.get("before") or q.get("depart"):
        free = min(plans, key=lambda p: (p.cost, p.order))
        if free.order == gold.order or gold.cost - free.cost < margin - 1e-9:
            raise Reject(
                "rule does not bind",
                f"the stated rule does not bind: ignoring it gives {list(free.order)} "
                f"at {free.cost:.0f} "
                f"against the gold's {gold.cost:.0f} (it must be cheaper by {margin:.0f})",
            )
    _check_totals(answer, [legs.get(a, b) for a, b in zip(gold.order, gold.order[1:])])
    implied = q.get("implied") or []
    if len(implied) == 1 and implied[0].get("need"):
        _implied_rests_on_notes(world, q, implied[0], fixed, gold, start, end, stops, plans)


LOOKALIKE_PLANS = 25  # the look-alikes nearest the trip whose best plans are costed


def _implied_rests_on_notes(world, q, item, fixed, gold: _Plan, start, end, stops, plans) -> None:
    """The L2 checks for the implied stop: a place that looks like a holder makes a cheaper plan, and the
    holder is not the keyword leader."""
    at = when(q.get("depart"))
    near = sorted(
        (p for p in lookalikes(world, item.get("noun"), item["need"], at) if p not in fixed),
        key=lambda p: (world.distance_m(start, p) + world.distance_m(end or start, p), p),
    )[:LOOKALIKE_PLANS]
    pool = {p: ACCEPT for p in near}
    legs = _Legs(world, q["vehicle"], q["mode"], fixed, [pool])
    measure = {gold.combo[0]: gold.cost}
    for pid in near:
        try:
            valid = [p for p in _plan(world, q, legs, start, end, stops, (pid,), [pool]) if p.verdict == PASS]
        except Reject:  # unreachable
            continue
        if valid:
            measure[pid] = min(p.cost for p in valid)
    check_l2(
        world,
        gold=gold.combo[0],
        need=item["need"],
        lookalikes=[p for p in measure if p != gold.combo[0]],
        measure=measure,
        measure_name="the plan's cost",
        at=at,
    )


def _plan(world, q, legs, start, end, stops, combo, pools) -> list[_Plan]:
    kind = ACCEPT if all(pool[pid] == ACCEPT for pool, pid in zip(pools, combo)) else "might"
    middle = [*stops, *combo]
    implied = {f"@{i}": pid for i, pid in enumerate(combo)}
    rules = [(implied.get(a, a), implied.get(b, b)) for a, b in q.get("before") or []]
    depart = when(q.get("depart"))
    dwell = timedelta(minutes=q.get("dwell_min", 0))
    out = []
    for perm in permutations(middle):
        order = (start, *perm, *([end] if end else []))
        pieces = [legs.get(a, b) for a, b in zip(order, order[1:])]
        totals = (sum(p[0] for p in pieces), sum(p[1] for p in pieces))
        verdicts = [FAIL if _broken(order, rules) else PASS]
        if depart:
            verdicts.append(_timed(world, order, pieces, depart, dwell))
        out.append(_Plan(order, cost_of(totals, q["mode"]), totals, combine(*verdicts), kind, tuple(combo)))
    return out


def _broken(order: tuple[str, ...], rules: list[tuple[str, str]]) -> bool:
    position = {pid: i for i, pid in enumerate(order)}
    return any(a in position and b in position and position[a] > position[b] for a, b in rules)


def _timed(world: AuditWorld, order, pieces, depart: datetime, dwell: timedelta) -> str:
    """Every stop after the start open on arrival and (stops before the last) until leaving."""
    now, verdicts = depart, []
    for index, (pid, piece) in enumerate(zip(order[1:], pieces), start=1):
        if index > 1:
            now += dwell
        now += timedelta(seconds=piece[1])
        hours = world.place(pid).opentime_week
        verdicts.append(open_verdict(hours, now))
        if index < len(order) - 1 and dwell:
            verdicts.append(open_verdict(hours, now + dwell - timedelta(minutes=1)))
    return combine(*verdicts) if verdicts else PASS


class _Legs:
    """Every leg a plan can use, from one search per fixed point (and per open stop when two are open)."""

    def __init__(self, world: AuditWorld, vehicle: str, mode: str, fixed: list[str], pools: list[dict]):
        points = sorted({*fixed, *[p for pool in pools for p in pool]})
        self.table: dict[tuple[str, str], tuple[float, float]] = {}
        for a in fixed:
            for b, totals in world.roads.legs_from(a, points, vehicle, mode).items():
                self.table[a, b] = totals
            for b, totals in world.roads.legs_from(a, points, vehicle, mode, reverse=True).items():
                self.table[b, a] = totals
        for i, pool in enumerate(pools):
            for other in pools[i + 1 :]:
                for a in pool:
                    for b, totals in world.roads.legs_from(a, list(other), vehicle, mode).items():
                        self.table[a, b] = totals
                    for b, totals in world.roads.legs_from(a, list(other), vehicle, mode, reverse=True).items():
                        self.table[b, a] = totals

    def get(self, a: str, b: str) -> tuple[float, float]:
        try:
            return self.table[a, b]
        except KeyError:
            raise Reject("unreachable", f"no route from {a} to {b}") from None


def _selection(world: AuditWorld, sel: dict, exclude: set[str]) -> list[str]:
    """The stops a "visit every <noun> rated at least x (within r m of c)" question selects; Reject when
    a place the reader might count, or one on the radius's edge, could change the set."""
    from .common import radius_verdict

    chosen: list[str] = []
    unsure: list[str] = []
    for pid, kind in candidates(world, sel["noun"], None).items():
        if pid in exclude:
            continue
        place = world.place(pid)
        verdict = combine(
            rating_verdict(place.rating, sel.get("min_rating")),
            radius_verdict(world.distance_m(sel["center"], pid), sel.get("radius_m")) if sel.get("center") else PASS,
        )
        if verdict == FAIL:
            continue
        (chosen if (kind, verdict) == (ACCEPT, PASS) else unsure).append(pid)
    if unsure:
        raise Reject(
            "ambiguous selection",
            "the selection is ambiguous: " + ", ".join(f"{world.place(p).name} ({p})" for p in sorted(unsure)),
        )
    if not 2 <= len(chosen) <= 4:
        raise Reject("selection size", f"the selection holds {len(chosen)} places (2 to 4 make a tour)")
    return sorted(chosen)


def _answer_order(answer) -> list[str]:
    order: list = [p.get("place_id") for p in (answer or {}).get("optimal_order") or [] if isinstance(p, dict)]
    if not order or None in order:
        raise Reject("answer shape", "the answer has no complete optimal_order")
    return order


def _check_order(answer, expected: list[str], world: AuditWorld) -> None:
    if _answer_order(answer) != expected:
        raise Reject("answer shape", f"the answer's order is {_answer_order(answer)}, expected {expected}")


def _check_totals(answer, pieces: list[tuple[float, float]]) -> None:
    distance, seconds = sum(p[0] for p in pieces), sum(p[1] for p in pieces)
    tolerance = margins.TOTAL_TOLERANCE * max(1, len(pieces))
    for field, mine in (("total_distance_m", distance), ("total_time_s", seconds)):
        given = answer.get(field)
        if not isinstance(given, int | float) or abs(given - mine) > tolerance:
            raise Reject("totals differ", f"{field} {given} differs from the verifier's {mine:.1f}")
