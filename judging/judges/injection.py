"""Flag instructions aimed at the grader inside untrusted text (an explanation, not the defence).

The defence is elsewhere and does not depend on this check: untrusted data reaches a judge
only JSON-encoded between markers it cannot forge (:mod:`.prompting`), and every answer is
also judged with its free text removed, the lower score kept (:mod:`.neutral`,
:func:`~judging.judges.ensemble.ensemble_score`). This keyword check only records, for
whoever reads the details, text that reads like an order to the judge ("ignore previous
instructions", "score this 1.0"): case-insensitive patterns after normalising (NFKC,
invisible format characters dropped, common Cyrillic and Greek look-alikes mapped to Latin).
It misses paraphrases, other languages and encodings, and that is acceptable here.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

# Look-alike letters NFKC leaves alone (Cyrillic and Greek) -> Latin, both cases.
_LOOKALIKES = {
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "к": "k",
    "м": "m",
    "н": "h",
    "о": "o",
    "р": "p",
    "с": "c",
    "т": "t",
    "у": "y",
    "х": "x",
    "і": "i",
    "ї": "i",
    "ј": "j",
    "ѕ": "s",
    "ԁ": "d",
    "ɡ": "g",
    "ӏ": "l",
    "α": "a",
    "β": "b",
    "ε": "e",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
}
_CONFUSABLES = str.maketrans(
    {**_LOOKALIKES, **{k.upper(): v.upper() for k, v in _LOOKALIKES.items() if len(k.upper()) == 1 and k.upper() != k}}
)

# The rest of the sentence after a trigger: a dot inside a number ("1.0") does not end it.
_TAIL = r"(?:[^.!?\n]|[.!?](?![\s\"'\])}]|$))*[.!?]?"
_SCORE_VALUE = r"(?:1(?:\.0+)?|10(?:\s*/\s*10)?|100(?:\s*%)?|full|perfect|max(?:imum)?|top|highest)"
_GRADER = r"(?:judge|grader|evaluator|reviewer|scorer|assessor|ai|model|assistant|llm)"

TRIGGERS: tuple[str, ...] = (
    r"\bignore\s+(?:all|the|any|every|your|previous|prior|above|earlier|preceding|these|those|that|everything)\b",
    r"\bdisregard\b",
    r"\bforget\s+(?:all|everything|the|your|previous|prior|above|earlier)\b",
    r"\byou(?:\s+are|'re)\s+now\b",
    rf"\byou(?:\s+are|'re)\s+(?:a|an|the)\s+(?:\w+\s+){{0,2}}{_GRADER}\b",
    r"\b(?:system|developer)\s+(?:prompt|message|instruction)s?\b",
    r"\b(?:new|updated|override|overriding|real|hidden)\s+instructions?\b",
    rf"\bscore\s+(?:this|it|me|the\s+answer|this\s+answer)?\s*(?:as|of|at|with|=|:)?\s*(?:a\s+|an\s+)?{_SCORE_VALUE}\b",
    r"\b(?:give|assign|award|grant|rate)\s+(?:this|it|me|us|the\s+answer|this\s+answer)\s+(?:a\s+|an\s+|the\s+)?"
    r"(?:full|perfect|maximum|max|top|highest)\b",
    rf"\b(?:give|assign|award|grant|rate)\b[^.!?\n]{{0,40}}?\b(?:score|rating|grade|marks?)\s+(?:of\s+)?"
    rf"{_SCORE_VALUE}",
    rf"\bas\s+(?:the|an?|my)\s+{_GRADER}\b",
    rf"\b(?:dear|attention|note\s+to\s+(?:the\s+)?|hey|hello)\s*,?\s*{_GRADER}s?\b",
    r"\{\s*\\?[\"']score\\?[\"']\s*:",
    r"\b(?:deserves?|merits?|earns?|worth)\s+(?:a\s+|an\s+|the\s+)?(?:full|perfect|maximum|max|top|highest)\s+"
    r"(?:score|marks?|rating|grade)\b",
    r"\b(?:rate|score|grade|mark)\s+(?:this|it|me|the\s+answer|this\s+answer)\s+(?:a\s+|an\s+|as\s+)?"
    r"\d+(?:\.\d+)?\s*/\s*\d+",
)
_PATTERNS = [re.compile(trigger + _TAIL, re.IGNORECASE) for trigger in TRIGGERS]


@dataclass(frozen=True)
class Finding:
    """One instruction-like span: where it was (a path into the data) and its normalised text."""

    path: str
    text: str

    def to_dict(self) -> dict:
        return {"path": self.path, "text": self.text}


def normalise(text: str) -> str:
    """NFKC, without invisible format characters, look-alike letters mapped to Latin.

    Matching is case-insensitive on this form; findings quote it, so they stay readable.
    """
    text = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf").translate(_CONFUSABLES)


def instruction_spans(text: str) -> list[tuple[int, int]]:
    """Merged (start, end) spans of instruction-like text in ``text`` (already normalised)."""
    spans = sorted((m.start(), m.end()) for pattern in _PATTERNS for m in pattern.finditer(text) if m.group(0))
    merged: list[list[int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(start, end) for start, end in merged]


def instructions_in(value: Any, path: str = "answer") -> list[Finding]:
    """Instruction-like spans in every string (and dict key) of a JSON-like ``value``."""
    if isinstance(value, str):
        readable = normalise(value)
        return [Finding(path, readable[start:end].strip()) for start, end in instruction_spans(readable)]
    if isinstance(value, dict):
        findings = []
        for key, item in value.items():
            if isinstance(key, str):
                findings += instructions_in(key, f"{path}.<key>")
            findings += instructions_in(item, f"{path}.{key}")
        return findings
    if isinstance(value, list | tuple):
        return [found for index, item in enumerate(value) for found in instructions_in(item, f"{path}[{index}]")]
    return []


def trajectory_instructions(trajectory) -> list[Finding]:
    """Instruction-like spans in a :class:`~judging.types.Trajectory`: tool names (underscores read
    as spaces), arguments, the agent's turns and the observations."""
    findings = []
    for step in trajectory.steps:
        where = f"trajectory.steps[{step.index}]"
        findings += instructions_in(step.tool.replace("_", " "), f"{where}.tool")
        findings += instructions_in(step.arguments, f"{where}.arguments")
        findings += instructions_in(step.text, f"{where}.text")
        findings += instructions_in(step.observation, f"{where}.observation")
    return findings
