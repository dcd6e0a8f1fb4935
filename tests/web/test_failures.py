"""Failure reasons of a trajectory, from hand-built score dicts and from what the real metrics write."""

import pytest

from benchmark.web.failures import REASON_CODES, REASONS, failure_reasons
from judging.answers import normalise_answer
from judging.metrics import order_consistency, place_set_iou, semantic_constraint_rules
from judging.types import CaseSpec
from tests.factories import failing_scores, metric, passing_scores


def reasons(scores=None, *, ended="submitted", passed=False, category="routing"):
    return failure_reasons(
        ended=ended, passed=passed, category=category, scores=failing_scores() if scores is None else scores
    )


def test_a_passed_case_has_no_reason():
    assert failure_reasons(ended="submitted", passed=True, category="routing", scores=passing_scores()) == []


def test_how_the_trajectory_ended_comes_first():
    scores = failing_scores(A=metric("A", 0.0), PIoU=metric("PIoU", 0.0))
    assert reasons(scores, ended="budget_exhausted")[0] == "budget_exhausted"
    assert reasons(scores, ended="budget_exhausted")[1:] == ["wrong_place"]
    for ended in ("timeout", "model_error", "invalid_answer", "no_submission"):
        assert reasons(scores, ended=ended)[0] == ended


def test_place_perception_value_mismatch_is_a_wrong_answer_not_a_wrong_place():
    scores = failing_scores(A=metric("A", 0.0, predicted="No", reference="Yes"), PIoU=metric("PIoU", None))
    assert reasons(scores, category="place_perception") == ["wrong_answer"]


def test_a_failed_place_requirement_is_a_wrong_place_and_a_travel_check_a_wrong_travel_mode():
    checks = [
        {"requirement": "max_cost", "place_id": "N3", "ok": False, "why": "too dear"},
        {"requirement": "vehicle", "expected": "walking", "actual": "driving", "ok": False},
    ]
    assert reasons(failing_scores(A=metric("A", 0.0, checks=checks)), category="nearby_discovery") == [
        "wrong_travel",
        "wrong_place",
    ]


def test_place_set_overlap_separates_wrong_place_from_wrong_set():
    assert reasons(failing_scores(PIoU=metric("PIoU", 0.0))) == ["wrong_place"]
    assert reasons(
        failing_scores(
            PIoU=metric("PIoU", 0.6),
            RD_distance=metric("RD_distance", 0.6),
            RD_time=metric("RD_time", 0.6),
            OC=metric("OC", 0.6, inverted_pairs=0),
        )
    ) == ["wrong_set"]


def test_route_off_only_when_the_totals_deviate_beyond_the_place_set():
    assert reasons(failing_scores(RD_distance=metric("RD_distance", 0.9))) == ["route_off"]
    assert "route_off" in reasons(failing_scores(PIoU=metric("PIoU", 0.5), RD_time=metric("RD_time", 0.45)))
    assert "route_off" not in reasons(
        failing_scores(PIoU=metric("PIoU", 0.5), RD_time=metric("RD_time", 0.5), RD_distance=metric("RD_distance", 0.5))
    )


def test_order_violations_come_from_oc_inversions_or_the_visit_order_check():
    assert reasons(failing_scores(OC=metric("OC", 0.83, inverted_pairs=1, pairs=6))) == ["order_violated"]
    visit = [{"check": "visit order", "ok": False, "detail": "N1 before N4"}, {"check": "rating", "ok": True}]
    assert reasons(failing_scores(SC=metric("SC", 0.5, checks=visit))) == ["order_violated"]


def test_constraint_checks_name_closed_on_arrival_and_the_implicit_need():
    closed = [{"check": "open on arrival", "ok": False, "detail": "closed: N5"}]
    need = [
        {"check": "implicit need", "ok": False, "detail": "holding free_entry: []"},
        {"check": "rating", "ok": False, "detail": "N2 rating 3.1 (at least 4.5)"},
    ]
    assert reasons(failing_scores(SC=metric("SC", 0.0, checks=closed))) == ["closed_on_arrival"]
    assert reasons(failing_scores(SC=metric("SC", 0.0, checks=need))) == ["implicit_need", "constraint_violated"]


def test_a_judged_sc_at_alpha_is_a_constraint_violation_and_above_it_is_not():
    assert reasons(failing_scores(SC=metric("SC", 0.9))) == ["constraint_violated"]
    assert reasons(failing_scores(SC=metric("SC", 0.95))) == ["other"]


def test_grounding_flags_are_hallucinated_evidence():
    flags = [{"kind": "note_id", "value": "n-404", "field": "ref.note_id"}]
    scores = failing_scores(PIoU=metric("PIoU", 0.0), grounding=metric("grounding", None, flags=flags, checked=2))
    assert reasons(scores) == ["wrong_place", "hallucinated_evidence"]


def test_scoring_errors_undecided_verdicts_and_unknown_failures():
    assert reasons({"error": {"value": None, "explanation": "scoring failed: KeyError"}}, passed=None) == [
        "scoring_failed",
        "undecided",
    ]
    assert reasons(failing_scores(SC=metric("SC", None)), passed=None) == ["undecided"]
    assert reasons(None) == ["other"]


def test_every_reason_has_a_unique_code_and_a_rule_people_can_read():
    assert len(set(REASON_CODES)) == len(REASONS)
    assert all(r.label and r.rule.strip() for r in REASONS)


# ------------------------------------------------------------------ what the real metrics write

TRIP = CaseSpec(
    case_id="trip",
    category="trip_design",
    level="L2",
    answer={
        "start": {"place_id": "N1"},
        "end": {"place_id": "N5"},
        "waypoints": [{"place_id": "N4"}, {"place_id": "N9"}],
        "optimal_order": [{"place_id": p, "visit_order": i} for i, p in enumerate(["N1", "N4", "N9", "N5"], 1)],
    },
    constraints={"before": [["N4", "N9"]]},
)


class NoPlaces:
    """A world that knows no place: the visit-order check needs none."""

    def place(self, place_id):
        return None


def stored(result):
    return result.to_dict()


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["N1", "N9", "N4", "N5"], ["order_violated"]),
        (["N1", "N4", "N2", "N5"], ["wrong_set", "order_violated"]),
    ],
)
def test_reasons_read_the_details_the_real_metrics_store(order, expected):
    answer = {
        "start": {"place_id": order[0]},
        "end": {"place_id": order[-1]},
        "waypoints": [{"place_id": p} for p in order[1:-1]],
    }
    predicted = normalise_answer(answer)
    scores = failing_scores(
        PIoU=stored(place_set_iou(TRIP, predicted)),
        OC=stored(order_consistency(TRIP, predicted)),
        SC=stored(semantic_constraint_rules(TRIP, predicted, NoPlaces())),
    )
    assert reasons(scores, category="trip_design") == expected


def test_the_dashboard_guide_lists_every_reason_with_its_rule():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "dashboard.md").read_text()
    for reason in REASONS:
        assert f"| `{reason.code}` | {reason.label} | {reason.rule} |" in guide, reason.code
