"""Routing Deviation (eq. 3): RD_v = PIoU · max(0, 1 − |v − v*| / v*), on the routing L1 case.

Reference: Keops -> Savoy-teatteri -> Amber Palace, 563.9 m, 100.3 s.
"""

from __future__ import annotations

import pytest

from judging.answers import normalise_answer
from judging.metrics import routing_deviation_distance, routing_deviation_time
from tests.judging.cases import ROUTING_L1, answer_of, case


def rd_distance(answer, doc=ROUTING_L1):
    return routing_deviation_distance(case(doc), normalise_answer(answer))


def test_exact_totals_score_one():
    answer = answer_of(ROUTING_L1)
    assert rd_distance(answer).value == 1.0
    assert routing_deviation_time(case(ROUTING_L1), normalise_answer(answer)).value == 1.0


def test_worked_example_ten_percent_off():
    # |620.29 − 563.9| / 563.9 = 0.1 -> RD = 1 × 0.9
    result = rd_distance(answer_of(ROUTING_L1, total_distance_m=620.29))
    assert result.value == pytest.approx(0.9)
    assert "off by 10.0%" in result.explanation


def test_a_total_given_as_text_counts():
    result = routing_deviation_time(case(ROUTING_L1), normalise_answer(answer_of(ROUTING_L1, total_time_s="100.3")))
    assert result.value == 1.0


def test_right_distance_with_a_wrong_waypoint_is_scaled_by_piou():
    # {Keops, Other, Amber} vs {Keops, Savoy, Amber}: PIoU = 2/4.
    answer = answer_of(ROUTING_L1, waypoints=[{"place_id": "N_OTHER"}], optimal_order=None)
    assert rd_distance(answer).value == pytest.approx(0.5)


def test_more_than_double_the_reference_scores_zero():
    assert rd_distance(answer_of(ROUTING_L1, total_distance_m=1200)).value == 0.0


def test_missing_total_scores_zero_and_says_so():
    result = rd_distance(answer_of(ROUTING_L1, total_distance_m=None))
    assert result.value == 0.0
    assert "gives no total_distance_m" in result.explanation


def test_zero_reference_total():
    doc = {**ROUTING_L1, "answer": {**ROUTING_L1["answer"], "total_distance_m": 0}}
    assert rd_distance(answer_of(doc), doc=doc).value == 1.0
    assert rd_distance(answer_of(doc, total_distance_m=5), doc=doc).value == 0.0


def test_no_reference_total_means_not_applicable():
    doc = {**ROUTING_L1, "answer": answer_of(ROUTING_L1, total_distance_m=None)}
    assert rd_distance(answer_of(ROUTING_L1), doc=doc).value is None


def test_no_submission_scores_zero():
    assert rd_distance(None).value == 0.0
