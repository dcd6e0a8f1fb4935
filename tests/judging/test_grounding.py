"""'Fetched before cited' and the grounding fallback of Reasoning Purity."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from judging.answers import normalise_answer
from judging.grounding import (
    TOLERANCE,
    TOTAL_TOLERANCE,
    _near,
    fetched_before_cited,
    reasoning_purity_grounding,
)
from judging.types import Step, Trajectory

TRAJECTORY = Trajectory(
    steps=[
        Step(
            index=0,
            tool="place_search",
            observation={"results": [{"place_id": "A", "rating": 4.2}, {"place_id": "B", "rating": 3.1}]},
        ),
        Step(index=1, tool="note_detail", observation={"note_id": "n1", "desc": "great buns"}),
        Step(
            index=2,
            tool="routing",
            observation={
                "start": {"place_id": "A"},
                "end": {"place_id": "B"},
                "total_distance_m": 500.4,
                "total_time_s": 357.4,
            },
        ),
        Step(
            index=3,
            tool="routing",
            observation={
                "start": {"place_id": "B"},
                "end": {"place_id": "C"},
                "total_distance_m": 100.1,
                "total_time_s": 71.5,
            },
        ),
        Step(index=4, tool="submit_answer", observation={"status": "submitted", "result": {"place_id": "Z"}}),
    ]
)


def trip(**changes):
    answer = {
        "start": {"place_id": "A"},
        "end": {"place_id": "C"},
        "waypoints": [{"place_id": "B", "ref": {"note_id": "n1"}}],
        "total_distance_m": 600.5,
        "total_time_s": 428.9,
    }
    answer.update(changes)
    return normalise_answer(answer)


def test_totals_that_sum_the_routing_legs_count_as_fetched():
    flags, checked = fetched_before_cited(trip(), TRAJECTORY)
    assert flags == []  # 600.5 m and 428.9 s are the sums of the two legs; C was a routing end
    assert checked == 6


def test_invented_ids_and_numbers_are_flagged():
    answer = trip(waypoints=[{"place_id": "B", "ref": {"note_id": "n9"}}], total_time_s=400.0)
    flags, _ = fetched_before_cited(answer, TRAJECTORY)
    assert {"kind": "note_id", "value": "n9", "field": "ref.note_id"} in flags
    assert {"kind": "number", "value": 400.0, "field": "total_time_s"} in flags


def test_the_submit_answer_echo_does_not_ground_anything():
    flags, _ = fetched_before_cited(normalise_answer({"place_id": "Z"}), TRAJECTORY)
    assert flags == [{"kind": "place_id", "value": "Z", "field": "place"}]


def test_reasoning_purity_from_grounding():
    clean = reasoning_purity_grounding(trip(), TRAJECTORY)
    assert clean.value == 1.0 and clean.source == "grounding"
    dirty = reasoning_purity_grounding(trip(total_time_s=999.0, total_distance_m=1.0), TRAJECTORY)
    assert dirty.value == 1 - 2 / 6 and "never appeared" in dirty.explanation
    assert reasoning_purity_grounding(normalise_answer(None), TRAJECTORY).value is None


@settings(max_examples=400, deadline=None)
@given(
    value=st.floats(allow_nan=True, allow_infinity=True),
    offsets=st.lists(st.sampled_from([0.0, 0.05, -0.05, 0.5, -0.5, 0.1, 1e-9, -1e-9, 0.0500001, 3.0]), max_size=6),
    others=st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), max_size=20),
    tolerance=st.sampled_from([TOLERANCE, TOTAL_TOLERANCE + 1e-9]),
)
def test_near_on_sorted_numbers_agrees_with_comparing_every_number(value, offsets, others, tolerance):
    """The windowed search gives the verdict of ``any(abs(value - n) <= tolerance)``, at the edges too."""
    numbers = sorted([value + offset for offset in offsets if math.isfinite(value + offset)] + others)
    assert _near(value, numbers, tolerance) == any(abs(value - n) <= tolerance for n in numbers)
