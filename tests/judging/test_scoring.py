"""score_case: every applicable metric of the matrix for one case, and the pass verdict."""

from __future__ import annotations

import json

import pytest

from judging.judges import get_role
from judging.metrics import registered_metrics
from judging.metrics.applicability import all_result_names
from judging.scoring import score_case
from judging.types import MetricResult
from tests.judging.cases import AMBER, KEOPS, PLACE_L0, ROUTING_L1, SAVOY, answer_of, case, trajectory
from tests.judging.fakes import FakeWorld, resolver

WORLD = FakeWorld(
    {SAVOY: {"place_type": "Entertainment|Theatre", "rating": 4.2, "cost": 40}},
    route_offsets={(SAVOY, KEOPS, AMBER, "driving"): 12.0},
)
NAMES = resolver({"Keops": KEOPS, "Savoy-teatteri": SAVOY, "Amber Palace": AMBER})


def leg(a, b):
    return {
        "start": {"place_id": a},
        "end": {"place_id": b},
        "vehicle": "driving",
        "mode": "distance",
        "total_distance_m": 281.9,
        "total_time_s": 50.1,
    }


REFERENCE_RUN = trajectory(
    ("place_search", {}, {"results": [{"place_id": KEOPS}]}),
    ("place_search", {}, {"results": [{"place_id": AMBER}]}),
    ("nearby_search", {}, {"results": [{"place_id": SAVOY, "place_type": "Entertainment|Theatre"}]}),
    ("routing", {}, leg(KEOPS, SAVOY)),
    ("routing", {}, leg(SAVOY, AMBER)),
    ("submit_answer", {}, {"status": "submitted"}),
    input_tokens=5000,
    output_tokens=400,
)


def score(answer, path=REFERENCE_RUN, doc=ROUTING_L1, **kwargs):
    return score_case(case(doc), answer, path, world=WORLD, resolve_name=NAMES, **kwargs)


def test_a_perfect_run_scores_one_everywhere_and_passes_with_sc():
    sc = MetricResult("SC", 0.95, "judges", source="judges")
    results = score(answer_of(ROUTING_L1), extra={"SC": sc})
    assert {n: results[n].value for n in ("A", "PIoU", "RD_distance", "RD_time", "OC", "IG", "TE")} == dict.fromkeys(
        ("A", "PIoU", "RD_distance", "RD_time", "OC", "IG", "TE"), 1.0
    )
    assert results["SC"] is sc
    assert results["tokens"].details["input_tokens"] == 5000
    assert results["pass_rate"].value == 1.0


def test_without_judges_sc_and_rp_come_from_the_rule_and_grounding_checks():
    results = score(answer_of(ROUTING_L1))
    assert (results["SC"].value, results["SC"].source) == (1.0, "rules")
    assert [check["check"] for check in results["SC"].details["checks"]] == [
        "vehicle",
        "mode",
        "place type",
        "route buffer",
    ]
    assert (results["RP"].value, results["RP"].source) == (1.0, "grounding")
    assert results["pass_rate"].value == 1.0


def test_sc_and_rp_are_registered_judge_metrics_bound_to_their_judge_roles():
    judged = {spec.name: spec.judge for spec in registered_metrics() if spec.judge}
    assert judged == {"SC": "semantic_constraint", "RP": "reasoning_purity"}
    assert all(get_role(role).metric == name for name, role in judged.items())
    assert {spec.name for spec in registered_metrics()} == set(all_result_names())


def test_a_name_only_json_string_answer_is_scored_like_the_reference():
    answer = json.dumps(
        {
            "start": {"name": "Keops"},
            "waypoints": [{"name": "Savoy-teatteri"}],
            "end": {"name": "Amber Palace"},
            "vehicle": "driving",
            "mode": "distance",
            "total_distance_m": "563.9",
            "total_time_s": 100.3,
        }
    )
    results = score(answer, extra={"SC": MetricResult("SC", 1.0, "")})
    assert results["pass_rate"].value == 1.0
    assert any("resolved 'Keops'" in p for p in results["pass_rate"].details["answer_problems"])


def test_no_submission_fails_every_outcome_metric():
    results = score(None, path=None, extra={"SC": MetricResult("SC", 0.0, "")})
    assert [results[n].value for n in ("A", "PIoU", "RD_distance", "RD_time", "OC", "IG", "TE")] == [0.0] * 7
    assert results["pass_rate"].value == 0.0
    assert results["pass_rate"].details["answer_problems"] == ["no answer was submitted"]


def test_metrics_that_do_not_apply_are_none_with_a_reason():
    doc = {**PLACE_L0, "reference_path": []}
    results = score(answer_of(PLACE_L0), path=None, doc=doc, extra={"SC": MetricResult("SC", 1.0, "")})
    assert results["OC"].value is None and "does not apply to place_perception L0" in results["OC"].explanation
    assert "a result was given and ignored" in results["SC"].explanation
    assert results["pass_rate"].value == 1.0


def test_extra_results_cannot_replace_rule_metrics_or_invent_names():
    with pytest.raises(ValueError, match="may not replace"):
        score(answer_of(ROUTING_L1), extra={"A": MetricResult("A", 1.0, "")})
    with pytest.raises(ValueError, match="applicability matrix"):
        score(answer_of(ROUTING_L1), extra={"BLEU": MetricResult("BLEU", 1.0, "")})
