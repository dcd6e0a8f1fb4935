"""The question must say what the query holds: every named place, noun, number, time and mode."""

from __future__ import annotations

from datetime import datetime

from benchmark.cases.lexicon import MODE_WORDS, VEHICLE_WORDS, noun_of
from benchmark.cases.phrasings import stay_minutes

from .world import NOW, AuditWorld

_PLACE_FIELDS = ("place", "origin", "via", "center", "start", "end")
_LIST_FIELDS = ("places", "stops")


def wording_failures(world: AuditWorld, question: str, query: dict) -> list[str]:
    text = question.casefold()
    failures = []
    for pid in _place_ids(query):
        name = world.places[pid].name if pid in world.places else pid
        if name.casefold() not in text:
            failures.append(f"wording: the question does not name {name} ({pid})")
    for part in _parts(query):
        if part.get("errand"):
            if part["errand"].casefold() not in text:
                failures.append(f"wording: the question does not say the errand {part['errand']!r}")
        elif part.get("noun"):
            n = noun_of(part["noun"])
            if n.singular.casefold() not in text and n.plural.casefold() not in text:
                failures.append(f"wording: the question does not say {n.singular!r}")
    for phrase in _phrases(query):
        if phrase.casefold() not in text:
            failures.append(f"wording: the question does not carry the need's phrasing {phrase!r}")
    for label, value in _numbers(query):
        if _number_text(value) not in text:
            failures.append(f"wording: the question does not state the {label} {_number_text(value)}")
    for label, moment_text in _moments(query):
        moment = datetime.fromisoformat(moment_text)
        if moment.strftime("%H:%M") not in text or moment.strftime("%A").casefold() not in text:
            failures.append(f"wording: the question does not state the {label} ({moment:%A %H:%M})")
    if query.get("day") and query["day"].casefold() not in text:
        failures.append(f"wording: the question does not say the day ({query['day']})")
    vehicle, mode = query.get("vehicle"), query.get("mode")
    if (
        vehicle
        and query["kind"] in ("route", "detour", "trip", "open_on_arrival", "closer", "open_choice")
        and not any(w in text for w in VEHICLE_WORDS[vehicle])
    ):
        failures.append(f"wording: the question does not say the travel mode ({vehicle})")
    if mode and query["kind"] in ("route", "detour", "trip") and not any(w in text for w in MODE_WORDS[mode]):
        failures.append(f"wording: the question does not say what to optimise ({mode})")
    failures += _stay_failures(query)
    failures += _date_failures(query, text)
    if any("@0" in pair for pair in query.get("before") or []) and "extra stop" not in text:
        failures.append(
            "wording: a visit-order rule is about the implied stop but does not call it the extra stop "
            "(a pronoun could be read as the named stop before it: a rule naming one place twice)"
        )
    return failures


def _date_failures(query: dict, text: str) -> list[str]:
    """A need that a dated state (short-term fact) settles holds only on some days, and notes announce such
    states season after season: the question must say its day with the year."""
    from benchmark.cases.needs import need_of
    from environment.build.corpus.vocab import ALL_SPECS

    needs = [part["need"] for part in _parts(query) if part.get("need")]
    if not any(ALL_SPECS[need_of(n).key].kind == "short_term" for n in needs):
        return []
    moment = next((datetime.fromisoformat(v) for _, v in _moments(query)), NOW)
    day = f"{moment.day} {moment:%B %Y}".casefold()
    if day not in text:
        return [f"wording: a dated state decides the need, but the question does not say the date ({day})"]
    return []


def _stay_failures(query: dict) -> list[str]:
    """A phrasing that asks to stay ("read for hours") in a question with a moment: the place must be open for
    the whole stay, so the query must carry it (``stay_min``) and the solver checks it."""
    if not any(query.get(key) for key in ("depart", "open_at", "at", "now")):
        return []
    failures = []
    for part in _parts(query):
        asked = stay_minutes(part.get("phrase") or "")
        if asked and max(part.get("stay_min") or 0, query.get("dwell_min") or 0, part.get("open_for_min") or 0) < asked:
            failures.append(
                f"stay not checked: the need's phrasing asks for about {asked} minutes there, but the case checks "
                "the opening hours only on arrival"
            )
    return failures


def _place_ids(query: dict) -> list[str]:
    ids = [query[f] for f in _PLACE_FIELDS if isinstance(query.get(f), str)]
    for field in _LIST_FIELDS:
        ids += list(query.get(field) or [])
    ids += [pid for pid, _ in query.get("items") or []]
    if isinstance(query.get("selection"), dict) and query["selection"].get("center"):
        ids.append(query["selection"]["center"])
    return list(dict.fromkeys(ids))


def _parts(query: dict) -> list[dict]:
    parts = [query]
    for key in ("stop", "selection"):
        if isinstance(query.get(key), dict):
            parts.append(query[key])
    parts += [p for p in query.get("implied") or [] if isinstance(p, dict)]
    return parts


def _phrases(query: dict) -> list[str]:
    return [p["phrase"] for p in _parts(query) if p.get("phrase")]


def _numbers(query: dict) -> list[tuple[str, float]]:
    found = []
    for part in _parts(query):
        for key, label in (
            ("radius_m", "radius"),
            ("min_rating", "minimum rating"),
            ("max_cost", "maximum cost"),
            ("budget", "budget"),
            ("delay_min", "wait in minutes"),
            ("dwell_min", "stay in minutes"),
        ):
            if part.get(key) is not None:
                found.append((label, part[key]))
    return found


def _moments(query: dict) -> list[tuple[str, str]]:
    return [
        (label, query[key])
        for key, label in (("depart", "departure time"), ("open_at", "time"), ("at", "time"), ("now", "time"))
        if query.get(key)
    ]


def _number_text(value: float) -> str:
    return f"{value:g}"
