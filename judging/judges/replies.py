"""Reading a judge's final reply: one JSON object ``{"score": 0..1, "explanation": str}``."""

from __future__ import annotations

import json
import re
from typing import Any

from .prompting import clip

FENCE = re.compile(r"^\s*```[a-zA-Z]*\s*(.*?)\s*```\s*$", re.DOTALL)
VERDICT_SHAPE = '{"score": <number between 0 and 1>, "explanation": "<two or three sentences>"}'


def parse_verdict(content: str) -> tuple[float | None, str, str]:
    """(score, explanation, problem) from a judge's reply; ``problem`` is "" when usable.

    Code fences and text around one JSON object are tolerated.
    """
    text = content.strip()
    if not text:
        return None, "", "the reply was empty"
    fenced = FENCE.match(text)
    text = fenced.group(1) if fenced else text
    data = _first_json_object(text)
    if not isinstance(data, dict):
        return None, "", f"not a JSON object: {clip(text, 200)!r}"
    if "score" not in data:
        return None, "", 'the JSON object has no "score"'
    score = data["score"]
    if isinstance(score, bool) or not isinstance(score, int | float):
        return None, "", f'"score" must be a number, got {clip(repr(score), 60)}'
    if not 0 <= score <= 1:  # also NaN; compared before any float conversion (a huge integer cannot convert)
        return None, "", f'"score" {clip(repr(score), 60)} is outside [0, 1]'
    explanation = data.get("explanation", "")
    return float(score), explanation if isinstance(explanation, str) else dumps(explanation), ""


def _first_json_object(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:  # not JSON, or an integer past Python's digit limit
        pass
    start = text.find("{")
    while start != -1:
        try:
            return json.JSONDecoder().raw_decode(text, start)[0]
        except ValueError:  # not JSON, or an integer past Python's digit limit
            start = text.find("{", start + 1)
    return None


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
