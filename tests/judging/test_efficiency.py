"""Tool Efficiency (eq. 6) and Token Usage."""

from __future__ import annotations

import pytest

from judging.answers import normalise_answer
from judging.metrics import token_usage, tool_efficiency
from judging.types import Step, Trajectory
from tests.judging.cases import NEARBY_L1, PLACE_L0, ROUTING_L1, case, trajectory


def te(doc, path):
    return tool_efficiency(case(doc), normalise_answer(doc["answer"]), path)


def calls(*tools: str) -> Trajectory:
    return trajectory(*[(tool, {}, {}) for tool in tools])


def test_worked_example_twice_the_reference_calls_scores_half():
    # reference: place_search, nearby_search (+ submit_answer, not counted); agent: 4 calls + submit.
    result = te(NEARBY_L1, calls("place_search", "place_search", "nearby_search", "nearby_search", "submit_answer"))
    assert result.value == pytest.approx(0.5)
    assert result.details == {"reference_calls": 2, "calls": 4}


def test_fewer_calls_than_the_reference_is_capped_at_one():
    assert te(NEARBY_L1, calls("nearby_search", "submit_answer")).value == 1.0


def test_submit_answer_is_not_counted_in_the_reference_path():
    assert te(ROUTING_L1, calls(*["place_search"] * 5, "submit_answer")).value == 1.0
    assert te(ROUTING_L1, calls(*["place_search"] * 6)).value == pytest.approx(5 / 6)


def test_failed_calls_count():
    path = trajectory(
        ("place_search", {}, {}), ("place_detail", {}, {"error": {"kind": "not_found"}}), ("place_detail", {}, {})
    )
    assert te(PLACE_L0, path).value == pytest.approx(2 / 3)


def test_no_tool_call_scores_zero_when_the_case_needs_tools():
    for path in (None, calls(), calls("submit_answer")):
        result = te(PLACE_L0, path)
        assert result.value == 0.0
        assert "no tool was called; the reference path needs 2" in result.explanation


def test_no_tool_call_when_none_is_needed_scores_one():
    assert te({**PLACE_L0, "reference_path": []}, calls()).value == 1.0


def test_token_usage_counts_steps_or_totals_whichever_is_larger():
    path = Trajectory(
        steps=[
            Step(index=0, tool="place_search", input_tokens=100, output_tokens=10),
            Step(index=1, tool="submit_answer", input_tokens=200, output_tokens=20),
        ],
        input_tokens=350,
        output_tokens=25,
    )
    result = token_usage(case(PLACE_L0), normalise_answer(None), path)
    assert result.value is None and result.source == "count"
    assert result.details == {"input_tokens": 350, "output_tokens": 30, "total_tokens": 380}


def test_token_usage_without_a_trajectory_is_zero():
    assert token_usage(case(PLACE_L0), normalise_answer(None), None).details["total_tokens"] == 0
