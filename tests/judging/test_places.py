"""Place-set IoU (eq. 2) and Order Consistency (eq. 4), hand-worked on the trip L1 case.

Reference order: Valiosarjat (rank 0), Hotel Finn (1), Klaus K (2), Hotel Arthur (3).
"""

from __future__ import annotations

import pytest

from judging.answers import normalise_answer
from judging.metrics import order_consistency, place_set_iou
from tests.judging.cases import ARTHUR, FINN, KLAUS, PLACE_L0, ROUTING_L1, TRIP_L1, VALIO, case
from tests.judging.fakes import resolver

KAMP = "N_KAMP"  # a hotel the reference does not visit


def ordered(*place_ids: str) -> dict:
    return {"optimal_order": [{"place_id": p, "visit_order": i + 1} for i, p in enumerate(place_ids)]}


def piou(answer, doc=TRIP_L1, **kwargs):
    return place_set_iou(case(doc), normalise_answer(answer, **kwargs))


def oc(answer, doc=TRIP_L1):
    return order_consistency(case(doc), normalise_answer(answer))


def test_piou_is_one_for_the_reference_answer():
    assert piou(TRIP_L1["answer"]).value == 1.0


def test_piou_worked_example_three_shared_of_five():
    # {Valio, Klaus, Kamp, Finn} vs {Valio, Finn, Klaus, Arthur}: 3 shared, 5 in the union.
    result = piou(ordered(VALIO, KLAUS, KAMP, FINN))
    assert result.value == pytest.approx(0.6)
    assert result.details["missing"] == [ARTHUR] and result.details["extra"] == [KAMP]
    assert "3 shared of 5" in result.explanation


def test_piou_counts_duplicates_once():
    answer = {"start": {"place_id": VALIO}, "waypoints": [{"place_id": FINN}, {"place_id": FINN}]}
    assert piou(answer).value == pytest.approx(2 / 4)


def test_piou_resolves_places_given_by_name():
    names = resolver({"Hotel Finn": FINN, "Klaus K": KLAUS})
    answer = {
        "start": {"place_id": VALIO},
        "waypoints": [{"name": "Hotel Finn"}, {"name": "Klaus K"}],
        "end": {"place_id": ARTHUR},
    }
    assert piou(answer, resolve_name=names).value == 1.0


def test_piou_of_an_empty_or_missing_answer_is_zero():
    assert piou({}).value == 0.0
    missing = piou(None)
    assert missing.value == 0.0 and "no answer was submitted" in missing.explanation


def test_piou_does_not_apply_when_the_reference_names_no_place():
    result = piou({"answer": 24}, doc={**PLACE_L0, "answer": {"answer": 24}})
    assert result.value is None and not result.applicable


def test_oc_is_one_for_the_reference_order():
    assert oc(TRIP_L1["answer"]).value == 1.0


def test_oc_worked_example_one_inversion_of_six():
    # Valio, Klaus, Finn, Arthur: ranks 0, 2, 1, 3 -> one inverted pair of C(4,2) = 6.
    result = oc(ordered(VALIO, KLAUS, FINN, ARTHUR))
    assert result.value == pytest.approx(1 - 1 / 6)
    assert (result.details["inverted_pairs"], result.details["pairs"]) == (1, 6)


def test_oc_worked_example_scaled_by_piou():
    # Valio, Klaus, Kamp, Finn: s = Valio, Klaus, Finn (ranks 0, 2, 1): D = 1 of 3; PIoU = 3/5.
    result = oc(ordered(VALIO, KLAUS, KAMP, FINN))
    assert result.details["shared_order"] == [VALIO, KLAUS, FINN]
    assert result.value == pytest.approx(0.6 * (1 - 1 / 3))


def test_oc_fully_reversed_order_scores_zero():
    assert oc(ordered(ARTHUR, KLAUS, FINN, VALIO)).value == 0.0


def test_oc_with_fewer_than_two_shared_places_is_zero():
    result = oc(ordered(KAMP, FINN))
    assert result.value == 0.0
    assert "only 1 of the reference's places" in result.explanation
    assert oc({}).value == 0.0


def test_oc_without_optimal_order_uses_start_waypoints_end():
    answer = {
        "start": {"place_id": VALIO},
        "waypoints": [{"place_id": FINN}, {"place_id": KLAUS}],
        "end": {"place_id": ARTHUR},
    }
    assert oc(answer).value == 1.0


def test_oc_ignores_repeated_stops():
    assert oc(ordered(VALIO, FINN, FINN, KLAUS, ARTHUR)).value == 1.0


def test_oc_of_a_three_stop_route():
    assert oc(ROUTING_L1["answer"], doc=ROUTING_L1).value == 1.0
