"""The neutralised copy of an answer and its trajectory: free text replaced by a placeholder.

:func:`~judging.judges.ensemble.ensemble_score` judges this copy as well as the answer as
given and keeps the lower score. The copy holds no text the agent, its tools or an uploader
could word, so whatever such text says (in any language, encoding or spelling) cannot raise
the score above what the judges give the bare choices.

What survives, by rule and not by reading the text:

- numbers, booleans and null;
- a string equal (after NFKC, case folding and whitespace collapsing) to a string of the
  case's reference answer or constraints, which are trusted;
- a string whose every comma-separated part is a plain value: yes/no/true/false, a number
  with an optional unit (m, km, s, min, h, eur), a clock time or range (09:00-17:00), an
  ISO date or date-time, an OSM-style id (N2395731) or a hex id (note and comment ids);
- under ``attribute_key``, ``key``, ``vehicle`` and ``mode``: also vocabulary words
  (``opentime_week``, ``tag:corgi_cafe``, ``walking``), snake_case of at most four words;
- keys: an answer's keys when they are answer-format fields; in tool arguments and
  observations, snake_case names of at most four words (the tools' own field names);
- a step's tool name when it is the name of a registered tool.

Everything else becomes ``"[text removed]"`` (a key, ``"[key removed N]"``; a tool name,
``"[tool name removed]"``): reasons, names, constraints_satisfied items, the agent's turns,
review and note texts in observations. A direct ``answer`` that is not a plain value or the
reference's own wording becomes what the answer reader makes of it (``_reading``: yes/no, the
number, or the reference's wording when the reader accepts it), else the placeholder.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from environment.tools.spec import TOOL_ORDER
from judging.types import CaseSpec, Trajectory

PLACEHOLDER = "[text removed]"
TOOL_PLACEHOLDER = "[tool name removed]"
ANSWER_KEYS = frozenset(
    {
        "answer",
        "name",
        "place_id",
        "start",
        "end",
        "waypoints",
        "reason",
        "ref",
        "note_id",
        "attribute_key",
        "implicit_logic",
        "optimal_order",
        "visit_order",
        "vehicle",
        "mode",
        "total_distance_m",
        "total_time_s",
        "constraints_satisfied",
        "result",
    }
)
VOCABULARY_KEYS = frozenset({"attribute_key", "key", "vehicle", "mode"})

# re.ASCII: no Unicode digits or letters that case-fold into [a-z] (the Kelvin sign, the long s).
_PLAIN_VALUES = [
    re.compile(pattern, re.IGNORECASE | re.ASCII)
    for pattern in (
        r"(?:yes|no|true|false)\.?",
        r"[-+]?\d+(?:[.,]\d+)*(?:\s?(?:m|km|s|min|h|eur|\u20ac))?",
        r"\d{1,2}:\d{2}(?:\s?-\s?\d{1,2}:\d{2})?",
        r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?",
        r"[A-Z]{1,3}\d{1,20}",  # OSM-style place ids
    )
] + [re.compile(r"[0-9a-f]{8,40}", re.ASCII)]  # note and comment ids (lower-case hex only)
_VOCABULARY_WORD = re.compile(r"(?:[a-z]{1,10}:)?[a-z][a-z0-9]*(?:_[a-z0-9]+){0,3}", re.ASCII)
_FIELD_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+){0,3}", re.ASCII)
_MAX_WORD = 40


def neutral_copy(case: CaseSpec, answer: Any, trajectory: Trajectory | None) -> tuple[Any, Trajectory | None]:
    """(answer, trajectory) with every free-text field replaced; see the module docstring for the rule.

    An answer given as JSON text is read as the object it holds. ``trajectory`` None stays None.
    """
    trusted = _trusted_strings(case)
    parsed = _parsed(answer)
    neutral_answer = _neutral(parsed, "answer", trusted, lambda key: key in ANSWER_KEYS)
    if isinstance(parsed, dict) and isinstance(neutral_answer, dict) and neutral_answer.get("answer") == PLACEHOLDER:
        neutral_answer["answer"] = _reading(case, parsed.get("answer"))
    elif neutral_answer == PLACEHOLDER and isinstance(parsed, str):
        neutral_answer = _reading(case, parsed)
    if trajectory is None:
        return neutral_answer, None
    steps = [
        step.model_copy(
            update={
                "tool": step.tool if step.tool in TOOL_ORDER else TOOL_PLACEHOLDER,
                "arguments": _neutral(step.arguments, None, trusted, _is_field_name),
                "observation": _neutral(step.observation, None, trusted, _is_field_name),
                "text": _neutral(step.text, None, trusted, _is_field_name),
            }
        )
        for step in trajectory.steps
    ]
    return neutral_answer, trajectory.model_copy(update={"steps": steps})


def _reading(case: CaseSpec, value: Any) -> Any:
    """A direct answer written as a sentence, replaced by what the answer reader makes of it: yes/no for a
    yes/no question, the number for a number, the reference's own wording when the reader accepts it as
    the reference value; else the placeholder. So a correct "Yes, it will still be open." keeps its
    meaning in the neutral copy while any instruction around it goes."""
    from judging.answers import to_float
    from judging.metrics.values import as_bool, values_equal

    reference = case.answer if isinstance(case.answer, dict) else {}
    expected = reference.get("answer")
    ref = found if isinstance(found := reference.get("ref"), dict) else {}
    if not isinstance(value, str):
        return PLACEHOLDER
    if isinstance(expected, bool):
        said = as_bool(value, case.question, str(ref.get("attribute_key") or "").split(",")[0].strip())
        return PLACEHOLDER if said is None else ("yes" if said else "no")
    if isinstance(expected, int | float):
        number = to_float(value)
        return PLACEHOLDER if number is None else number
    if isinstance(expected, str) and values_equal(
        value, expected, field=str(ref.get("attribute_key") or ""), question=case.question
    ):
        return expected
    return PLACEHOLDER


def _neutral(value: Any, key: str | None, trusted: frozenset[str], keep_key: Callable[[str], bool]) -> Any:
    if isinstance(value, str):
        return value if _kept(value, key, trusted) else PLACEHOLDER
    if isinstance(value, dict):
        out: dict = {}
        for name, item in value.items():
            new = name if isinstance(name, str) and keep_key(name) else f"[key removed {len(out) + 1}]"
            out[new] = _neutral(item, new, trusted, keep_key)
        return out
    if isinstance(value, list | tuple):
        return [_neutral(item, key, trusted, keep_key) for item in value]
    if value is None or isinstance(value, bool | int | float):
        return value
    return PLACEHOLDER  # anything else would be shown as its str()


def _kept(text: str, key: str | None, trusted: frozenset[str]) -> bool:
    if not text.strip() or _folded(text) in trusted:
        return True
    return all(_plain(part.strip(), key) for part in text.split(","))


def _plain(part: str, key: str | None) -> bool:
    if not part or len(part) > _MAX_WORD:
        return False
    if any(pattern.fullmatch(part) for pattern in _PLAIN_VALUES):
        return True
    return key in VOCABULARY_KEYS and bool(_VOCABULARY_WORD.fullmatch(part))


def _is_field_name(key: str) -> bool:
    return len(key) <= 32 and bool(_FIELD_NAME.fullmatch(key))


def _trusted_strings(case: CaseSpec) -> frozenset[str]:
    found: list[str] = []
    _collect([case.answer, case.constraints], found)
    return frozenset(_folded(text) for text in found if text.strip())


def _collect(value: Any, found: list[str]) -> None:
    if isinstance(value, str):
        found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _collect(item, found)


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _parsed(answer: Any) -> Any:
    """A JSON object or list given as text, read; anything else as it is."""
    if not isinstance(answer, str):
        return answer
    try:
        value = json.loads(answer)
    except ValueError:  # not JSON, or an integer past Python's digit limit
        return answer
    return value if isinstance(value, dict | list) else answer
