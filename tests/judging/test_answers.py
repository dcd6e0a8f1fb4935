"""normalise_answer: what agents really submit becomes a PredictedAnswer, with every repair noted."""

from __future__ import annotations

import json

from judging.answers import normalise_answer
from tests.judging.cases import AMBER, KEOPS, ROUTING_L1, SAVOY, answer_of
from tests.judging.fakes import resolver

NAMES = resolver({"Keops": KEOPS, "Savoy-teatteri": SAVOY, "Amber Palace": AMBER})


def test_reference_shaped_answer_reads_cleanly():
    predicted = normalise_answer(answer_of(ROUTING_L1))
    assert predicted.submitted
    assert (predicted.start, predicted.end, predicted.waypoints) == (KEOPS, AMBER, (SAVOY,))
    assert predicted.visit_order == (KEOPS, SAVOY, AMBER)
    assert predicted.place_ids == (KEOPS, SAVOY, AMBER)
    assert (predicted.vehicle, predicted.mode) == ("driving", "distance")
    assert (predicted.total_distance_m, predicted.total_time_s) == (563.9, 100.3)
    assert predicted.attribute_keys == ("place_type",)
    assert predicted.problems == ()


def test_no_submission_is_an_empty_unsubmitted_answer():
    predicted = normalise_answer(None)
    assert not predicted.submitted
    assert predicted.place_ids == ()
    assert predicted.problems == ("no answer was submitted",)


def test_json_string_and_fenced_json_are_parsed():
    text = json.dumps(answer_of(ROUTING_L1))
    assert normalise_answer(text).visit_order == (KEOPS, SAVOY, AMBER)
    assert normalise_answer(f"```json\n{text}\n```").total_distance_m == 563.9


def test_submit_answer_wrapper_is_unwrapped_with_a_note():
    predicted = normalise_answer({"result": json.dumps(answer_of(ROUTING_L1))})
    assert predicted.end == AMBER
    assert any("wrapped" in p for p in predicted.problems)


def test_empty_answers_are_submitted_but_hold_nothing():
    for empty in ({}, "", "   "):
        predicted = normalise_answer(empty)
        assert predicted.submitted and predicted.place_ids == () and not predicted.has_value
        assert predicted.problems and "empty" in predicted.problems[0]


def test_missing_fields_are_none_and_extra_fields_are_ignored():
    predicted = normalise_answer({"start": {"place_id": KEOPS}, "weather": "sunny", "constraints_satisfied": ["x"]})
    assert predicted.start == KEOPS
    assert predicted.end is None and predicted.waypoints == () and predicted.vehicle is None
    assert predicted.total_distance_m is None and predicted.total_time_s is None
    assert predicted.visit_order == (KEOPS,)
    assert predicted.problems == ()


def test_totals_given_as_text_are_read_as_numbers():
    predicted = normalise_answer({"total_distance_m": "1234.5", "total_time_s": "1,300 s"})
    assert predicted.total_distance_m == 1234.5
    assert predicted.total_time_s == 1300.0
    assert any("'1234.5' is text; read it as 1234.5" in p for p in predicted.problems)


def test_totals_that_are_not_numbers_are_dropped_with_a_note():
    predicted = normalise_answer({"total_distance_m": "about 5 or 6 km", "total_time_s": True})
    assert predicted.total_distance_m is None and predicted.total_time_s is None
    assert len([p for p in predicted.problems if "is not a number" in p]) == 2


def test_places_given_by_name_only_are_resolved():
    predicted = normalise_answer(
        {"start": {"name": "Keops"}, "waypoints": [{"name": "Savoy-teatteri"}], "end": "Amber Palace"},
        resolve_name=NAMES,
    )
    assert predicted.visit_order == (KEOPS, SAVOY, AMBER)
    assert any("resolved 'Keops' to N603743713" in p for p in predicted.problems)


def test_unknown_names_are_dropped_with_a_note():
    predicted = normalise_answer({"waypoints": [{"name": "Nowhere Café"}]}, resolve_name=NAMES)
    assert predicted.waypoints == ()
    assert any("'Nowhere Café', which names no known place" in p for p in predicted.problems)


def test_a_list_where_an_object_belongs_reads_its_first_item():
    predicted = normalise_answer(
        {"start": [{"place_id": KEOPS}, {"place_id": SAVOY}], "waypoints": {"place_id": SAVOY}}
    )
    assert predicted.start == KEOPS
    assert predicted.waypoints == (SAVOY,)
    assert len(predicted.problems) == 2


def test_duplicates_are_removed_keeping_the_first():
    predicted = normalise_answer({"waypoints": [{"place_id": SAVOY}, {"place_id": KEOPS}, {"place_id": SAVOY}]})
    assert predicted.waypoints == (SAVOY, KEOPS)
    assert any("lists N600394448 more than once" in p for p in predicted.problems)


def test_optimal_order_is_sorted_by_visit_order_and_wins_over_the_route_fields():
    predicted = normalise_answer(
        {
            "start": {"place_id": KEOPS},
            "waypoints": [{"place_id": SAVOY}],
            "end": {"place_id": AMBER},
            "optimal_order": [
                {"place_id": AMBER, "visit_order": "3"},
                {"place_id": KEOPS, "visit_order": 1},
                {"place_id": SAVOY, "visit_order": 2},
            ],
        }
    )
    assert predicted.visit_order == (KEOPS, SAVOY, AMBER)


def test_optimal_order_without_visit_order_keeps_its_listed_order():
    predicted = normalise_answer({"optimal_order": [AMBER, KEOPS]})
    assert predicted.visit_order == (AMBER, KEOPS)


def test_direct_value_and_citations_are_read():
    predicted = normalise_answer(
        {
            "answer": "yes",
            "name": "Purpur",
            "place_id": "N1",
            "ref": {"attribute_key": "opentime_week, rating", "note_id": ["n1", "n2,n1"]},
        }
    )
    assert predicted.has_value and predicted.value == "yes"
    assert predicted.answer_place == "N1"
    assert predicted.attribute_keys == ("opentime_week", "rating")
    assert predicted.note_ids == ("n1", "n2")


def test_a_bare_value_or_plain_text_is_the_direct_value():
    assert normalise_answer(24).value == 24
    predicted = normalise_answer("No, it is closed then")
    assert predicted.value == "No, it is closed then"
    assert "not a JSON object" in predicted.problems[0]


def test_a_place_valued_answer_is_resolved_to_its_place():
    predicted = normalise_answer({"answer": "Savoy-teatteri"}, resolve_name=NAMES)
    assert predicted.value_place_id == SAVOY
    assert predicted.answer_place == SAVOY


def test_a_top_level_list_of_places_reads_as_waypoints():
    predicted = normalise_answer([{"place_id": SAVOY}, {"place_id": KEOPS}])
    assert predicted.waypoints == (SAVOY, KEOPS)
    assert "read its items as waypoints" in predicted.problems[0]


def test_an_answer_nested_under_answer_is_unwrapped():
    predicted = normalise_answer({"answer": answer_of(ROUTING_L1)})
    assert predicted.visit_order == (KEOPS, SAVOY, AMBER)
    assert not predicted.has_value
    assert "nested under 'answer'" in predicted.problems[0]


def test_an_empty_direct_value_is_no_value():
    assert not normalise_answer({"answer": "  ", "place_id": KEOPS}).has_value
