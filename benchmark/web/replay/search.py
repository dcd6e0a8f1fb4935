"""Search inside one trajectory: the steps whose tool, arguments, observation or model text contain a query.

The search reads the replay document as the viewer may see it (``replay_payload``), never the stored
rows: on a hidden release a non-curator's document has no arguments, observation, notes or model text
(``benchmark.board.visibility.step_shown``), so only the tool name and error kind are searchable for
them and a query cannot probe what they may not read.
"""

from __future__ import annotations

import json
import unicodedata

from benchmark.runs.models import Trajectory

QUERY_MAX_LENGTH = 200
SNIPPET_CHARS = 60


def search_query_parse(value: str | None) -> str:
    """The query of ``?q=``, stripped ('' for none).

    Raises:
        ValueError: too long, or holding control characters, naming q and what is allowed.
    """
    q = (value or "").strip()
    if len(q) > QUERY_MAX_LENGTH:
        raise ValueError(
            f"q (text to find in the trajectory's steps) is at most {QUERY_MAX_LENGTH} characters; got {len(q)}"
        )
    if any(unicodedata.category(ch) == "Cc" for ch in q):
        raise ValueError(f"q must be plain text without control characters; got {q!r}")
    return q


def observation_texts(*, trajectory: Trajectory, payload: dict) -> dict[int, str]:
    """Each step's whole observation as JSON text, by step index, when ``payload`` (the viewer's replay
    document) shows the answers; {} otherwise, without a query. The page's tables show the fields that
    matter, not every field a tool returned: this lets the search find the rest too."""
    if not payload["answers_visible"]:
        return {}
    rows = trajectory.steps.values_list("index", "observation")
    return {index: json.dumps(observation, ensure_ascii=False) for index, observation in rows}


def steps_matching(payload: dict, query: str, observations: dict[int, str] | None = None) -> list[dict]:
    """The steps of ``payload`` whose searchable text contains ``query`` (case-insensitive):
    [{number, tool, error_kind, where (the fields that matched), snippet}] in step order.

    ``observations``: the steps' whole observations by index (``observation_texts``), searched
    for steps the viewer may read (never for a withheld step)."""
    needle = query.casefold()
    out = []
    for step in payload["steps"]:
        fields = _fields(step)
        if observations and not step["withheld"]:
            fields.append(("observation", observations.get(step["index"], "")))
        where = list(dict.fromkeys(name for name, text in fields if needle in text.casefold()))
        if where:
            text = next(text for name, text in fields if name == where[0] and needle in text.casefold())
            out.append(
                {
                    "number": step["number"],
                    "tool": step["tool"],
                    "error_kind": step["error_kind"],
                    "where": where,
                    "snippet": _snippet(text, needle),
                }
            )
    return out


def _fields(step: dict) -> list[tuple[str, str]]:
    """(field, text) of a step as the viewer sees it; a withheld step has only its tool and error kind."""
    fields = [("tool", step["tool"] or ""), ("error kind", step["error_kind"] or "")]
    if step["withheld"]:
        return fields
    table = step["table"]
    observation = [*table["summary"], *(str(cell) for row in table["rows"] for cell in row)]
    notes = [
        str(part)
        for note in step["notes"]
        for part in (note["note_id"], note["title"], note["text"] or "", note["tags"] or "")
        + tuple(c["content"] for c in note["comments"])
    ]
    return [
        *fields,
        ("arguments", step["arguments_text"] or ""),
        ("observation", "\n".join(observation)),
        ("notes", "\n".join(notes)),
        ("model text", step["model_text"] or ""),
    ]


def _snippet(text: str, needle: str) -> str:
    """Up to SNIPPET_CHARS characters either side of the first match, on one line."""
    start = text.casefold().find(needle)
    flat = " ".join(text[max(0, start - SNIPPET_CHARS) : start + len(needle) + SNIPPET_CHARS].split())
    return (
        ("…" if start > SNIPPET_CHARS else "") + flat + ("…" if start + len(needle) + SNIPPET_CHARS < len(text) else "")
    )
