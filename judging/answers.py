"""Read what an agent submitted (figure 9's format plus a direct ``answer`` value) into a PredictedAnswer.

Agents submit JSON strings, drop fields, add fields, give numbers as text, give a list where an
object belongs, name places without a place_id, or repeat places. ``normalise_answer`` accepts
all of that, keeps what it can, and writes one readable note per repair or loss in ``problems``.
It is pure: place names are resolved through the ``resolve_name`` callable the caller passes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

ResolveName = Callable[[str], str | None]

_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")  # 1,234
# 1 234 / 1'234: digit groups of a whole number only ("4.1 100" is two numbers, not 4.1100)
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:[\s\u00a0\u202f\u2009']\d{3})+(?![\d.,])")
_OUT_OF = re.compile(r"\(?\s*(?:/|out of)\s*5(?:[.,]0+)?\s*(?:stars?)?\s*\)?", re.IGNORECASE)
_BRACKETED = re.compile(r"\([^()]*\)")
_MINUS = str.maketrans({"\u2212": "-", "\u2013": "-"})
# Units a total may carry: the factor to the tool's unit (metres, seconds).
_UNITS = {
    "total_distance_m": (
        (re.compile(r"^\s*(km|kilometres?|kilometers?)\b", re.I), 1000.0),
        (re.compile(r"^\s*(m|metres?|meters?)\b", re.I), 1.0),
    ),
    "total_time_s": (
        (re.compile(r"^\s*(h|hrs?|hours?)\b", re.I), 3600.0),
        (re.compile(r"^\s*(min|mins|minutes?)\b", re.I), 60.0),
        (re.compile(r"^\s*(s|secs?|seconds?)\b", re.I), 1.0),
    ),
}
# The routing tool's words for a vehicle and an optimisation target, and the common words for them.
_SYNONYMS = {
    "vehicle": {
        **{w: "walking" for w in ("walking", "walk", "foot", "on foot", "by foot", "pedestrian")},
        **{w: "cycling" for w in ("cycling", "cycle", "bike", "bicycle", "by bike", "by bicycle", "biking")},
        **{w: "driving" for w in ("driving", "drive", "car", "by car")},
    },
    "mode": {
        **{
            w: "time"
            for w in ("time", "fastest", "fastest route", "quickest", "quickest route", "shortest time", "duration")
        },
        **{w: "distance" for w in ("distance", "shortest", "shortest route", "shortest distance", "length")},
    },
}
# Limits of a readable answer: beyond them the answer is invalid (scored 0, never an exception).
MAX_DEPTH = 20
MAX_NODES = 5000
MAX_TEXT = 20_000
MAX_DIGITS = 30
_ANSWER_FIELDS = {"start", "end", "waypoints", "optimal_order", "place_id", "name", "total_distance_m"}
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


@dataclass(frozen=True)
class PredictedAnswer:
    """An answer as the metrics read it: place_ids, visit order, direct value, route fields, citations.

    ``place_ids`` lists every place once, in the order answer place, start, waypoints, end,
    optimal_order. ``visit_order`` is optimal_order when given, else start + waypoints + end.
    """

    submitted: bool = False
    answer_place: str | None = None
    start: str | None = None
    end: str | None = None
    waypoints: tuple[str, ...] = ()
    optimal_order: tuple[str, ...] = ()
    visit_order: tuple[str, ...] = ()
    place_ids: tuple[str, ...] = ()
    value: Any = None
    has_value: bool = False
    value_place_id: str | None = None  # the direct value read as a place name, when it names one
    place_from_value: bool = False  # answer_place is value_place_id because the answer names no place itself
    invalid: str = ""  # why the answer could not be read at all (then ``submitted`` is False)
    vehicle: str | None = None
    mode: str | None = None
    total_distance_m: float | None = None
    total_time_s: float | None = None
    note_ids: tuple[str, ...] = ()
    attribute_keys: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    unresolved_names: tuple[str, ...] = ()  # places the answer names that name no known place


def normalise_answer(answer: Any, *, resolve_name: ResolveName | None = None) -> PredictedAnswer:
    """Normalise a submitted answer (or ``None`` for no submission) into a PredictedAnswer.

    Args:
        answer: the ``result`` the agent passed to submit_answer: an object, a JSON string, or anything else.
        resolve_name: maps a place name to its place_id (None when unknown); used for places given by name.

    Returns:
        The PredictedAnswer; every repair, loss or oddity is described in its ``problems``.
    """
    problems: list[str] = []
    if answer is None:
        return PredictedAnswer(problems=("no answer was submitted",))
    why = answer_problem(answer)
    body = {} if why else _as_object(answer, problems)
    why = why or answer_problem(body)
    if why:
        return PredictedAnswer(invalid=why, problems=(f"the answer is invalid: {why}",))
    reader = _Reader(resolve_name, problems)
    return reader.read(body)


def answer_problem(answer: Any) -> str | None:
    """Why an answer cannot be read (too deep, too large, a non-finite or absurdly long number, a text
    over the size limit), or None when it can. Never raises."""
    stack: list[tuple[Any, int]] = [(answer, 1)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return f"it holds more than {MAX_NODES} values"
        if depth > MAX_DEPTH:
            return f"it is nested more than {MAX_DEPTH} levels deep"
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            if abs(value) >= 10**MAX_DIGITS:
                return f"a number has more than {MAX_DIGITS} digits"
        elif isinstance(value, float):
            if not math.isfinite(value):
                return f"a number is {value!r} (only finite numbers are allowed)"
        elif isinstance(value, str):
            if len(value) > MAX_TEXT:
                return f"a text is {len(value)} characters long (at most {MAX_TEXT})"
        elif isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    return f"a key is a {type(key).__name__}, not text"
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))
        elif isinstance(value, list | tuple):
            stack.extend((item, depth + 1) for item in value)
        else:
            return f"it holds a {type(value).__name__}, which is not JSON"
    return None


def _as_object(answer: Any, problems: list[str]) -> dict:
    """The answer as a dict: JSON text parsed, a ``{"result": ...}`` wrapper or one-item list unwrapped."""
    if isinstance(answer, str):
        text = answer.strip()
        fenced = _FENCE.match(text)
        text = fenced.group(1) if fenced else text
        if not text:
            problems.append("the answer is an empty string")
            return {}
        try:
            answer = json.loads(text)
        except (ValueError, RecursionError):  # not JSON, an integer past Python's digit limit, or nested too deep
            problems.append("the answer is text, not a JSON object; read it as the direct value")
            return {"answer": text}
    if isinstance(answer, dict) and set(answer) == {"result"} and isinstance(answer["result"], dict | str):
        problems.append("the answer is wrapped in {'result': ...}; unwrapped it")
        return _as_object(answer["result"], problems)
    if isinstance(answer, list):
        if len(answer) == 1 and isinstance(answer[0], dict):
            problems.append("the answer is a one-item list; read its object")
            return answer[0]
        problems.append("the answer is a list, not an object; read its items as waypoints")
        return {"waypoints": answer}
    if not isinstance(answer, dict):
        problems.append(f"the answer is a bare {type(answer).__name__}, not an object; read it as the direct value")
        return {"answer": answer}
    inner = answer.get("answer")
    if set(answer) == {"answer"} and isinstance(inner, dict) and set(inner) & _ANSWER_FIELDS:
        problems.append("the answer object is nested under 'answer'; unwrapped it")
        return inner
    if not answer:
        problems.append("the answer is an empty object")
    return answer


class _Reader:
    """Reads the fields of one answer object, collecting problems."""

    def __init__(self, resolve_name: ResolveName | None, problems: list[str]):
        self.resolve_name = resolve_name
        self.problems = problems
        self.unresolved: list[str] = []

    def read(self, body: dict) -> PredictedAnswer:
        answer_place = self.place(body, "answer") if ("place_id" in body or "name" in body) else None
        start = self.place(body.get("start"), "start")
        end = self.place(body.get("end"), "end")
        waypoints = self.places(body.get("waypoints"), "waypoints")
        optimal = self.places(self.ordered(body.get("optimal_order")), "optimal_order")
        value = body.get("answer")
        has_value = value is not None and not (isinstance(value, str) and not value.strip())
        value = value if has_value else None
        value_place = self.value_place(value)
        place_from_value = answer_place is None and value_place is not None
        if place_from_value:
            answer_place = value_place
        visit = optimal or _dedupe([p for p in (start, *waypoints, end) if p], "visit order", self.problems)
        all_places = _dedupe([p for p in (answer_place, start, *waypoints, end, *optimal) if p], None, [])
        keys, notes = self.citations(body)
        return PredictedAnswer(
            submitted=True,
            answer_place=answer_place,
            start=start,
            end=end,
            waypoints=tuple(waypoints),
            optimal_order=tuple(optimal),
            visit_order=tuple(visit),
            place_ids=tuple(all_places),
            value=value,
            has_value=has_value,
            value_place_id=value_place,
            place_from_value=place_from_value,
            vehicle=self.word(body, "vehicle"),
            mode=self.word(body, "mode"),
            total_distance_m=self.number(body, "total_distance_m"),
            total_time_s=self.number(body, "total_time_s"),
            note_ids=tuple(notes),
            attribute_keys=tuple(keys),
            problems=tuple(self.problems),
            unresolved_names=tuple(self.unresolved),
        )

    def place(self, item: Any, field: str) -> str | None:
        """The place_id of one place: an object with place_id (or only a name), or a bare string."""
        if item is None:
            return None
        if isinstance(item, list):
            if not item:
                self.problems.append(f"{field} is an empty list")
                return None
            self.problems.append(f"{field} is a list where an object was expected; read its first item")
            item = item[0]
        if isinstance(item, str):
            return self.bare_place(item, field)
        if not isinstance(item, dict):
            self.problems.append(f"{field} is a {type(item).__name__}, not a place object; ignored")
            return None
        place_id = item.get("place_id")
        if isinstance(place_id, int | str) and not isinstance(place_id, bool) and not _blank(str(place_id)):
            return str(place_id).strip()
        name = item.get("name")
        if isinstance(name, str) and not _blank(name):
            return self.by_name(name.strip(), field)
        self.problems.append(
            f"{field} has neither a place_id nor a name"
            + (" (only placeholders such as 'NAME' or 'N/A')" if place_id or name else "")
        )
        return None

    def bare_place(self, text: str, field: str) -> str | None:
        text = text.strip()
        if not text:
            self.problems.append(f"{field} is an empty string")
            return None
        found = self.resolve_name(text) if self.resolve_name else None
        if found:
            self.problems.append(f"{field} is a bare string; resolved the name {text!r} to {found}")
            return found
        self.problems.append(f"{field} is a bare string; read {text!r} as a place_id")
        return text

    def by_name(self, name: str, field: str) -> str | None:
        found = self.resolve_name(name) if self.resolve_name else None
        if found:
            self.problems.append(f"{field} gives only a name; resolved {name!r} to {found}")
            return found
        self.problems.append(f"{field} gives only the name {name!r}, which names no known place")
        self.unresolved.append(name)
        return None

    def places(self, items: Any, field: str) -> list[str]:
        if items is None:
            return []
        if not isinstance(items, list):
            self.problems.append(f"{field} is a {type(items).__name__}, not a list; read it as one item")
            items = [items]
        ids = [self.place(item, f"{field}[{i}]") for i, item in enumerate(items)]
        return _dedupe([p for p in ids if p], field, self.problems)

    def ordered(self, items: Any) -> Any:
        """optimal_order sorted by visit_order when every item has a numeric one; otherwise as given."""
        if not isinstance(items, list) or not items:
            return items
        ranks = [to_float(item.get("visit_order")) if isinstance(item, dict) else None for item in items]
        if all(r is not None for r in ranks):
            return [item for _, _, item in sorted(zip(ranks, range(len(items)), items))]
        if any(r is not None for r in ranks):
            self.problems.append("optimal_order gives visit_order on only some items; kept the listed order")
        return items

    def value_place(self, value: Any) -> str | None:
        if isinstance(value, str) and value.strip() and self.resolve_name:
            return self.resolve_name(value.strip())
        return None

    def word(self, body: dict, field: str) -> str | None:
        value = body.get(field)
        if value is None:
            return None
        if isinstance(value, str):
            word = " ".join(value.strip().lower().split())
            canonical = _SYNONYMS.get(field, {}).get(word)
            if canonical and canonical != word:
                self.problems.append(f"{field} {value!r} read as {canonical!r}")
            return canonical or word or None
        self.problems.append(f"{field} is a {type(value).__name__}, not text; ignored")
        return None

    def number(self, body: dict, field: str) -> float | None:
        value = body.get(field)
        if value is None:
            return None
        number = to_quantity(value, field)
        if number is None:
            self.problems.append(f"{field} {value!r} is not a number; ignored")
        elif not isinstance(value, int | float):
            self.problems.append(f"{field} {value!r} is text; read it as {number:g}")
        return number

    def citations(self, body: dict) -> tuple[list[str], list[str]]:
        """Attribute keys and note_ids cited in the ``ref`` of the answer and of every place object."""
        holders = [body, body.get("start"), body.get("end")]
        waypoints = body.get("waypoints")
        holders += waypoints if isinstance(waypoints, list) else [waypoints]
        keys: list[str] = []
        notes: list[str] = []
        for holder in holders:
            refs = holder.get("ref") if isinstance(holder, dict) else None
            for ref in refs if isinstance(refs, list) else [refs]:
                if isinstance(ref, dict):
                    keys += _split(ref.get("attribute_key"))
                    notes += _split(ref.get("note_id"))
        return _dedupe(keys, None, []), _dedupe(notes, None, [])


def to_float(value: Any) -> float | None:
    """A finite float from a number or a numeric text such as ``"1,234.5 m"``, ``"1 234"``, ``"4,5"``,
    ``"4.1/5"`` or ``"4.1 stars (230 reviews)"`` (a bracket is left out when the number stands outside it);
    None otherwise (no number, several numbers, or one too large for a float)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        if len(value) > 200:
            return None
        text = _OUT_OF.sub(" ", _plain_digits(value))
        numbers = _NUMBER.findall(text.replace(",", "."))
        if len(numbers) > 1:
            numbers = _NUMBER.findall(_BRACKETED.sub(" ", text).replace(",", "."))
        value = numbers[0] if len(numbers) == 1 else None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _plain_digits(text: str) -> str:
    """Thousands separators out, typographic minus signs plain."""
    text = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group(0)), text.strip().translate(_MINUS))
    return _THOUSANDS.sub("", text)


def to_quantity(value: Any, field: str) -> float | None:
    """A route total in the tool's unit (metres, seconds): a number as is, a text with its unit converted
    (``"1.2 km"`` -> 1200, ``"25 min"`` -> 1500); None for a unit that does not fit the field."""
    number = to_float(value)
    if number is None or not isinstance(value, str):
        return number
    rest = _NUMBER.sub("", _plain_digits(value).replace(",", "."), count=1)
    if not rest.strip():
        return number
    for pattern, factor in _UNITS.get(field, ()):
        if pattern.match(rest):
            return number * factor
    return number if not re.match(r"^\s*[a-z]", rest, re.I) else None


_PLACEHOLDERS = {"", "name", "place_id", "placeid", "n/a", "na", "none", "null", "-", "unknown", "tbd"}


def _blank(text: str) -> bool:
    """Empty, or a placeholder copied from the answer template ("NAME", "PLACE_ID") or meaning none ("N/A")."""
    return text.strip().casefold() in _PLACEHOLDERS


def _split(value: Any) -> list[str]:
    """Comma-separated text or a list of texts, stripped, empty entries dropped."""
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        if isinstance(item, int | str) and not isinstance(item, bool):
            out += [part.strip() for part in str(item).split(",") if part.strip()]
    return out


def _dedupe(items: list[str], field: str | None, problems: list[str]) -> list[str]:
    """Items without repeats, keeping the first; a repeat is a problem when ``field`` is named."""
    seen: list[str] = []
    for item in items:
        if item in seen:
            if field:
                problems.append(f"{field} lists {item} more than once; kept the first")
        else:
            seen.append(item)
    return seen
