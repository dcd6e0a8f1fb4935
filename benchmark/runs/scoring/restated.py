"""Reference answers restated as a person or a model writes them (issue 12): the value alone, yes/no in a
sentence, a rating out of 5, a cost with its currency, the leaf of a place type, the street part of an
address, a clock time in am/pm, opening hours with commas, route totals rounded to the metre and second,
"on foot", "bike", "car", "fastest", "shortest" for the vehicle and the target.

A careful grader accepts every one of them; ``tests/runs/test_scoring.py`` scores them on generated
cases and ``scripts/restated_answers.py`` on a whole release (figures in docs/metrics.md).
"""

from __future__ import annotations

import json
import re

from kernel.vocabulary import Category

_VEHICLE_WORDS = {"walking": "on foot", "cycling": "bike", "driving": "car"}
_MODE_WORDS = {"time": "fastest", "distance": "shortest"}


def restate(doc: dict) -> dict:
    """The case document's reference answer as a person writes it (the same facts, other words)."""
    answer = json.loads(json.dumps(doc["answer"]))
    if doc["category"] != Category.PLACE_PERCEPTION:
        for key in ("total_distance_m", "total_time_s"):
            if isinstance(answer.get(key), int | float):
                answer[key] = round(answer[key])
        if answer.get("vehicle") in _VEHICLE_WORDS:
            answer["vehicle"] = _VEHICLE_WORDS[answer["vehicle"]]
        if answer.get("mode") in _MODE_WORDS:
            answer["mode"] = _MODE_WORDS[answer["mode"]]
        return answer
    value = answer.get("answer")
    field = (answer.get("ref") or {}).get("attribute_key", "")
    if isinstance(value, str) and value.strip() == (answer.get("name") or "").strip():
        return {"answer": value}  # a choice among places: the name
    if isinstance(value, bool):
        if field == "cost":
            return {"answer": "Yes, that covers it." if value else "No, that is not enough."}
        return {"answer": "Yes, it will be open." if value else "No - it will be closed by then."}
    if isinstance(value, int | float):
        return {"answer": f"{value} / 5" if field == "rating" else f"about {value} EUR per person"}
    if field == "place_type":
        return {"answer": value.split("|")[-1]}
    if field == "address" and not re.fullmatch(r"\d{5}", value):
        return {"answer": value.split(",")[0]}
    clock = re.fullmatch(r"(\d{1,2}):(\d{2})", value) if field == "opentime_week" else None
    if clock:
        hour, minute = int(clock.group(1)), clock.group(2)
        shown = f"{hour % 12 or 12}" + ("" if minute == "00" else f":{minute}")
        return {"answer": f"at {shown} {'pm' if hour >= 12 else 'am'}"}
    if field == "opentime_week":
        return {"answer": value.replace("; ", ", ")}
    return {"answer": value}
