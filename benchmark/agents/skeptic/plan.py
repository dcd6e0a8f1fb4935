"""The skeptic's candidates and answers: who could be the place, and the answer once one is chosen.

Candidates are what the agent toolset shows for the question's shape: the named options; the
places of the noun (or of any kind) within the radius of the named place, nearest first; the
places along the route from start to end, nearest the route first. Answers: one place (a
nearby place is checked open over the stay when the question sets a time); a route through the
chosen stop; a trip whose visit order is found by trying every order of the stops that keeps the
order rule, legs routed once each, and that finds every stop open on arrival when a time is set.
"""

from __future__ import annotations

from datetime import timedelta
from itertools import permutations

from asgiref.sync import sync_to_async

from ..heuristic.shapes import open_guess, ref
from .ask import Ask
from .tags import tag_hits

ANY_NOUN_RADIUS = 1000.0  # "the nearest place for that" with no radius: the first 20 places within this
ROUTE_BUFFER = 300.0
OPEN_CHECKS = 4  # places whose hours are read, at most, when the question sets a time


def _types(ask: Ask) -> list[str] | None:
    kind = ask.reading.type_word()
    return [kind[1]] if kind else None


async def candidates(run, ask: Ask) -> tuple[list[dict], set[str]]:
    """(candidates in the tool's order, ids of those whose visible tags speak of the want)."""
    tags = await sync_to_async(tag_hits)(run.tools.city, ask.words)  # the table reads the city once
    if ask.shape == "options":
        return [n.record for n in ask.options], set()
    if ask.shape == "nearby":
        assert ask.anchor is not None
        radius = min(ask.reading.radius() or ANY_NOUN_RADIUS, 5000.0)
        params = {"center": ask.anchor.place_id, "radius_meters": radius, "place_types": _types(ask)}
    else:
        assert ask.start is not None and ask.end is not None
        center = {"start": ask.start.place_id, "end": ask.end.place_id, "vehicle": ask.reading.vehicle() or "driving"}
        params = {"center": center, "radius_meters": ROUTE_BUFFER, "place_types": _types(ask)}
    found = await run.call("nearby_search", **params)
    named = {n.place_id for n in ask.names}
    places = [r for r in (found or {}).get("results") or [] if r["place_id"] not in named]
    tagged: set[str] = set()
    if tags and places:
        hit = await run.call("nearby_search", **params, geo_tag=tags)
        tagged = {r["place_id"] for r in (hit or {}).get("results") or []}
    return places, tagged


def calls_to_answer(ask: Ask) -> int:
    """Calls the answer needs after the choice (submit_answer included)."""
    if ask.shape in ("options",):
        return 1
    if ask.shape == "nearby":
        return 1 + (OPEN_CHECKS if ask.reading.moment() else 0)
    if ask.shape == "route":
        return 1 + 2 + (2 * 2 if ask.reading.moment() else 0)
    middle = len(ask.stops) + 1
    legs = 2 * middle + middle * (middle - 1)
    return 1 + legs + (middle if ask.reading.moment() else 0)


def _cite(place: dict, reason: str, note_ids: list[str]) -> dict:
    out = ref(place, reason)
    if note_ids:
        out["ref"] = {"note_id": ",".join(note_ids), "implicit_logic": "True"}
    return out


async def answer_place(run, ask: Ask, preference: list[dict], cite: dict[str, list[str]], reason: str) -> None:
    """A single place: the first preference, or with a time set, the first one open over the stay."""
    chosen = preference[0]
    when = ask.reading.moment()
    if when is not None and ask.shape == "nearby":
        stay = timedelta(minutes=ask.stay_minutes())
        for place in preference[:OPEN_CHECKS]:
            detail = await run.call("place_detail", place_id=place["place_id"]) or {}
            hours = detail.get("opentime_week") or ""
            if open_guess(hours, when) and open_guess(hours, when + stay):
                chosen = place
                break
    run.answer = {"answer": chosen["name"], **_cite(chosen, reason, cite.get(chosen["place_id"], []))}


class _Legs:
    """Routed legs, each asked once: (from, to) -> {"total_distance_m", "total_time_s"}."""

    def __init__(self, run, ask: Ask):
        self.run, self.vehicle, self.mode = run, ask.reading.vehicle() or "driving", ask.reading.mode()
        self.legs: dict[tuple[str, str], dict | None] = {}

    async def get(self, a: str, b: str) -> dict | None:
        if (a, b) not in self.legs:
            self.legs[(a, b)] = await self.run.call(
                "routing", start_place_id=a, end_place_id=b, vehicle=self.vehicle, mode=self.mode
            )
        return self.legs[(a, b)]

    def cost(self, leg: dict) -> float:
        return leg["total_distance_m" if self.mode == "distance" else "total_time_s"]


async def _open_on_arrival(run, ask: Ask, legs: _Legs, order: list[dict], hours: dict[str, str]) -> bool:
    when = ask.reading.moment()
    if when is None:
        return True
    dwell = timedelta(minutes=ask.stay_minutes())
    clock = when
    for a, b in zip(order, order[1:]):
        leg = await legs.get(a["place_id"], b["place_id"])
        clock += timedelta(seconds=(leg or {}).get("total_time_s", 0.0))
        if b is order[-1]:
            break
        if b["place_id"] not in hours:
            detail = await run.call("place_detail", place_id=b["place_id"]) or {}
            hours[b["place_id"]] = detail.get("opentime_week") or ""
        if not open_guess(hours[b["place_id"]], clock):
            return False
        if ask.whole_stay and dwell and not open_guess(hours[b["place_id"]], clock + dwell - timedelta(minutes=1)):
            return False
        clock += dwell
    return True


async def answer_route(run, ask: Ask, preference: list[dict], cite: dict[str, list[str]], reason: str) -> None:
    """A route through the named stops and the preferred extra stop (none when ``preference`` is empty): every
    order of the stops that keeps the rules, the cheapest that is open on arrival (when a time is set); with a
    time, the next preference where none is."""
    assert ask.start is not None and ask.end is not None
    legs, hours = _Legs(run, ask), dict[str, str]()
    start, end, named = ask.start.record, ask.end.record, [n.record for n in ask.stops]
    first = preference[0] if preference else None
    named_order = [start, *named, *([first] if first else []), end]
    _write_route(run, ask, legs, named_order, first, cite, reason)  # kept if the calls run out
    extras: list[dict | None] = list(preference[:3] if ask.reading.moment() else preference[:1]) or [None]
    for extra in extras:
        best: tuple[float, list[dict]] | None = None
        for middle in permutations([*named, *([extra] if extra else [])]):
            if not _keeps_rules(ask, middle, extra):
                continue
            order = [start, *middle, end]
            total = 0.0
            for a, b in zip(order, order[1:]):
                leg = await legs.get(a["place_id"], b["place_id"])
                total += legs.cost(leg) if leg else float("inf")
            if (best is None or total < best[0]) and await _open_on_arrival(run, ask, legs, order, hours):
                best = (total, order)
        if best is not None:
            _write_route(run, ask, legs, best[1], extra, cite, reason)
            return


def _keeps_rules(ask: Ask, middle: tuple[dict, ...], extra: dict | None) -> bool:
    at = {p["place_id"]: i for i, p in enumerate(middle)}
    if any(at.get(a, -1) > at.get(b, len(middle)) for a, b in ask.pairs):
        return False
    if extra is None:
        return True
    x = at[extra["place_id"]]
    return not (any(at.get(pid, x + 1) <= x for pid in ask.before) or any(at.get(pid, x - 1) >= x for pid in ask.after))


def _write_route(run, ask: Ask, legs: _Legs, order: list[dict], extra: dict | None, cite: dict, reason: str) -> None:
    waypoints = [
        _cite(p, reason, cite.get(p["place_id"], [])) if p is extra else ref(p, "Named in the question.")
        for p in order[1:-1]
    ]
    answer = {
        "start": ref(order[0], "User-specified origin."),
        "end": ref(order[-1], "User-specified destination."),
        "waypoints": waypoints,
        "optimal_order": [
            {"name": p["name"], "place_id": p["place_id"], "visit_order": i + 1} for i, p in enumerate(order)
        ],
        "vehicle": legs.vehicle,
        "mode": legs.mode,
        "total_distance_m": 0.0,
        "total_time_s": 0.0,
    }
    for a, b in zip(order, order[1:]):
        leg = legs.legs.get((a["place_id"], b["place_id"])) or {}
        for key in ("total_distance_m", "total_time_s"):
            answer[key] = round(answer[key] + leg.get(key, 0.0), 1)
    run.answer = answer
