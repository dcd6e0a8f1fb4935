"""The input hygiene checks (environment/inputs.py): each problem named by its JSON path, and a
storable copy of what must be kept; iterative, so no input is too deep for them."""

from __future__ import annotations

import json
import math

from environment.inputs import TOOL_ARGUMENTS, check_json, clean_text, parse_json, storable


def nested(depth: int, leaf="x"):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# ---------------------------------------------------------------- the checks themselves


def test_check_json_names_the_path_of_each_problem():
    problems = check_json(
        {"query": "a\x00b", "x": [1, {"y": math.nan}], "big": 10**30, "s": "\ud800"},
        field="arguments",
        limits=TOOL_ARGUMENTS,
    )
    assert [(p.path, p.parameter) for p in problems] == [
        ("arguments.query", "query"),
        ("arguments.x[1].y", "x"),
        ("arguments.big", "big"),
        ("arguments.s", "s"),
    ]
    assert problems[0].reason == "contains a NUL character (not allowed)"
    assert "NaN" in problems[1].reason and "18 digits" in problems[2].reason and "surrogate" in problems[3].reason


def test_check_json_and_storable_walk_a_100000_deep_value_without_recursing():
    deep = nested(100_000)
    problems = check_json({"result": deep}, limits=TOOL_ARGUMENTS)
    assert len(problems) == 1 and problems[0].parameter == "result" and "deeper than 16" in problems[0].reason
    kept, notes = storable({"result": deep}, limits=TOOL_ARGUMENTS)
    json.dumps(kept)  # storable
    assert notes and "deeper than 16" in notes[0]


def test_parse_json_refuses_a_100000_deep_text_and_a_5000_digit_number_naming_them():
    _, deep = parse_json("[" * 100_000 + "]" * 100_000, field="params", limits=TOOL_ARGUMENTS)
    assert [(p.path, p.reason) for p in deep] == [("params", "is nested deeper than 16 levels (not allowed)")]
    _, huge = parse_json('{"radius": 1' + "0" * 5000 + ', "r": NaN, "i": -Infinity}', limits=TOOL_ARGUMENTS)
    assert [p.path for p in huge] == ["radius", "r", "i"]
    assert huge[0].reason == "is a number with 5,001 digits (the limit is 18)"


def test_storable_repairs_what_postgresql_refuses_and_notes_it():
    value, notes = storable(
        {"q": "a\x00b", "n": math.inf, "big": 10**5000, "k\x00": 1, "long": "y" * 20_000},
        field="arguments",
        limits=TOOL_ARGUMENTS,
    )
    assert value["q"] == "a\ufffdb" and value["n"] == "Infinity" and "5,001 digits" in value["big"]
    assert "k\ufffd" in value and value["long"].startswith("y" * 10_000) and "10,000 more" in value["long"]
    assert len(notes) == 5 and {n.split(":")[0] for n in notes} == {
        "arguments.q",
        "arguments.n",
        "arguments.big",
        'arguments["k\\u0000"]',
        "arguments.long",
    }
    text, text_notes = clean_text("ok\x00", field="steps[0].model_text", max_chars=100)
    assert text == "ok\ufffd" and text_notes == [
        "steps[0].model_text: 1 NUL or surrogate character (not storable) replaced with U+FFFD"
    ]
