"""Comparing a predicted direct value with the reference value (Place Perception's A)."""
from __future__ import annotations

import re
from typing import Any

from judging.answers import to_float

NUMBER_TOLERANCE = 0.05
_TRUE = {"yes", "true", "y", "1"}
_FALSE = {"no", "false", "n", "0"}
_FIRST_WORD = re.compile(r"[a-z0-9]+")


def fold(text: str) -> str:
    """Case- and whitespace-insensitive form of a text."""
    return " ".join(text.casefold().split())


def same_text(a: Any, b: Any) -> bool:
    return isinstance(a, str) and isinstance(b, str) and fold(a) == fold(b)


def as_bool(value: Any) -> bool | None:
    """True/False from a boolean, 0/1, or a text whose first word is yes/true/y/1 or no/false/n/0."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        match = _FIRST_WORD.match(fold(value))
        word = match.group(0) if match else ""
        return True if word in _TRUE else False if word in _FALSE else None
    return None


def values_equal(predicted: Any, expected: Any) -> bool:
    """Whether the predicted value equals the reference value.

    Booleans compare as booleans ("yes", "True", 1 count as true); numbers within 0.05 (numeric
    text such as "24 EUR" reads as 24); texts case- and whitespace-insensitively; lists as sets
    of such texts (a comma-separated text reads as a list).
    """
    if isinstance(expected, bool):
        return as_bool(predicted) is expected
    if isinstance(expected, int | float):
        number = to_float(predicted)
        return number is not None and abs(number - expected) <= NUMBER_TOLERANCE
    if isinstance(expected, str):
        if isinstance(predicted, int | float) and not isinstance(predicted, bool):
            number = to_float(expected)
            return number is not None and abs(number - predicted) <= NUMBER_TOLERANCE
        return same_text(predicted, expected)
    if isinstance(expected, list):
        items = predicted.split(",") if isinstance(predicted, str) else predicted
        if not isinstance(items, list):
            return False
        return {fold(str(x)) for x in items} == {fold(str(x)) for x in expected}
    return predicted == expected
