"""Information Grounding (eq. 5, normalised by the required evidence E): what counts as observed."""

from __future__ import annotations

import pytest

from judging.answers import normalise_answer
from judging.metrics import information_grounding, required_evidence
from tests.judging.cases import (
    AMBER,
    ESIRIPPU,
    KEOPS,
    NEARBY_L2,
    NOTE_A,
    NOTE_B,
    PUUN,
    ROUTING_L1,
    SAVOY,
    case,
    trajectory,
)

ESIRIPPU_LIGHT = {"place_id": ESIRIPPU, "name": "Esirippu", "place_type": "Memorial", "rating": 4.1, "cost": 0}
ESIRIPPU_DETAIL = {**ESIRIPPU_LIGHT, "address": "", "opentime_week": "", "tag": "Free entry on first Friday evening"}


def note(note_id: str, *, full: bool) -> dict:
    record = {"note_id": note_id, "title": "Free Friday", "time": "2026-01-01 10:00:00", "liked_count": 3}
    return {**record, "desc": "Free entry on the first Friday evening."} if full else record


def ig(doc, path):
    return information_grounding(case(doc), normalise_answer(doc["answer"]), path)


SEARCHED = [
    ("place_search", {"query_name": "Puun syleilyssä"}, {"results": [{"place_id": PUUN, "name": "Puun syleilyssä"}]}),
    ("nearby_search", {"center": PUUN, "radius_meters": 400}, {"results": [ESIRIPPU_LIGHT]}),
    ("search_notes", {"keyword": "Esirippu"}, {"results": [note(NOTE_A, full=False), note(NOTE_B, full=False)]}),
    ("note_detail", {"note_id": NOTE_A}, note(NOTE_A, full=True)),
]


def test_required_evidence_of_a_nearby_l2_case():
    labels = [label for label, _ in required_evidence(case(NEARBY_L2))]
    assert labels == [
        f"attribute {ESIRIPPU}.tag:Free entry on first Friday evening",
        f"note {NOTE_A}",
        f"note {NOTE_B}",
        f"place {ESIRIPPU}",
    ]


def test_worked_example_two_of_four_observed():
    # The place is in a search result and NOTE_A was read; the tag field was never shown
    # (searches return light records) and NOTE_B appeared only as a title in a search list.
    result = ig(NEARBY_L2, trajectory(*SEARCHED))
    assert result.value == pytest.approx(0.5)
    assert result.details["observed"] == [f"note {NOTE_A}", f"place {ESIRIPPU}"]
    assert result.details["missed"] == [
        f"attribute {ESIRIPPU}.tag:Free entry on first Friday evening",
        f"note {NOTE_B}",
    ]


def test_place_detail_and_note_detail_complete_the_evidence():
    more = [
        ("place_detail", {"place_id": ESIRIPPU}, ESIRIPPU_DETAIL),
        ("note_detail", {"note_id": NOTE_B}, note(NOTE_B, full=True)),
    ]
    assert ig(NEARBY_L2, trajectory(*SEARCHED, *more)).value == 1.0


def test_failed_calls_and_submit_answer_observe_nothing():
    failed = [
        ("note_detail", {"note_id": NOTE_B}, {"error": {"kind": "not_found", "note_id": NOTE_B}}),
        ("submit_answer", {"result": {}}, {"status": "submitted", "result": note(NOTE_B, full=True)}),
    ]
    assert ig(NEARBY_L2, trajectory(*SEARCHED, *failed)).value == pytest.approx(0.5)


def test_observations_stored_as_json_text_are_read():
    steps = [("place_detail", {"place_id": ESIRIPPU}, f'{{"place_id": "{ESIRIPPU}", "tag": "x"}}')]
    assert f"place {ESIRIPPU}" in ig(NEARBY_L2, trajectory(*steps)).details["observed"]


def test_no_trajectory_observes_nothing():
    for path in (None, trajectory()):
        result = ig(NEARBY_L2, path)
        assert result.value == 0.0
        assert "no tool was called" in result.explanation


def routing_obs(a: str, b: str, mode: str) -> dict:
    return {
        "start": {"place_id": a, "name": a},
        "end": {"place_id": b, "name": b},
        "vehicle": "driving",
        "mode": mode,
        "total_distance_m": 300.0,
        "total_time_s": 50.0,
    }


ROUTE_SEARCHES = [
    ("place_search", {"query_name": "Keops"}, {"results": [{"place_id": KEOPS, "name": "Keops"}]}),
    ("place_search", {"query_name": "Amber Palace"}, {"results": [{"place_id": AMBER, "name": "Amber Palace"}]}),
    (
        "nearby_search",
        {},
        {
            "center": {"start": KEOPS, "end": AMBER, "vehicle": "driving"},
            "results": [{"place_id": SAVOY, "name": "Savoy-teatteri", "place_type": "Theatre"}],
        },
    ),
]


def test_routing_legs_need_the_cases_vehicle_and_mode():
    # E: Savoy's place_type, 3 places, 2 legs = 6. The second leg was routed for time, not distance.
    steps = [
        *ROUTE_SEARCHES,
        ("routing", {}, routing_obs(KEOPS, SAVOY, "distance")),
        ("routing", {}, routing_obs(SAVOY, AMBER, "time")),
    ]
    result = ig(ROUTING_L1, trajectory(*steps))
    assert result.value == pytest.approx(5 / 6)
    assert result.details["missed"] == [f"leg {SAVOY} -> {AMBER} (driving, distance)"]


def test_a_leg_routed_backwards_is_not_the_leg():
    steps = [
        *ROUTE_SEARCHES,
        ("routing", {}, routing_obs(KEOPS, SAVOY, "distance")),
        ("routing", {}, routing_obs(AMBER, SAVOY, "distance")),
    ]
    assert ig(ROUTING_L1, trajectory(*steps)).value == pytest.approx(5 / 6)


def test_following_the_reference_path_grounds_everything():
    steps = [
        *ROUTE_SEARCHES,
        ("routing", {}, routing_obs(KEOPS, SAVOY, "distance")),
        ("routing", {}, routing_obs(SAVOY, AMBER, "distance")),
    ]
    assert ig(ROUTING_L1, trajectory(*steps)).value == 1.0
