"""Pieces the verifier's solvers share: candidate sets, filter verdicts, reading the gold."""

from __future__ import annotations

from datetime import datetime, timedelta

from benchmark.cases.lexicon import ACCEPT, errand_noun, noun_of
from benchmark.cases.needs import need_of

from . import margins
from .world import AuditWorld, open_state

PASS, UNSURE, FAIL = "pass", "unsure", "fail"


class Reject(Exception):
    """The case fails verification: ``kind`` names the problem (it groups discards), ``detail`` says it
    for this case."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


def noun_candidates(world: AuditWorld, noun_key: str, errand: str | None = None) -> dict[str, str]:
    """{place_id: ACCEPT or MIGHT} of every place in the city a reader could take for the noun (or for the
    errand that stands for it)."""
    cache = world.__dict__.setdefault("_noun_cache", {})
    if (noun_key, errand) not in cache:
        noun = errand_noun(errand) if errand else noun_of(noun_key)
        found = {}
        for pid, place in world.places.items():
            verdict = noun.match(place.record())
            if verdict:
                found[pid] = verdict
        cache[noun_key, errand] = found
    return cache[noun_key, errand]


def candidates(
    world: AuditWorld, noun: str | None, need: str | None, errand: str | None = None, *, at: datetime | None = None
) -> dict[str, str]:
    """{place_id: ACCEPT or MIGHT}: places of the noun (any place without one) holding the need at ``at``."""
    pool = dict(noun_candidates(world, noun, errand)) if noun else {pid: ACCEPT for pid in world.places}
    if need:
        holders = world.holders(need_of(need).satisfied_by, at)
        pool = {pid: v for pid, v in pool.items() if pid in holders}
    return pool


def lookalikes(world: AuditWorld, noun: str | None, need: str, at: datetime | None = None) -> list[str]:
    """Places a reader without notes could take for an answer: accepted for the noun (any place without one),
    where the need fits, and that do not hold it at ``at``."""
    spec = need_of(need)
    pool = noun_candidates(world, noun) if noun else {pid: ACCEPT for pid in world.places}
    holders = world.holders(spec.satisfied_by, at)
    return sorted(
        pid
        for pid, verdict in pool.items()
        if verdict == ACCEPT and pid not in holders and spec.fits(world.place(pid).record())
    )


def gold_fits(
    world: AuditWorld, place_id: str, noun: str | None, need: str | None, at: datetime | None = None
) -> list[str]:
    """Why the gold place is not a proper answer for the noun and the need (empty when it is)."""
    place = world.place(place_id)
    problems = []
    if noun and noun_of(noun).match(place.record()) != ACCEPT:
        problems.append(f"{place.name} ({place.place_type}) is not {noun_of(noun).article()}")
    if need:
        if need not in world.facts_at(at).get(place_id, set()):
            problems.append(f"{place.name} does not hold {need} under the evidence rule")
        if not need_of(need).fits(place.record()):
            problems.append(f"the need {need} does not fit {place.name} ({place.place_type})")
    return problems


def rating_verdict(rating, minimum) -> str:
    if minimum is None:
        return PASS
    return PASS if rating is not None and rating >= float(minimum) - 1e-9 else FAIL


def cost_verdict(cost, maximum) -> str:
    if maximum is None:
        return PASS
    return PASS if cost is not None and cost <= float(maximum) + 1e-9 else FAIL


def radius_verdict(distance: float, radius) -> str:
    if radius is None:
        return PASS
    band = margins.radius_band(float(radius))
    if distance <= float(radius) - band:
        return PASS
    return FAIL if distance > float(radius) + band else UNSURE


def open_verdict(hours: str, when: datetime | None) -> str:
    """PASS when surely open at ``when`` (+/- the margin), FAIL when surely closed, else UNSURE.

    A place without usable hours is UNSURE: nobody can tell whether it is open."""
    if when is None:
        return PASS
    state = open_state(hours, when, margins.OPEN_MIN)
    return PASS if state is True else FAIL if state is False else UNSURE


def open_span_verdict(hours: str, start: datetime | None, minutes: int) -> str:
    """PASS when surely open from ``start`` for ``minutes`` (checked every 5 minutes, with the margin at both
    ends), FAIL when surely closed at some point of it, else UNSURE."""
    if start is None or not minutes:
        return open_verdict(hours, start)
    moments = [start + timedelta(minutes=m) for m in range(0, minutes, 5)] + [start + timedelta(minutes=minutes - 1)]
    return combine(*(open_verdict(hours, m) for m in moments))


def combine(*verdicts: str) -> str:
    return FAIL if FAIL in verdicts else UNSURE if UNSURE in verdicts else PASS


def when(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def answer_place(answer) -> str | None:
    """The single place a place-valued answer names."""
    if isinstance(answer, dict) and isinstance(answer.get("place_id"), str):
        return answer["place_id"]
    return None
