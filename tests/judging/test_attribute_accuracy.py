"""Attribute Accuracy (eq. 1): direct values for Place Perception, explicit requirements elsewhere."""

from __future__ import annotations

import pytest

from judging.answers import normalise_answer
from judging.metrics import attribute_accuracy
from tests.judging.cases import (
    AMBER,
    CANTINA,
    CASTREN,
    KEOPS,
    MARGARITA,
    NEARBY_L1,
    PELASTUS,
    PLACE_L0,
    PLACE_L1,
    PLACE_L2,
    ROUTING_L1,
    SAVOY,
    SUSHI,
    TRIP_L2,
    answer_of,
    case,
)
from tests.judging.fakes import FakeWorld, resolver

WORLD = FakeWorld(
    places={
        MARGARITA: {"place_type": "Accommodation|Hostel", "rating": 3.3, "cost": 25},
        "N_HOSTEL_2": {"place_type": "Accommodation|Hostel", "rating": 4.0, "cost": 30},
        SAVOY: {"place_type": "Entertainment|Theatre", "rating": 4.2, "cost": 40},
        "N_PUB": {"place_type": "Food|Pub", "rating": 4.0, "cost": 15},
        SUSHI: {"place_type": "Food|Sushi Restaurant", "rating": 4.1, "cost": 20},
    },
    distances={(PELASTUS, MARGARITA): 27.0, (PELASTUS, "N_HOSTEL_2"): 1200.0},
    route_offsets={(SAVOY, KEOPS, AMBER, "driving"): 12.0, ("N_PUB", KEOPS, AMBER, "driving"): 30.0},
)


def score(doc, answer, resolve_name=None, **changes):
    return attribute_accuracy(case(doc, **changes), normalise_answer(answer, resolve_name=resolve_name), world=WORLD)


@pytest.mark.parametrize(
    "value, expected", [(24, 1.0), ("24 EUR", 1.0), (24.04, 1.0), ("24.0", 1.0), (24.1, 0.0), (23, 0.0), ("cheap", 0.0)]
)
def test_numeric_value_must_match_within_0_05(value, expected):
    assert score(PLACE_L0, answer_of(PLACE_L0, answer=value)).value == expected


@pytest.mark.parametrize(
    "value, expected",
    [
        (False, 1.0),
        ("no", 1.0),
        ("False", 1.0),
        ("No, it opens at 16:00", 1.0),
        (0, 1.0),
        (True, 0.0),
        ("yes", 0.0),
        ("maybe", 0.0),
    ],
)
def test_boolean_value_reads_yes_no_true_false(value, expected):
    assert score(PLACE_L1, answer_of(PLACE_L1, answer=value)).value == expected


def test_missing_direct_value_scores_zero_with_a_reason():
    result = score(PLACE_L0, answer_of(PLACE_L0, answer=None))
    assert result.value == 0.0
    assert "no direct value" in result.explanation


def test_text_value_ignores_case_and_whitespace():
    doc = {**PLACE_L0, "answer": {**PLACE_L0["answer"], "answer": "Mo-Fr 06:00-22:00"}}
    assert score(doc, {"answer": "  mo-fr   06:00-22:00"}).value == 1.0
    assert score(doc, {"answer": "Mo-Fr 07:00-22:00"}).value == 0.0


def test_place_valued_answer_must_choose_the_reference_place():
    names = resolver({"Kehruu ja Metsästys": "N5301147790", "Vuolukivinaamiot": "N_OTHER"})
    assert score(PLACE_L2, {"answer": "kehruu ja  METSÄSTYS"}).value == 1.0
    assert score(PLACE_L2, {"answer": "Vuolukivinaamiot"}, resolve_name=names).value == 0.0
    assert score(PLACE_L2, {"answer": "N5301147790"}).value == 1.0
    assert score(PLACE_L2, {"name": "Kehruu ja Metsästys", "place_id": "N5301147790"}).value == 1.0
    assert score(PLACE_L2, {"place_id": "N_OTHER"}).value == 0.0


def test_nearby_place_meeting_type_cost_and_radius_scores_one():
    result = score(NEARBY_L1, answer_of(NEARBY_L1))
    assert result.value == 1.0
    assert [c["requirement"] for c in result.details["checks"]] == ["place_type", "max_cost", "radius_m"]


def test_nearby_place_too_expensive_and_too_far_scores_zero_and_says_why():
    result = score(NEARBY_L1, {"name": "Other Hostel", "place_id": "N_HOSTEL_2"})
    assert result.value == 0.0
    assert "2 of 3 requirements fail" in result.explanation
    assert "costs 30.0, the query allows at most 25" in result.explanation
    assert "1200.0 m from N1369465646" in result.explanation


def test_unknown_place_fails_even_when_it_is_the_reference_place():
    result = score(NEARBY_L1, {"place_id": "N_NOWHERE"})
    assert result.value == 0.0
    assert "not a place of this city" in result.explanation
    empty = attribute_accuracy(case(NEARBY_L1), normalise_answer(answer_of(NEARBY_L1)), world=FakeWorld({}))
    assert empty.value == 0.0


def test_routing_checks_waypoint_type_route_buffer_vehicle_and_mode():
    assert score(ROUTING_L1, answer_of(ROUTING_L1)).value == 1.0
    pub = answer_of(ROUTING_L1, waypoints=[{"place_id": "N_PUB"}])
    result = score(ROUTING_L1, pub)
    assert result.value == 0.0
    assert "N_PUB is a 'Food|Pub', the query asks for 'Theatre'" in result.explanation


def test_routing_waypoint_outside_the_route_buffer_fails():
    places = {**WORLD.places, "N_THEATRE_2": {"place_type": "Entertainment|Theatre"}}
    far = FakeWorld(places, route_offsets={("N_THEATRE_2", KEOPS, AMBER, "driving"): 75.0})
    answer = answer_of(ROUTING_L1, waypoints=[{"place_id": "N_THEATRE_2"}])
    result = attribute_accuracy(case(ROUTING_L1), normalise_answer(answer), world=far)
    assert result.value == 0.0
    assert (
        "N_THEATRE_2 is 75.0 m off the driving route N603743713 -> N4756333508, the query allows 50 m"
        in result.explanation
    )


def test_wrong_or_missing_vehicle_fails():
    assert score(ROUTING_L1, answer_of(ROUTING_L1, vehicle="Walking")).value == 0.0
    result = score(ROUTING_L1, answer_of(ROUTING_L1, mode=None))
    assert result.value == 0.0 and "the answer gives no mode" in result.explanation
    assert score(ROUTING_L1, answer_of(ROUTING_L1, vehicle=" DRIVING ")).value == 1.0


def test_route_answer_without_waypoints_fails_place_requirements():
    result = score(ROUTING_L1, answer_of(ROUTING_L1, waypoints=[], optimal_order=None))
    assert result.value == 0.0
    assert "names no target place" in result.explanation


def test_a_stop_the_reference_also_has_is_exempt_from_the_type_filter():
    # Trip L2 with a theatre filter: Day & Nite Sushi Bar is the user's own stop, not a theatre.
    constraints = {**TRIP_L2["constraints"], "place_type": "Theatre"}
    result = score(TRIP_L2, answer_of(TRIP_L2), constraints=constraints)
    assert result.value == 1.0
    assert any(c.get("exempt") for c in result.details["checks"])
    extra = answer_of(TRIP_L2, waypoints=[{"place_id": SUSHI}, {"place_id": SAVOY}, {"place_id": "N_PUB"}])
    assert score(TRIP_L2, extra, constraints=constraints).value == 0.0


def test_no_explicit_requirement_holds_vacuously():
    result = score(TRIP_L2, {"start": {"place_id": CANTINA}, "end": {"place_id": CASTREN}}, constraints={})
    assert result.value == 1.0
    assert "no explicit attribute requirement" in result.explanation


def test_no_submission_scores_zero():
    result = attribute_accuracy(case(NEARBY_L1), normalise_answer(None), world=WORLD)
    assert result.value == 0.0


def test_place_requirements_without_a_world_are_a_programming_error():
    with pytest.raises(ValueError, match="needs a world"):
        attribute_accuracy(case(NEARBY_L1), normalise_answer(answer_of(NEARBY_L1)))
