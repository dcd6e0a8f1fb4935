"""Input hygiene at the boundaries: what may reach PostgreSQL, and how big or deep it may be.

Every entry point (tools, MCP, the CLI, run mode, uploads, the API, forms, model output) checks
outside input here before it is used or stored, so each gives the same clear error naming the
offending field by its JSON path (``query``, ``steps[3].observation.results[0].name``):

* text: no NUL character (PostgreSQL text and jsonb cannot hold one) and no unpaired
  surrogate (not valid Unicode, so not storable either), and a length limit;
* numbers: no NaN or Infinity (not JSON: jsonb refuses them) and no integer past 18 digits
  (beyond a bigint; past 4,300 digits Python cannot even print one);
* nesting depth and the number of values in a document.

:func:`check_json` and :func:`parse_json` find the problems, for input that may be refused.
:func:`storable` and :func:`clean_text` repair a copy, for what must be kept whatever it holds
(a tool call's recorded arguments, a model's text): NUL and surrogates become U+FFFD, bad
numbers become text, and each repair is noted. All walk iteratively, never recursively, so no
input is too deep for them. The limits are listed in docs/evaluation.md ("Input limits").
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUL_OR_SURROGATE = re.compile("[\x00\ud800-\udfff]")
MAX_PROBLEMS = 10


@dataclass(frozen=True)
class Limits:
    """How big one JSON document may be."""

    max_depth: int  # containers inside containers; the outermost one is level 1
    max_text: int  # characters in one string (object keys included)
    max_nodes: int  # values in the whole document, containers included
    max_digits: int = 18  # digits of an integer (a bigint holds 18 in full)


# A tool call's arguments. A string may be a whole answer given to submit_answer as JSON text,
# hence more than a name or a keyword needs.
TOOL_ARGUMENTS = Limits(max_depth=16, max_text=10_000, max_nodes=2_000)
# A JSON value sent to the site: an API request body, a submission's params.
REQUEST_JSON = Limits(max_depth=16, max_text=10_000, max_nodes=2_000)
MODEL_TEXT_CHARS = 100_000  # a model's text of one turn, as stored
# One line of an upload (a trajectory with its steps; a step's text is a model's text) and one
# step's observation in it.
UPLOAD_LINE = Limits(max_depth=40, max_text=MODEL_TEXT_CHARS, max_nodes=200_000)
OBSERVATION_CHARS = 200_000  # one uploaded step's observation, as JSON text
# What is stored whatever it holds (a tool's observation, a model call's recording): repaired, never cut short.
RECORDING = Limits(max_depth=64, max_text=10_000_000, max_nodes=1_000_000)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input: where (a JSON path) and what."""

    path: str  # "arguments.query", "steps[3].observation"; "" for the value itself
    parameter: str | None  # the first key under the field (a tool's parameter name), if any
    reason: str  # "contains a NUL character (not allowed)"

    def __str__(self) -> str:
        return f"{self.path or 'the value'} {self.reason}"


class _LongNumber:
    """An integer literal too long to convert (Python refuses past 4,300 digits); refused by the checks."""

    def __init__(self, digits: int):
        self.digits = digits


def parse_json(text: str, *, field: str = "", limits: Limits) -> tuple[Any, list[Problem]]:
    """``text`` parsed as JSON, and its problems (not JSON, too deep, or what :func:`check_json` finds)."""
    try:
        value = json.loads(text, parse_int=_parse_int)
    except RecursionError:
        return None, [Problem(field, None, f"is nested deeper than {limits.max_depth} levels (not allowed)")]
    except ValueError as exc:
        where = f": {exc.msg} at position {exc.pos}" if isinstance(exc, json.JSONDecodeError) else f" ({exc})"
        return None, [Problem(field, None, f"is not valid JSON{where}")]
    return value, check_json(value, field=field, limits=limits)


def _parse_int(literal: str) -> int | _LongNumber:
    digits = len(literal.lstrip("-"))
    return _LongNumber(digits) if digits > 4000 else int(literal)


def check_json(value: Any, *, field: str = "", limits: Limits) -> list[Problem]:
    """The problems of ``value`` (parsed JSON), each with its path under ``field``; empty when it is fine.

    Stops after ``MAX_PROBLEMS`` problems, and at the first value past ``limits.max_nodes``.
    """
    problems: list[Problem] = []
    stack: list[tuple[Any, str, str | None, int]] = [(value, field, None, 0)]
    nodes = 0
    while stack and len(problems) < MAX_PROBLEMS:
        item, path, parameter, depth = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes:
            problems.append(Problem(field, None, f"holds more than {limits.max_nodes:,} values (not allowed)"))
            break
        reason = _value_problem(item, depth, limits)
        if reason:
            problems.append(Problem(path, parameter, reason))
            continue
        children = []
        for key, child in _children(item):
            child_path = _join(path, key)
            child_parameter = parameter if parameter is not None else _join("", key)
            if isinstance(key, str) and (key_reason := _text_problem(key, limits.max_text)):
                problems.append(Problem(child_path, child_parameter, f"has a name that {key_reason}"))
            else:
                children.append((child, child_path, child_parameter, depth + 1))
        stack += reversed(children)
    return problems[:MAX_PROBLEMS]


def _value_problem(item: Any, depth: int, limits: Limits) -> str | None:
    if isinstance(item, dict | list | tuple):
        if depth >= limits.max_depth:
            return f"is nested deeper than {limits.max_depth} levels (not allowed)"
        if isinstance(item, dict) and not all(isinstance(key, str) for key in item):
            return "has a name that is not text (not allowed)"
        return None
    if isinstance(item, str):
        return _text_problem(item, limits.max_text)
    if item is None or isinstance(item, bool):
        return None
    if isinstance(item, int):
        if abs(item) >= 10**limits.max_digits:
            return f"is a number with more than {limits.max_digits} digits (not allowed)"
        return None
    if isinstance(item, float):
        if math.isnan(item):
            return "is NaN (not a JSON number; not allowed)"
        if math.isinf(item):
            return "is Infinity (not a JSON number; not allowed)"
        return None
    if isinstance(item, _LongNumber):
        return f"is a number with {item.digits:,} digits (the limit is {limits.max_digits})"
    return f"is not a JSON value ({type(item).__name__})"


def _text_problem(text: str, max_text: int) -> str | None:
    if "\x00" in text:
        return "contains a NUL character (not allowed)"
    if not text.isascii() and _SURROGATE.search(text):
        return "contains an unpaired surrogate (not valid Unicode; not allowed)"
    if len(text) > max_text:
        return f"is {len(text):,} characters long (the limit is {max_text:,})"
    return None


def _children(item: Any):
    if isinstance(item, dict):
        return item.items()
    if isinstance(item, list | tuple):
        return enumerate(item)
    return ()


def _join(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _NAME.fullmatch(key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key[:40])}]"  # json.dumps escapes NUL and surrogates


def clean_text(text: str, *, field: str, max_chars: int | None = None) -> tuple[str, list[str]]:
    """``text`` as it can be stored: NUL and unpaired surrogates replaced by U+FFFD, and cut at
    ``max_chars`` with a marker saying how much was left out. Returns (text, notes on what changed)."""
    notes = []
    bad = len(_NUL_OR_SURROGATE.findall(text)) if ("\x00" in text or not text.isascii()) else 0
    if bad:
        text = _NUL_OR_SURROGATE.sub(REPLACEMENT, text)
        notes.append(
            f"{field or 'the text'}: {bad} NUL or surrogate character{'s' * (bad != 1)} "
            "(not storable) replaced with U+FFFD"
        )
    if max_chars is not None and len(text) > max_chars:
        left_out = len(text) - max_chars
        text = f"{text[:max_chars]}… [{left_out:,} more characters not stored]"
        notes.append(f"{field or 'the text'}: cut to {max_chars:,} characters ({left_out:,} not stored)")
    return text, notes


def storable(value: Any, *, field: str = "", limits: Limits) -> tuple[Any, list[str]]:
    """``value`` as a JSON column can store it, and notes on what had to change.

    Text is cleaned (:func:`clean_text`, cut at ``limits.max_text``); NaN, Infinity, integers past
    ``limits.max_digits`` digits and other non-JSON values become text; a container nested past
    ``limits.max_depth`` becomes a marker; values past ``limits.max_nodes`` are left out.

    A value that needs none of this (plain dicts with text keys, lists, text, numbers, booleans and
    None, within the limits: what a tool or a model answers nearly always) is returned itself, not
    copied, after a check that builds no paths; anything else is repaired into a copy.
    """
    if _needs_no_repair(value, limits):
        return value, []
    return _repaired(value, field, limits)


def _needs_no_repair(value: Any, limits: Limits) -> bool:
    """Whether :func:`_repaired` would return an equal value with no notes. Conservative: a tuple, a
    subclass of a JSON type or a key that is not text counts as needing repair (``_repaired`` decides)."""
    max_text, max_depth, max_nodes = limits.max_text, limits.max_depth, limits.max_nodes
    bound = 10**limits.max_digits
    stack: list[tuple[Any, int]] = [(value, 0)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        kind = type(item)
        if kind is str:
            if len(item) > max_text or _unstorable_text(item):
                return False
        elif kind is dict:
            if depth >= max_depth:
                return False
            for key, child in item.items():
                if type(key) is not str or len(key) > max_text or _unstorable_text(key):
                    return False
                stack.append((child, depth + 1))
        elif kind is list:
            if depth >= max_depth:
                return False
            stack += [(child, depth + 1) for child in item]
        elif kind is int:
            if not -bound < item < bound:
                return False
        elif kind is float:
            if not math.isfinite(item):
                return False
        elif item is not None and kind is not bool:
            return False
        if nodes > max_nodes:
            return False
    return True


def _unstorable_text(text: str) -> bool:
    return ("\x00" in text or not text.isascii()) and _NUL_OR_SURROGATE.search(text) is not None


def _repaired(value: Any, field: str, limits: Limits) -> tuple[Any, list[str]]:
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, str, int]] = [(value, root, 0, field, 0)]
    notes: list[str] = []
    nodes = 0
    while stack:
        item, parent, slot, path, depth = stack.pop()
        nodes += 1
        if nodes > limits.max_nodes:
            notes.append(f"{field or 'the value'}: values past the first {limits.max_nodes:,} not stored")
            break
        if isinstance(item, dict | list | tuple):
            if depth >= limits.max_depth:
                parent[slot] = f"[nested deeper than {limits.max_depth} levels: not stored]"
                notes.append(f"{path or 'the value'}: nested deeper than {limits.max_depth} levels, not stored")
                continue
            copy, entries = _storable_container(item, path, limits, notes)
            parent[slot] = copy
            stack += [
                (child, copy, child_slot, child_path, depth + 1) for child, child_slot, child_path in reversed(entries)
            ]
            continue
        parent[slot], note = _storable_scalar(item, path, limits)
        notes += note
    return root[0], notes[:MAX_PROBLEMS]


def _storable_container(item: Any, path: str, limits: Limits, notes: list[str]) -> tuple[Any, list[tuple]]:
    """An empty copy of a container (keys cleaned, in order) and its (child, slot, path) entries."""
    if not isinstance(item, dict):
        return [None] * len(item), [(child, index, f"{path}[{index}]") for index, child in enumerate(item)]
    copy: dict[str, None] = {}
    entries: list[tuple] = []
    for key, child in item.items():
        child_path = _join(path, str(key))
        slot, key_notes = clean_text(str(key), field=child_path, max_chars=limits.max_text)
        notes += key_notes
        copy[slot] = None
        entries.append((child, slot, child_path))
    return copy, entries


def _storable_scalar(item: Any, path: str, limits: Limits) -> tuple[Any, list[str]]:
    if isinstance(item, str):
        return clean_text(item, field=path, max_chars=limits.max_text)
    if item is None or isinstance(item, bool):
        return item, []
    where = path or "the value"
    if isinstance(item, int):
        if abs(item) < 10**limits.max_digits:
            return item, []
        digits = int(item.bit_length() * math.log10(2)) + 1
        text = f"[a number of about {digits:,} digits]"
        return text, [f"{where}: a number of about {digits:,} digits stored as text"]
    if isinstance(item, float):
        if math.isfinite(item):
            return item, []
        text = "NaN" if math.isnan(item) else ("Infinity" if item > 0 else "-Infinity")
        return text, [f"{where}: {text} (not a JSON number) stored as text"]
    if isinstance(item, _LongNumber):
        return f"[a number of {item.digits:,} digits]", [f"{where}: a number of {item.digits:,} digits stored as text"]
    text, notes = clean_text(repr(item)[: limits.max_text], field=path)
    return text, [f"{where}: a {type(item).__name__}, not a JSON value, stored as text", *notes]
