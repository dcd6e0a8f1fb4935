"""The heuristic agent's fixed recipes, one per kind of question it recognises.

Each recipe is the obvious tool sequence for its kind, with no reasoning: the first plausible
place of a search is taken, stops are visited in the order the question names them (no
optimisation), an implicit need is met by the first place found (notes are never read), and
opening hours get a crude check that guesses "open" when the text is beyond it.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from .reading import DAYS, Reading

START = r"from|leaving|leave|start(?:ing)? (?:at|from)|begin at|setting off from|departing|i'm at|plan my \w+ \w+ \w+:"
END = r"\bto|end(?:ing)? at|finish at|heading to|for|then on to|reach|get to|end at"
FIELDS = (
    (r"postcode|postal code", "postcode"),
    (r"\b(?:close|shut|how late|until what time)", "closes_on"),
    (r"open at all|closed that day|does .* open on|open that day", "open_on"),
    (r"(?:what time|how early|from what time).*open|open its doors", "opens_on"),
    (r"opening (?:hours|times)|hours|\bopen\b", "opentime_week"),
    (r"address|which street", "address"),
    (r"cuisine|kind of food|style of food|menu", "cuisine"),
    (r"kind of place|type of business|sort of place|categor", "place_type"),
    (r"spend|cost|pricey|set you back|per head|per person", "cost"),
    (r"rating|rated|rate it|score|stars|any good", "rating"),
)


def ref(place: dict | None, reason: str) -> dict:
    return {"name": place["name"], "place_id": place["place_id"], "reason": reason} if place else {}


async def route_shape(run, r: Reading) -> bool:
    starts = [n for n in r.names if r.role(n, START)]
    start = starts[0] if starts else None
    ends = [n for n in r.names if n is not start and r.role(n, END)]
    end = ends[-1] if ends else None
    kind = r.type_word()
    if start and not end and kind and r.has(r"\bevery\b|\ball the\b|\btour\b|\bcrawl\b"):
        found = await run.call(
            "nearby_search",
            center=start.place_id,
            radius_meters=r.radius() or 1000,
            place_types=[kind[1]],
            **_rating(r),
        )
        targets = [x for x in (found or {}).get("results") or [] if x["place_id"] != start.place_id]
        await run.route([start.record, *targets], [ref(t, "Found by the search.") for t in targets], r)
        return True
    if not (start and end):
        return False
    stops = [n.record for n in r.names if n not in (start, end)]
    waypoints = [ref(p, "Named in the question.") for p in stops]
    center = {"start": start.place_id, "end": end.place_id, "vehicle": r.vehicle() or "driving"}
    taken = {start.place_id, end.place_id, *(p["place_id"] for p in stops)}
    extra = None
    if kind:
        extra = await run.first_nearby(center, r.radius() or 150, [kind[1]], taken, **_rating(r))
    elif r.has(r"on the way|along the way|somewhere"):  # an implicit need: the first place along the route
        extra = await run.first_nearby(center, 100, None, taken)
    if extra:
        stops.append(extra)
        waypoints.append(ref(extra, "The first match along the route."))
    await run.route([start.record, *stops, end.record], waypoints, r)
    return True


async def budget_shape(run, r: Reading) -> bool:
    people, euros = r.people(), r.euros()
    if len(r.names) < 2 or people is None or euros is None:
        return False
    costs = [cost for n in r.names if (cost := n.record.get("cost")) is not None]
    if len(costs) == len(r.names):
        run.answer = {"answer": sum(costs) * people <= euros, "reason": "Summed the costs per person."}
    return True


async def open_shape(run, r: Reading) -> bool:
    when = r.moment()
    if not r.names or when is None or not r.has(r"\bopen\b|closed|shut"):
        return False
    if len(r.names) == 1:  # "Will X be open at ...?": the place's hours at that moment
        place = r.names[0].record
        detail = await run.call("place_detail", place_id=place["place_id"]) or {}
        run.answer = {
            "answer": open_guess(detail.get("opentime_week") or "", when),
            **ref(place, "Checked the hours at that time."),
        }
        return True
    if len(r.names) == 2 and r.has(r"get there|arrive|reach|when I get|find it"):
        origin = next((n for n in r.names if r.role(n, START + r"|at")), r.names[0])
        dest = next(n for n in r.names if n is not origin)
        leg = await run.call(
            "routing",
            start_place_id=origin.place_id,
            end_place_id=dest.place_id,
            vehicle=r.vehicle() or "walking",
            mode="time",
        )
        detail = await run.call("place_detail", place_id=dest.place_id) or {}
        arrival = when + timedelta(seconds=(leg or {}).get("total_time_s", 0))
        run.answer = {
            "answer": open_guess(detail.get("opentime_week") or "", arrival),
            **ref(dest.record, "Checked the hours at the arrival time."),
        }
        return True
    for name in r.names:
        detail = await run.call("place_detail", place_id=name.place_id) or {}
        if open_guess(detail.get("opentime_week") or "", when):
            run.answer = {"answer": name.record["name"], **ref(name.record, "Its hours read as open then.")}
            break
    return True


async def compare_shape(run, r: Reading) -> bool:
    if len(r.names) < 2 or not r.has(r"rat(?:ed|ing)|reviews|cheap|afford|price|spend|costs? the least|least per"):
        return False
    key = "rating" if r.has(r"rat(?:ed|ing)|reviews") else "cost"
    scored = [n.record for n in r.names if n.record.get(key) is not None]
    if scored:
        best = max(scored, key=lambda p: p[key] if key == "rating" else -p[key])
        run.answer = {"answer": best["name"], **ref(best, f"Compared {key}.")}
    return True


async def closer_shape(run, r: Reading) -> bool:
    if len(r.names) != 3 or not r.has(r"shorter|quicker|faster|sooner|less far|nearer|less time"):
        return False
    origin = next((n for n in r.names if r.role(n, r"from|at")), r.names[0])
    costs = []
    for name in r.names:
        if name is not origin:
            leg = await run.call(
                "routing",
                start_place_id=origin.place_id,
                end_place_id=name.place_id,
                vehicle=r.vehicle() or "walking",
                mode=r.mode(),
            )
            if leg:
                costs.append((leg["total_distance_m" if r.mode() == "distance" else "total_time_s"], name.record))
    if costs:
        best = min(costs, key=lambda c: c[0])[1]
        run.answer = {"answer": best["name"], **ref(best, "The cheaper route.")}
    return True


async def choice_shape(run, r: Reading) -> bool:
    if len(r.names) < 2 or not r.has(r"\bor\b"):
        return False
    first = r.names[0].record  # the need cannot be judged without reading notes: the first option named
    run.answer = {"answer": first["name"], **ref(first, "The first option named.")}
    return True


async def nearby_shape(run, r: Reading) -> bool:
    if len(r.names) != 1:
        return False
    kind = r.type_word()
    if not (kind or r.radius() or r.has(r"near|closest|nearest")):
        return False
    anchor = r.names[0]
    found = await run.call(
        "nearby_search",
        center=anchor.place_id,
        radius_meters=min(r.radius() or 500, 5000),
        place_types=[kind[1]] if kind else None,
        **_rating(r),
        **_cost(r),
    )
    results = (found or {}).get("results") or []
    when = r.moment()
    if when is not None and results:  # "open now": the first result whose hours read as open
        for place in results[:5]:
            detail = await run.call("place_detail", place_id=place["place_id"]) or {}
            if open_guess(detail.get("opentime_week") or "", when):
                results = [place]
                break
    if r.has(r"best[- ]rated|top-rated|highest|best reviews|rate highest") and results:
        results = sorted(results, key=lambda p: -(p.get("rating") or 0))
    if results:
        run.answer = ref(results[0], f"The first match near {anchor.record['name']}.")
    return True


async def attribute_shape(run, r: Reading) -> bool:
    if len(r.names) != 1:
        return False
    field = next((f for pattern, f in FIELDS if r.has(pattern)), None)
    if field is None:
        return False
    place = r.names[0].record
    detail = await run.call("place_detail", place_id=place["place_id"]) or {}
    day = next((i for i, d in enumerate(DAYS) if re.search(rf"\b{d}", r.low)), None)
    if field == "cuisine":
        parts = [p for p in (detail.get("tag") or "").split("; ") if p.startswith("Cuisine: ")]
        value = parts[0].split(": ", 1)[1] if parts else None
    elif field == "postcode":
        codes = re.findall(r"\b\d{5}\b", detail.get("address") or "")
        value = codes[0] if codes else None
    elif field in ("closes_on", "opens_on", "open_on"):
        spans = day_spans(detail.get("opentime_week") or "", day) if day is not None else None
        value = (
            None
            if spans is None
            else bool(spans)
            if field == "open_on"
            else (spans[0][0] if field == "opens_on" else spans[-1][1])
            if spans
            else None
        )
    else:
        value = detail.get(field)
    run.answer = {"answer": value, **ref(place, f"Read {field} from place_detail.")}
    return True


async def search_shape(run, r: Reading) -> bool:
    kind = r.type_word()
    if r.names or not kind:
        return False
    found = await run.call("place_search", query_name="", place_types=[kind[1]], **_rating(r))
    results = (found or {}).get("results") or []
    if results:
        run.answer = {"answer": results[0]["name"], **ref(results[0], "The first match of the search.")}
    return True


# Specific shapes first: a route question also names places, a budget question also says "per person".
SHAPES = (
    route_shape,
    budget_shape,
    open_shape,
    compare_shape,
    closer_shape,
    choice_shape,
    nearby_shape,
    attribute_shape,
    search_shape,
)


def _rating(r: Reading) -> dict:
    rating = r.min_rating()
    return {"min_rating": rating} if rating is not None and 1 <= rating <= 5 else {}


def _cost(r: Reading) -> dict:
    cost = r.max_cost()
    return {"max_cost": cost} if cost is not None else {}


def _days(spec: str) -> set[int] | None:
    """'Mo-Fr,Su' -> {0, 1, 2, 3, 4, 6}; '' -> every day; holidays (PH, SH) -> none; None when unreadable."""
    codes = [d[:2] for d in DAYS]
    days: set[int] = set()
    for part in filter(None, spec.lower().split(",")):
        ends = part.split("-")
        if part in ("ph", "sh"):
            continue
        if len(ends) > 2 or any(e not in codes for e in ends):
            return None
        first, last = codes.index(ends[0]), codes.index(ends[-1])
        days.update(d % 7 for d in range(first, last + 1 + (7 if last < first else 0)))
    return days if spec else set(range(7))


def day_spans(hours: str, day: int) -> list[tuple[str, str]] | None:
    """The crude reading of one weekday's times: [("10:00", "18:00")]; [] when closed; None when unreadable."""
    spans: list[tuple[str, str]] | None = None if hours.strip() else []
    for rule in filter(str.strip, re.split(r";|,\s+(?=[A-Za-z])", hours)):
        m = re.fullmatch(r"\s*([A-Za-z,\-]*)\s*(off|closed|(?:\d{1,2}:\d\d-\d{1,2}:\d\d[, ]*)+)\s*", rule)
        days = _days(m[1]) if m else None
        if m is None or days is None:
            return None
        if day in days:  # a later rule for the same day overrides an earlier one, as in OSM
            spans = [
                (f"{int(h1):02d}:{m1}", f"{int(h2):02d}:{m2}")
                for h1, m1, h2, m2 in re.findall(r"(\d{1,2}):(\d\d)-(\d{1,2}):(\d\d)", m[2])
            ]
    return spans if spans is not None else []


def open_guess(hours: str, when: datetime) -> bool:
    """A crude opening_hours reading; guesses open whenever the text is beyond it."""
    spans = None if "24/7" in hours else day_spans(hours, when.weekday())
    if spans is None or not hours.strip():
        return True
    minute = when.hour * 60 + when.minute
    for start, end in spans:
        opens, closes = (int(t[:2]) * 60 + int(t[3:]) for t in (start, end))
        if opens <= minute < (closes if closes > opens else closes + 1440):
            return True
    return False
