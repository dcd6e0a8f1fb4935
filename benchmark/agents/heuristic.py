"""The heuristic agent: a no-model floor, not a contender.

It reads only ``task.question`` and the tools. Regular expressions pull place names, type nouns,
the vehicle, the mode, a radius and rating/cost thresholds out of the question's wording; each
question shape then gets one fixed tool recipe. There is no reasoning and it never reads notes:
implicit needs ("somewhere I can work on my laptop") are answered with the first plausible
candidate, trips are routed in the order the stops are mentioned (no optimisation) and opening
hours get a crude check that guesses "open" when the text is too hard. It always ends with
submit_answer, with whatever partial answer it has. Deterministic: same question, same calls.
"""
from __future__ import annotations

import re
import unicodedata

from .base import AgentOutcome, AgentTask, agent
from .toolbox import BudgetExhausted

VEHICLE = re.compile(r"\b(on foot|walking|by bike|cycling|by car|driving)\b", re.I)
VEHICLES = {"on foot": "walking", "walking": "walking", "by bike": "cycling", "cycling": "cycling",
            "by car": "driving", "driving": "driving"}
RADIUS = re.compile(r"\b(\d+(?:\.\d+)?) ?(?:m|metres|meters)\b")
MIN_RATING = re.compile(r"rat(?:ing|ed)(?: of)?(?: at least)? (\d(?:\.\d+)?)")
MAX_COST = re.compile(r"at most (\d+(?:\.\d+)?) EUR")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_CODES = ("mo", "tu", "we", "th", "fr", "sa", "su")
_END = r"(?=, |[.;:?] |\?$| and need | with a stop| (?:on foot|by bike|by car|walking|cycling|driving)\b)"

ROUTE_SHAPES = (  # (start, end, named stops in between)
    r"Starting at (?P<a>.+?) and ending at (?P<b>.+?), I need to visit (?P<w>.+?)\. ",
    r"from (?P<a>.+?) to (?P<b>.+?), stopping at (?P<w>.+?)\. ",
    r"begin at (?P<a>.+?), finish at (?P<b>.+?), and visit (?P<w>.+?) in between",
    r"leaving (?P<a>.+?) and heading to (?P<b>.+?)" + _END,
    r"\bfrom (?P<a>.+?) to (?P<b>.+?)" + _END,
)
TOUR_SHAPES = (  # start, a plural or singular type noun, a minimum rating
    r"Starting from (?P<s>.+?), I want to visit every (?P<t>.+?) in the area rated (?P<x>\d(?:\.\d+)?)",
    r"From (?P<s>.+?), take me to all the (?P<t>.+?) with a rating of at least (?P<x>\d(?:\.\d+)?)",
    r"tour of the best (?P<t>.+?) \(rating (?P<x>\d(?:\.\d+)?)\+\) starting at (?P<s>.+?)\. ",
)
NEARBY_ANCHORS = (r"nearest .+? to (?P<a>.+?)\? Look", r"I'm (?:at|near) (?P<a>.+?)(?:\. | and I want)",
                  r"within \d+ (?:m|metres) of (?P<a>.+?)(?: with | has | where |[.?]$)", r"Near (?P<a>.+?) \(at most")
NEARBY_TYPES = (r"nearest (?P<t>.+?) to ", r"Which (?P<t>.+?) is closest", r"closest (?P<t>.+?) within",
                r"(?:Find an?|Is there an?|Which) (?P<t>.+?) within")
OPEN_AT = (r"Will (?P<n>.+?) be open on ", r"Can I drop by (?P<n>.+?) on \w+day ", r"Is (?P<n>.+?) open at \d")
COMPARE = (r"Which is (?:rated higher|cheaper per person), (?P<a>.+?) or (?P<b>.+?)\?$",
           r"Between (?P<a>.+?) and (?P<b>.+?), which one", r"only go to one: (?P<a>.+?) or (?P<b>.+?)\. Which",
           r"Is (?P<a>.+?) or (?P<b>.+?) the more affordable", r"On a budget: (?P<a>.+?) or (?P<b>.+?), which")
ATTRIBUTES = (
    (r"opening (?:hours|times) (?:of|for) (?P<n>.+?)\?", "opentime_week"),
    (r"When is (?P<n>.+?) open during the week", "opentime_week"),
    (r"What rating does (?P<n>.+?) have", "rating"), (r"How well is (?P<n>.+?) rated", "rating"),
    (r"rating of (?P<n>.+?)\?", "rating"),
    (r"(?:a visit to|spend per person at|how much per person at) (?P<n>.+?)(?: cost per person|\?)", "cost"),
    (r"address of (?P<n>.+?)\?", "address"), (r"Where exactly is (?P<n>.+?)\?", "address"),
    (r"street address is (?P<n>.+?) at\?", "address"),
    (r"(?:kind of place|type of business) is (?P<n>.+?)\?", "place_type"), (r"Is (?P<n>.+?) a shop, a", "place_type"),
    (r"cuisine does (?P<n>.+?) serve", "tag:Cuisine"), (r"kind of food can I get at (?P<n>.+?)\?", "tag:Cuisine"),
    (r"Which cuisine is (?P<n>.+?) known for", "tag:Cuisine"),
)
CHOICE = (r"Which of (?P<o>.+?) is the better pick", r"Should I go to (?P<o>.+?)\?$", r"choose between (?P<o>.+?): ")


class _OutOfCalls(Exception):
    """Only the call reserved for submit_answer is left."""


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def _first(patterns, question: str) -> re.Match | None:
    return next((m for p in patterns if (m := re.search(p, question))), None)


def _names(listing: str, last_joiner: str) -> list[str]:
    """'A, B and C' -> [A, B, C]; only the last joiner splits, so 'Fish and Chips, Bar' survives."""
    *head, last = listing.split(", ")
    return [n for n in [*head, *last.rsplit(f" {last_joiner} ", 1)] if n]


def _singular(noun: str) -> str:
    for plural, single in (("ies", "y"), ("ses", "s"), ("shes", "sh"), ("ches", "ch"), ("xes", "x"), ("s", "")):
        if noun.endswith(plural):
            return noun[: -len(plural)] + single
    return noun


def _ref(place: dict | None, reason: str) -> dict:
    return {"name": place["name"], "place_id": place["place_id"], "reason": reason} if place else {}


class _Run:
    """The agent's state for one question: its tools and the answer it has so far."""

    def __init__(self, tools, question: str):
        self.tools, self.q, self.answer, self.shape = tools, question, {}, "unrecognised"

    async def call(self, tool: str, **arguments) -> dict | None:
        if self.tools.used >= self.tools.budget - 1:
            raise _OutOfCalls
        observation, is_error = await self.tools.call(tool, arguments)
        return None if is_error else observation

    async def place(self, name: str) -> dict | None:
        """The place_search hit whose name equals ``name``, else the first hit."""
        name = name.strip(" \"'")
        found = await self.call("place_search", query_name=name)
        results = (found or {}).get("results") or []
        return next((r for r in results if _fold(r["name"]) == _fold(name)), results[0] if results else None)

    async def nearby(self, center, radius: float, types: list[str] | None = None, exclude=()) -> dict | None:
        filters = {k: float(m[1]) for k, m in (("min_rating", MIN_RATING.search(self.q)),
                                                ("max_cost", MAX_COST.search(self.q))) if m}
        found = await self.call("nearby_search", center=center, radius_meters=radius, place_types=types, **filters)
        return next((r for r in (found or {}).get("results") or [] if r["place_id"] not in exclude), None)

    def vehicle_mode(self) -> tuple[str, str]:
        match = VEHICLE.search(self.q)
        vehicle = VEHICLES[match[1].lower()] if match else "driving"
        return vehicle, "distance" if "shortest" in self.q.lower() else "time"

    def radius(self, default: float) -> float:
        match = RADIUS.search(self.q)
        return min(float(match[1]), 5000.0) if match else default

    async def route(self, stops: list[dict], waypoints: list[dict], vehicle: str, mode: str) -> None:
        """Route ``stops`` in the given order, leg by leg, and write the figure-9 answer."""
        if not stops:
            return
        self.answer = {"start": _ref(stops[0], "User-specified origin."),
                       "end": _ref(stops[-1], "User-specified destination."), "waypoints": waypoints,
                       "optimal_order": [{"name": p["name"], "place_id": p["place_id"], "visit_order": i + 1}
                                         for i, p in enumerate(stops)],
                       "vehicle": vehicle, "mode": mode, "total_distance_m": 0.0, "total_time_s": 0.0}
        for a, b in zip(stops, stops[1:]):
            leg = await self.call("routing", start_place_id=a["place_id"], end_place_id=b["place_id"],
                                  vehicle=vehicle, mode=mode)
            for key in ("total_distance_m", "total_time_s"):
                self.answer[key] = round(self.answer[key] + (leg or {}).get(key, 0.0), 1)


async def _tour(run: _Run) -> bool:
    if not (m := _first(TOUR_SHAPES, run.q)):
        return False
    start = await run.place(m["s"])
    found = await run.call("place_search", query_name="", place_types=[_singular(m["t"])], min_rating=float(m["x"]))
    targets = [r for r in (found or {}).get("results", []) if not start or r["place_id"] != start["place_id"]]
    stops = [p for p in (start, *targets) if p]
    await run.route(stops, [_ref(t, f"Rated {t['rating']} (at least {m['x']}).") for t in targets],
                    *run.vehicle_mode())
    return True


async def _route(run: _Run) -> bool:
    if not (m := _first(ROUTE_SHAPES, run.q)):
        return False
    vehicle, mode = run.vehicle_mode()
    start, end = await run.place(m["a"]), await run.place(m["b"])
    also = m.groupdict().get("w") or (x[1] if (x := re.search(r"I also need to stop at (.+?)\. ", run.q)) else "")
    named = [p for n in (_names(also, "and") if also else []) if (p := await run.place(n))]
    waypoints = [_ref(p, "User asked to visit it.") for p in named]
    if start and end:
        center = {"start": start["place_id"], "end": end["place_id"], "vehicle": vehicle}
        kind = re.search(r"(?:stop at|drop by) an? (.+?) (?:on the way|within|no more than|\()", run.q)
        taken = {p["place_id"] for p in (start, end, *named)}
        stop = None
        if kind:
            stop = await run.nearby(center, min(run.radius(100), 1000), [kind[1]], taken)
        elif re.search(r"(?:on|along) the way", run.q, re.I):  # an implicit need: take the nearest place
            stop = await run.nearby(center, min(run.radius(100), 1000), None, taken)
        if stop:
            named.append(stop)
            waypoints.append(_ref(stop, f"The first {kind[1] if kind else 'place'} found along the route."))
    await run.route([p for p in (start, *named, end) if p], waypoints, vehicle, mode)
    return True


async def _nearby(run: _Run) -> bool:
    if not (m := _first(NEARBY_ANCHORS, run.q)) or not RADIUS.search(run.q):
        return False
    anchor = await run.place(m["a"])
    kind = _first(NEARBY_TYPES, run.q)
    if anchor:
        hit = await run.nearby(anchor["place_id"], run.radius(300), [kind["t"]] if kind else None)
        run.answer = _ref(hit, f"The first match near {anchor['name']}.")
    return True


def _days(spec: str) -> set[int] | None:
    """'Mo-Fr,Su' -> {0, 1, 2, 3, 4, 6}; '' -> every day; holidays (PH, SH) -> none; None when unreadable."""
    days = set()
    for part in filter(None, spec.lower().split(",")):
        ends = part.split("-")
        if part in ("ph", "sh"):
            continue
        if len(ends) > 2 or any(e not in DAY_CODES for e in ends):
            return None
        first, last = DAY_CODES.index(ends[0]), DAY_CODES.index(ends[-1])
        days.update(d % 7 for d in range(first, last + 1 + (7 if last < first else 0)))
    return days if spec else set(range(7))


def _open_guess(hours: str, day: int, minute: int) -> bool:
    """A crude opening_hours reading; guesses open whenever the text is beyond it."""
    verdict = not hours.strip() or "24/7" in hours
    for rule in filter(str.strip, re.split(r";|,\s+(?=[A-Za-z])", hours)):
        m = re.fullmatch(r"\s*([A-Za-z,\-]*)\s*(off|closed|(?:\d{1,2}:\d\d-\d{1,2}:\d\d[, ]*)+)\s*", rule)
        days = _days(m[1]) if m else None
        if days is None:
            return True
        if day in days:  # a later rule for the same day overrides an earlier one, as in OSM
            verdict = False
            for h1, m1, h2, m2 in re.findall(r"(\d{1,2}):(\d\d)-(\d{1,2}):(\d\d)", m[2]):
                opens, closes = int(h1) * 60 + int(m1), int(h2) * 60 + int(m2)
                verdict |= opens <= minute < (closes if closes > opens else closes + 1440)
    return verdict


async def _open_at(run: _Run) -> bool:
    day = re.search(r"\b(" + "|".join(DAYS) + r")\b", run.q, re.I)
    clock = re.search(r"\b(\d{1,2}):(\d\d)\b", run.q)
    if not (m := _first(OPEN_AT, run.q)) or not day or not clock:
        return False
    if place := await run.place(m["n"]):
        detail = await run.call("place_detail", place_id=place["place_id"]) or {}
        hours = detail.get("opentime_week") or ""
        is_open = _open_guess(hours, DAYS.index(day[1].lower()), int(clock[1]) * 60 + int(clock[2]))
        run.answer = {"answer": is_open, **_ref(place, f"Opening hours {hours!r}, read by a simple check.")}
    return True


async def _compare(run: _Run) -> bool:
    if not (m := _first(COMPARE, run.q)):
        return False
    key = "cost" if re.search(r"cheaper|affordable|costs less", run.q) else "rating"
    scored = []
    for name in (m["a"], m["b"]):
        if place := await run.place(name):
            detail = await run.call("place_detail", place_id=place["place_id"]) or {}
            if detail.get(key) is not None:
                scored.append(((detail[key] if key == "rating" else -detail[key]), place))
    if scored:
        winner = max(scored, key=lambda s: s[0])[1]
        run.answer = {"answer": winner["name"], **_ref(winner, f"Compared {key} from place_detail.")}
    return True


async def _attribute(run: _Run) -> bool:
    match, key = next(((m, k) for p, k in ATTRIBUTES if (m := re.search(p, run.q))), (None, None))
    if not match:
        return False
    if place := await run.place(match["n"]):
        detail = await run.call("place_detail", place_id=place["place_id"]) or {}
        if key == "tag:Cuisine":
            parts = [p for p in (detail.get("tag") or "").split("; ") if p.startswith("Cuisine: ")]
            value = parts[0].split(": ", 1)[1] if parts else None
        else:
            value = detail.get(key)
        run.answer = {"answer": value, **_ref(place, f"Read {key} from place_detail.")}
    return True


async def _choice(run: _Run) -> bool:
    if not (m := _first(CHOICE, run.q)):
        return False
    if place := await run.place(_names(m["o"], "or")[0]):  # cannot judge the need: the first option
        run.answer = {"answer": place["name"], **_ref(place, "The first option named (no notes were read).")}
    return True


# Order matters: a choice's need may say "from the rain to ...", routes mention "within 100 m of the
# route", and a nearby filter reads "a rating of at least 4.0?": the specific shapes go first.
SHAPES = (_choice, _tour, _route, _nearby, _open_at, _compare, _attribute)


@agent("heuristic")
async def heuristic_agent(task: AgentTask) -> AgentOutcome:
    run = _Run(task.tools, " ".join(task.question.split()))
    try:
        for shape in SHAPES:
            if await shape(run):
                run.shape = shape.__name__.lstrip("_")
                break
    except (_OutOfCalls, BudgetExhausted):
        pass  # submit what there is
    try:
        _, is_error = await task.tools.call("submit_answer", {"result": run.answer})
    except BudgetExhausted as exc:
        return AgentOutcome(final_answer=run.answer, ended="budget_exhausted", error=str(exc),
                            notes={"shape": run.shape})
    return AgentOutcome(final_answer=task.tools.submitted if not is_error else run.answer,
                        ended="invalid_answer" if is_error else "submitted", notes={"shape": run.shape})
