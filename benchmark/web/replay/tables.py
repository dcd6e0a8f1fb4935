"""A tool call's observation as a readable table, and the social notes it retrieved.

Pure functions over what the agent saw. A table is ``{"summary": [lines], "columns": [...],
"rows": [[cell, ...]]}`` with plain strings and numbers as cells; the page escapes them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from benchmark.web.replay.steps import error_of

MAX_CELL = 400  # characters of a nested value shown in a generic table cell


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float | str):
        return value
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_CELL else text[:MAX_CELL] + " …"


def _fields(record: dict, skip: tuple[str, ...] = ()) -> dict:
    return {
        "summary": [],
        "columns": ["Field", "Value"],
        "rows": [[key, _cell(value)] for key, value in record.items() if key not in skip],
    }


def _listing_summary(observation: dict, noun: str) -> list[str]:
    total, returned = observation.get("total_matched"), observation.get("returned")
    lines = [f"{noun} matched: {total}, returned: {returned}" + (" (list cut)" if observation.get("truncated") else "")]
    if observation.get("note"):
        lines.append(str(observation["note"]))
    return lines


def _items(observation: dict, key: str = "results") -> list[dict]:
    items = observation.get(key)
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _places_table(observation: dict) -> dict:
    items = _items(observation)
    with_distance = any("distance_m" in item for item in items)
    columns = ["#", "Name", "place_id", "Type", "Rating", "Cost (EUR)"] + (["Distance (m)"] if with_distance else [])
    rows = [
        [
            rank,
            _cell(i.get("name")),
            _cell(i.get("place_id")),
            _cell(i.get("place_type")),
            _cell(i.get("rating")),
            _cell(i.get("cost")),
        ]
        + ([_cell(i.get("distance_m"))] if with_distance else [])
        for rank, i in enumerate(items, 1)
    ]
    return {
        "summary": _nearby_head(observation) + _listing_summary(observation, "Places"),
        "columns": columns,
        "rows": rows,
    }


def _nearby_head(observation: dict) -> list[str]:
    center = observation.get("center")
    if not isinstance(center, dict):
        return []
    radius = observation.get("radius_meters")
    if "place_id" in center:
        return [f"Within {radius} m of {center.get('name', '')} ({center.get('place_id')})"]
    return [
        f"Within {radius} m of the {center.get('vehicle', '')} route {center.get('start')} → {center.get('end')} "
        f"({center.get('total_distance_m')} m, {center.get('total_time_s')} s)"
    ]


def _routing_table(observation: dict) -> dict:
    start, end = (side if isinstance(side := observation.get(k), dict) else {} for k in ("start", "end"))
    summary = [
        f"{observation.get('vehicle', '')}, fastest by {observation.get('mode', '')}: "
        f"{observation.get('total_distance_m')} m, {observation.get('total_time_s')} s",
        f"From {start.get('name', '')} ({start.get('place_id', '')}) to {end.get('name', '')} "
        f"({end.get('place_id', '')})",
    ]
    if observation.get("avoid_way_ids"):
        summary.append("Avoiding ways " + ", ".join(str(w) for w in observation["avoid_way_ids"]))
    rows = [
        [
            n,
            _cell(s.get("instruction")),
            _cell(s.get("distance_m")),
            _cell(s.get("time_s")),
            ", ".join(str(w) for w in s.get("way_ids") or []),
        ]
        for n, s in enumerate(_items(observation, "steps"), 1)
    ]
    return {"summary": summary, "columns": ["#", "Instruction", "Distance (m)", "Time (s)", "Way ids"], "rows": rows}


def _notes_table(observation: dict) -> dict:
    rows = [
        [
            rank,
            _cell(i.get("title")),
            _cell(i.get("note_id")),
            _cell(i.get("time")),
            _cell(i.get("liked_count")),
            _cell(i.get("comment_count")),
        ]
        for rank, i in enumerate(_items(observation), 1)
    ]
    return {
        "summary": _listing_summary(observation, "Notes"),
        "columns": ["#", "Title", "note_id", "Time", "Likes", "Comments"],
        "rows": rows,
    }


def _note_table(observation: dict) -> dict:
    return _fields(observation, skip=("comments", "desc"))


def _submit_table(observation: dict) -> dict:
    result = observation.get("result")
    table = (
        _fields(result)
        if isinstance(result, dict)
        else {"summary": [], "columns": ["Field", "Value"], "rows": [["result", _cell(result)]]}
    )
    table["summary"] = [f"status: {observation.get('status', 'submitted')}"]
    return table


TABLES: dict[str, Callable[[dict], dict]] = {
    "place_search": _places_table,
    "nearby_search": _places_table,
    "routing": _routing_table,
    "search_notes": _notes_table,
    "note_detail": _note_table,
    "place_detail": _fields,
    "submit_answer": _submit_table,
}


def observation_table(tool: str, observation: Any) -> dict:
    """The observation of one ``tool`` call as a table (an error as its fields)."""
    error = error_of(observation)
    if error:
        return {
            "summary": ["The call failed."],
            "columns": ["Field", "Value"],
            "rows": [[key, value] for key, value in error.items()],
        }
    if not isinstance(observation, dict):
        return {"summary": [], "columns": ["Value"], "rows": [[_cell(observation)]]}
    return TABLES.get(tool, _fields)(observation)


def retrieved_notes(tool: str, observation: Any, required: set[str] | None) -> list[dict]:
    """The notes a call retrieved: titles and counts from search_notes, the whole note from note_detail.

    ``required`` holds the case's required-evidence note_ids, or None when the viewer may not
    know them (then every note's ``required`` is None).
    """
    if error_of(observation) or not isinstance(observation, dict):
        return []
    if tool == "search_notes":
        notes = [_note(item, full=False) for item in _items(observation)]
    elif tool == "note_detail" and observation.get("note_id"):
        notes = [_note(observation, full=True)]
    else:
        return []
    for note in notes:
        note["required"] = None if required is None else note["note_id"] in required
    return notes


def _note(item: dict, *, full: bool) -> dict:
    comments = [
        {"content": str(c.get("content", "")), "time": str(c.get("time", "")), "likes": c.get("like_count")}
        for c in item.get("comments") or []
        if isinstance(c, dict)
    ]
    return {
        "note_id": str(item.get("note_id", "")),
        "title": str(item.get("title", "")),
        "text": str(item["desc"]) if full and item.get("desc") is not None else None,
        "time": str(item.get("time", "")),
        "likes": item.get("liked_count"),
        "collected": item.get("collected_count"),
        "comment_count": item.get("comment_count"),
        "tags": str(item.get("tag_list", "")) if full else "",
        "comments": comments,
        "full": full,
    }
