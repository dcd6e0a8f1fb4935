"""The input hygiene checks (kernel/inputs.py): each problem named by its JSON path, and a
storable copy of what must be kept; iterative, so no input is too deep for them."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.inputs import (
    TOOL_ARGUMENTS,
    Limits,
    _needs_no_repair,
    _repaired,
    check_json,
    clean_text,
    parse_json,
    storable,
)


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


# ---------------------------------------------------------------- storable's check before the repair

_SMALL = Limits(max_depth=4, max_text=12, max_nodes=30, max_digits=5)
_text = st.text(alphabet=st.sampled_from(["a", "é", "\x00", "\ud800", '"', "\\", " "]), max_size=16)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**7), max_value=10**7)
    | st.floats(allow_nan=True, allow_infinity=True)
    | _text
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(_text | st.integers(-3, 3) | st.booleans(), inner, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=500, deadline=None)
@given(value=_values)
def test_storable_gives_what_the_full_repair_gives_whether_or_not_it_takes_the_shortcut(value):
    kept, notes = storable(value, field="v", limits=_SMALL)
    repaired, repaired_notes = _repaired(value, "v", _SMALL)
    assert json.dumps(kept, sort_keys=False) == json.dumps(repaired, sort_keys=False)
    assert notes == repaired_notes
    if _needs_no_repair(value, _SMALL):
        assert kept is value and notes == []


def test_storable_returns_a_clean_value_itself_and_repairs_a_copy_of_any_other():
    clean = {"places": [{"id": "p1", "rating": 4.5, "open": True, "note": None, "n": 3}], "text": "Töölö ✓"}
    assert storable(clean, limits=TOOL_ARGUMENTS) == (clean, [])
    assert storable(clean, limits=TOOL_ARGUMENTS)[0] is clean
    for dirty in (
        {"a": ("tuple", 1)},
        {"a": [math.nan]},
        {1: "an int key"},
        {"a": "x" * 10_001},
        {"a": 10**18},
        nested(17),
        [0] * 2_001,
    ):
        before = json.dumps(dirty, default=str)
        kept, notes = storable(dirty, limits=TOOL_ARGUMENTS)
        assert kept is not dirty and json.dumps(dirty, default=str) == before  # the original is left as it was
        assert kept == _repaired(dirty, "", TOOL_ARGUMENTS)[0]
        assert notes or dirty in ({"a": ("tuple", 1)}, {1: "an int key"})  # a tuple or an int key: converted silently
