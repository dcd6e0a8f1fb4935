"""Place Perception: a value of a named place, comparisons, opening checks, choices by a need."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from kernel.opening import hours_are_valid, is_open_at

from . import margins
from .common import FAIL, PASS, Reject, answer_place, gold_fits, open_verdict, when
from .roads import cost_of
from .world import AuditWorld

_STREET_AND_NUMBER = re.compile(r"[^\W\d_]{3,}\.?\s+\d+", re.UNICODE)


WEEK = datetime(2026, 12, 7)  # the Monday of the week time-dependent questions are about
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def value_of(world: AuditWorld, place_id: str, field: str, day: str | None = None):
    """The value a place-L0 question asks for, read from the table; Reject when it says nothing."""
    place = world.place(place_id)
    if field == "postcode":
        codes = re.findall(r"\b\d{5}\b", place.address)
        if len(codes) != 1:
            raise Reject(
                "uninformative gold", f"the address of {place.name} ({place.address!r}) has no single postcode"
            )
        return codes[0]
    if field in ("opens_on", "closes_on", "open_on"):
        assert day is not None  # the generator names a day for these fields
        return _day_answer(place, field, day)
    if field == "cuisine":
        for part in place.tag.split(";"):
            label, _, value = part.strip().partition(":")
            if label.strip() == "Cuisine" and value.strip():
                return value.strip()
        raise Reject("no value", f"{place.name} has no cuisine")
    value = getattr(place, field)
    if value in (None, ""):
        raise Reject("no value", f"{place.name} has no {field}")
    if field == "address" and not _STREET_AND_NUMBER.search(value):
        raise Reject("uninformative gold", f"the address of {place.name} ({value!r}) names no street and number")
    if field == "place_type" and (value.split("|", 1)[-1].startswith("Other") or "|" not in value):
        raise Reject("uninformative gold", f"the type of {place.name} ({value!r}) is not specific")
    if field == "opentime_week" and not hours_are_valid(value):
        raise Reject("uninformative gold", f"the opening hours of {place.name} ({value!r}) do not parse")
    return value


def _day_answer(place, field: str, day: str):
    """Whether the place opens on the weekday, or its one opening or closing time that day ("HH:MM")."""
    if not hours_are_valid(place.opentime_week):
        raise Reject("uninformative gold", f"the opening hours of {place.name} do not parse")
    start = WEEK + timedelta(days=DAYS.index(day))
    open_minutes = []
    for minute in range(24 * 60):
        state = is_open_at(place.opentime_week, start + timedelta(minutes=minute))
        if state is None:
            raise Reject("uninformative gold", f"the hours of {place.name} cannot say {day} at {minute // 60:02d}:00")
        if state:
            open_minutes.append(minute)
    if field == "open_on":
        return bool(open_minutes)
    if (
        not open_minutes
        or open_minutes[0] == 0
        or open_minutes[-1] == 24 * 60 - 1
        or open_minutes[-1] - open_minutes[0] + 1 != len(open_minutes)
    ):
        raise Reject("uninformative gold", f"{place.name} has no single daytime opening on {day}")
    minute = open_minutes[0] if field == "opens_on" else open_minutes[-1] + 1
    return f"{minute // 60:02d}:{minute % 60:02d}"


def unique_name(world: AuditWorld, place_id: str) -> None:
    name = world.place(place_id).name
    same = world.named(name)
    if same != [place_id]:
        raise Reject("name not unique", f"the name {name!r} is not unique in the city (places {', '.join(same)})")


def attribute(world: AuditWorld, q: dict, answer) -> None:
    unique_name(world, q["place"])
    expected = value_of(world, q["place"], q["field"], q.get("day"))
    if answer.get("answer") != expected:
        raise Reject("wrong gold", f"the answer {answer.get('answer')!r} is not the {q['field']} {expected!r}")


def compare(world: AuditWorld, q: dict, answer) -> None:
    """The best of named places on a field, among those meeting a stated limit (which must bind)."""
    for pid in q["places"]:
        unique_name(world, pid)
    field = q["field"]
    places = {pid: world.place(pid) for pid in q["places"]}
    if any(getattr(p, field) is None for p in places.values()):
        raise Reject("no value", f"a compared place has no {field}")

    def better(pid: str) -> float:  # sort key, best first: the highest rating, the lowest cost
        value = getattr(places[pid], field)  # not None: checked above
        return -value if field == "rating" else value

    kept = [p for p in q["places"] if _meets(places[p], q)]
    if any(getattr(places[p], f) is None for p in q["places"] for f in ("rating", "cost") if q.get(_LIMIT[f])):
        raise Reject("no value", "a compared place lacks the value the limit is about")
    if len(kept) < 2:
        raise Reject("too close to call", f"{len(kept)} of the places meet the limit (at least two must)")
    ranked = sorted(kept, key=better)
    gap = abs(getattr(places[ranked[0]], field) - getattr(places[ranked[1]], field))
    need = margins.RATING if field == "rating" else margins.COST_EUR
    if gap < need - 1e-9:
        raise Reject("too close to call", f"the {field} of the best two differ by {gap:g}, less than {need:g}")
    if (q.get("max_cost") is not None or q.get("min_rating") is not None) and min(q["places"], key=better) == ranked[0]:
        raise Reject("rule does not bind", "the best place overall already meets the stated limit")
    _expect(answer, ranked[0], world)


_LIMIT = {"cost": "max_cost", "rating": "min_rating"}


def _meets(place, q: dict) -> bool:
    if q.get("max_cost") is not None and (place.cost is None or place.cost > q["max_cost"] + 1e-9):
        return False
    return q.get("min_rating") is None or (place.rating is not None and place.rating >= q["min_rating"] - 1e-9)


def open_on_arrival(world: AuditWorld, q: dict, answer) -> None:
    """Open or closed on arrival: from the stated departure (or the stated time plus a wait), through an
    optional stop with a dwell, to the place."""
    stops = [q["origin"], *([q["via"]] if q.get("via") else []), q["place"]]
    for pid in stops:
        unique_name(world, pid)
    depart = when(q.get("depart")) or datetime.fromisoformat(q["now"]) + timedelta(minutes=q["delay_min"])
    seconds = sum(world.roads.leg(a, b, q["vehicle"], "time")[1] for a, b in zip(stops, stops[1:]))
    arrival = depart + timedelta(seconds=seconds, minutes=q.get("dwell_min", 0))
    verdict = open_verdict(world.place(q["place"]).opentime_week, arrival)
    if verdict not in (PASS, FAIL):
        raise Reject(
            "opening state unsure",
            f"arrival at {arrival:%a %H:%M} is within {margins.OPEN_MIN} min of a "
            "change in the opening hours (or the hours cannot say)",
        )
    if answer.get("answer") is not (verdict == PASS):
        raise Reject(
            "wrong gold",
            f"the place is {'open' if verdict == PASS else 'closed'} on arrival at "
            f"{arrival:%a %H:%M}; the answer says {answer.get('answer')!r}",
        )
    stated = when(q.get("depart")) or datetime.fromisoformat(q["now"])
    if open_verdict(world.place(q["place"]).opentime_week, stated) != (FAIL if verdict == PASS else PASS):
        raise Reject(
            "travel does not matter",
            f"the place is already {'open' if verdict == PASS else 'closed'} (or may be) at the stated "
            f"{stated:%a %H:%M}: the travel time does not decide the answer",
        )
    _expect(answer, q["place"], world, value=False)


def open_choice(world: AuditWorld, q: dict, answer) -> None:
    """The one named place open at the moment asked (or on arrival, travelling from ``origin``)."""
    moment = datetime.fromisoformat(q["at"])
    verdicts = {}
    for pid in q["places"]:
        unique_name(world, pid)
        at = moment
        if q.get("origin"):
            at = moment + timedelta(seconds=world.roads.leg(q["origin"], pid, q["vehicle"], "time")[1])
        verdicts[pid] = open_verdict(world.place(pid).opentime_week, at)
    open_ = [p for p, v in verdicts.items() if v != FAIL]
    if len(open_) != 1 or verdicts[open_[0]] != PASS:
        raise Reject("opening state unsure", f"exactly one place must surely be open; open or unsure: {open_}")
    _expect(answer, open_[0], world)


def closer(world: AuditWorld, q: dict, answer) -> None:
    for pid in (q["origin"], *q["places"]):
        unique_name(world, pid)
    legs = world.roads.legs_from(q["origin"], q["places"], q["vehicle"], q["mode"])
    if len(legs) != len(q["places"]):
        raise Reject("unreachable", "a compared place cannot be reached")
    ranked = sorted(legs, key=lambda p: cost_of(legs[p], q["mode"]))
    best, second = (cost_of(legs[p], q["mode"]) for p in ranked[:2])
    if second - best < margins.route_margin(best, q["mode"]):
        raise Reject("too close to call", f"the two closest are too close to call ({best:.0f} vs {second:.0f})")
    _expect(answer, ranked[0], world)


def budget(world: AuditWorld, q: dict, answer) -> None:
    total = 0.0
    for pid, people in q["items"]:
        unique_name(world, pid)
        cost = world.place(pid).cost
        if cost is None:
            raise Reject("no value", f"{world.place(pid).name} has no cost")
        total += cost * people
    if abs(total - q["budget"]) < margins.BUDGET_EUR:
        raise Reject("too close to call", f"the total {total:g} EUR is within {margins.BUDGET_EUR:g} EUR of the budget")
    if answer.get("answer") is not (total <= q["budget"]):
        raise Reject(
            "wrong gold",
            f"the total is {total:g} EUR for a budget of {q['budget']} EUR; the answer says {answer.get('answer')!r}",
        )


def need_choice(world: AuditWorld, q: dict, answer) -> None:
    """The one named option that holds the need; the others look like it and some have talk about it."""
    from benchmark.cases.needs import need_of

    from .common import lookalikes
    from .evidence import check_l2

    for pid in q["places"]:
        unique_name(world, pid)
    holders = world.holders(need_of(q["need"]).satisfied_by)
    chosen = [p for p in q["places"] if p in holders]
    if len(chosen) != 1:
        raise Reject(
            "rival meets the need", f"{len(chosen)} of the named options meet the need {q['need']} (exactly one must)"
        )
    problems = gold_fits(world, chosen[0], q.get("noun"), q["need"])
    if problems:
        raise Reject("gold does not fit", "; ".join(problems))
    _expect(answer, chosen[0], world)
    alike = set(lookalikes(world, q.get("noun"), q["need"])) & set(q["places"])
    check_l2(world, gold=chosen[0], need=q["need"], lookalikes=alike)


def _expect(answer, place_id: str, world: AuditWorld, *, value: bool = True) -> None:
    got = answer_place(answer)
    name = world.place(place_id).name
    if got != place_id or (value and answer.get("answer") != name):
        raise Reject("wrong gold", f"the right answer is {name} ({place_id}); the case answers {got}")
