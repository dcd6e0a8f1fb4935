"""Place Perception: a value of a named place, comparisons, opening checks, choices by a need."""
from __future__ import annotations

import re
from datetime import timedelta

from environment.opening import hours_are_valid

from . import margins
from .common import FAIL, PASS, Reject, answer_place, gold_fits, open_verdict, when
from .roads import cost_of
from .world import AuditWorld

_STREET_AND_NUMBER = re.compile(r"[^\W\d_]{3,}\.?\s+\d+", re.UNICODE)


def value_of(world: AuditWorld, place_id: str, field: str):
    """The value a place-L0 question asks for, read from the table; Reject when it says nothing."""
    place = world.place(place_id)
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


def unique_name(world: AuditWorld, place_id: str) -> None:
    name = world.place(place_id).name
    same = world.named(name)
    if same != [place_id]:
        raise Reject("name not unique", f"the name {name!r} is not unique in the city (places {', '.join(same)})")


def attribute(world: AuditWorld, q: dict, answer) -> None:
    unique_name(world, q["place"])
    expected = value_of(world, q["place"], q["field"])
    if answer.get("answer") != expected:
        raise Reject("wrong gold", f"the answer {answer.get('answer')!r} is not the {q['field']} {expected!r}")


def compare(world: AuditWorld, q: dict, answer) -> None:
    for pid in q["places"]:
        unique_name(world, pid)
    field = q["field"]
    values = {pid: getattr(world.place(pid), field) for pid in q["places"]}
    if None in values.values():
        raise Reject("no value", f"a compared place has no {field}")
    ranked = sorted(values, key=lambda p: -values[p] if field == "rating" else values[p])
    best, second = ranked[0], ranked[1]
    gap = abs(values[best] - values[second])
    need = margins.RATING if field == "rating" else margins.COST_EUR
    if gap < need - 1e-9:
        raise Reject("too close to call", f"the {field} of the best two ({values[best]}, {values[second]}) differ by less than {need}")
    _expect(answer, best, world)


def open_on_arrival(world: AuditWorld, q: dict, answer) -> None:
    for pid in (q["origin"], q["place"]):
        unique_name(world, pid)
    distance, seconds = world.roads.leg(q["origin"], q["place"], q["vehicle"], "time")
    arrival = when(q["depart"]) + timedelta(seconds=seconds)
    verdict = open_verdict(world.place(q["place"]).opentime_week, arrival)
    if verdict not in (PASS, FAIL):
        raise Reject("opening state unsure", f"arrival at {arrival:%a %H:%M} is within {margins.OPEN_MIN} min of a change in the opening "
                     "hours (or the hours cannot say)")
    if answer.get("answer") is not (verdict == PASS):
        raise Reject("wrong gold", f"the place is {'open' if verdict == PASS else 'closed'} on arrival at {arrival:%a %H:%M}; "
                     f"the answer says {answer.get('answer')!r}")
    _expect(answer, q["place"], world, value=False)


def open_choice(world: AuditWorld, q: dict, answer) -> None:
    moment = when(q["at"])
    verdicts = {}
    for pid in q["places"]:
        unique_name(world, pid)
        verdicts[pid] = open_verdict(world.place(pid).opentime_week, moment)
    open_ = [p for p, v in verdicts.items() if v != FAIL]
    if len(open_) != 1 or verdicts[open_[0]] != PASS:
        raise Reject("opening state unsure", f"exactly one place must surely be open at {moment:%a %H:%M}; open or unsure: {open_}")
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
        raise Reject("wrong gold", f"the total is {total:g} EUR for a budget of {q['budget']} EUR; the answer says "
                     f"{answer.get('answer')!r}")


def need_choice(world: AuditWorld, q: dict, answer) -> None:
    from benchmark.cases.needs import need_of

    for pid in q["places"]:
        unique_name(world, pid)
    holders = world.holders(need_of(q["need"]).satisfied_by)
    chosen = [p for p in q["places"] if p in holders]
    if len(chosen) != 1:
        raise Reject("rival meets the need", f"{len(chosen)} of the named options meet the need {q['need']} (exactly one must)")
    problems = gold_fits(world, chosen[0], q.get("noun"), q["need"])
    if problems:
        raise Reject("gold does not fit", "; ".join(problems))
    _expect(answer, chosen[0], world)


def _expect(answer, place_id: str, world: AuditWorld, *, value: bool = True) -> None:
    got = answer_place(answer)
    name = world.place(place_id).name
    if got != place_id or (value and answer.get("answer") != name):
        raise Reject("wrong gold", f"the right answer is {name} ({place_id}); the case answers {got}")
