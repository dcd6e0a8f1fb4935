"""Detect and redact instructions aimed at the grader inside untrusted text (defence in depth).

The boundary markers in the prompt are the first defence; this is the second: text that
reads like an order to the judge ("ignore previous instructions", "score this 1.0") is
found by case-insensitive patterns after normalising (NFKC, invisible format characters
dropped, common Cyrillic and Greek look-alikes mapped to Latin), and the caller judges a
redacted copy too and keeps the lower score. A false positive therefore costs one extra
judgment, not a wrong score.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

REDACTION = "[removed: instruction to the grader]"

# Look-alike letters NFKC leaves alone (Cyrillic and Greek) -> Latin, both cases.
_LOOKALIKES = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "ɡ": "g", "ӏ": "l",
    "α": "a", "β": "b", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x",
}
_CONFUSABLES = str.maketrans({**_LOOKALIKES, **{k.upper(): v.upper() for k, v in _LOOKALIKES.items()
                                                if len(k.upper()) == 1 and k.upper() != k}})

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

    Matching is case-insensitive on this form; it keeps the text readable, so the redacted
    copy the judge sees is this form with the spans replaced.
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


def redact_text(text: str) -> tuple[str, list[str]]:
    """(normalised text with instruction spans replaced, the spans found); ``text`` itself when none."""
    readable = normalise(text)
    spans = instruction_spans(readable)
    if not spans:
        return text, []
    out, last = [], 0
    for start, end in spans:
        out += [readable[last:start], REDACTION]
        last = end
    out.append(readable[last:])
    return "".join(out), [readable[start:end].strip() for start, end in spans]


def redact(value: Any, path: str = "answer") -> tuple[Any, list[Finding]]:
    """Redact every string (and dict key) inside a JSON-like ``value``; returns (copy, findings)."""
    if isinstance(value, str):
        text, found = redact_text(value)
        return text, [Finding(path, span) for span in found]
    if isinstance(value, dict):
        out, findings = {}, []
        for key, item in value.items():
            new_key, key_found = redact_text(key) if isinstance(key, str) else (key, [])
            findings += [Finding(f"{path}.<key {new_key}>", span) for span in key_found]
            out[new_key], found = redact(item, f"{path}.{key}")
            findings += found
        return out, findings
    if isinstance(value, list | tuple):
        out_list, findings = [], []
        for index, item in enumerate(value):
            new, found = redact(item, f"{path}[{index}]")
            out_list.append(new)
            findings += found
        return out_list, findings
    return value, []


def redact_trajectory(trajectory):
    """A copy of a :class:`~judging.types.Trajectory` with instruction spans removed from the
    agent's texts and tool arguments (observations come from the tools and are left alone)."""
    steps, findings = [], []
    for step in trajectory.steps:
        text, found_text = redact(step.text, f"trajectory.steps[{step.index}].text")
        arguments, found_args = redact(step.arguments, f"trajectory.steps[{step.index}].arguments")
        findings += found_text + found_args
        steps.append(step.model_copy(update={"text": text, "arguments": arguments}))
    return trajectory.model_copy(update={"steps": steps}), findings
