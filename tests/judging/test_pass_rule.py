"""The per-case pass rule: SC > alpha where SC applies, every other applicable outcome metric = 1."""

from __future__ import annotations

from judging.metrics import pass_verdict, passes
from judging.types import MetricResult

ROUTING_L1 = ["A", "PIoU", "RD_distance", "RD_time", "OC", "SC", "IG", "TE", "RP", "tokens"]


def results(**values) -> dict[str, MetricResult]:
    base = {
        "A": 1.0,
        "PIoU": 1.0,
        "RD_distance": 1.0,
        "RD_time": 1.0,
        "OC": 1.0,
        "SC": 0.95,
        "IG": 0.2,
        "TE": 0.1,
        "RP": 0.3,
        "tokens": None,
    }
    base.update(values)
    return {name: MetricResult(name, value, "") for name, value in base.items() if value != "absent"}


def test_all_outcomes_one_and_sc_above_alpha_passes():
    ok, why = passes(results(), applicable=ROUTING_L1)
    assert ok and why.startswith("passes")


def test_process_metrics_do_not_count():
    assert passes(results(IG=0.0, TE=0.0, RP=0.0), applicable=ROUTING_L1)[0]


def test_sc_equal_to_alpha_fails_because_it_must_exceed_it():
    ok, why = passes(results(SC=0.9), applicable=ROUTING_L1)
    assert not ok
    assert "SC 0.9 is not above 0.9" in why


def test_rd_just_below_one_fails():
    ok, why = passes(results(RD_distance=0.999), applicable=ROUTING_L1)
    assert not ok
    assert "RD_distance is 0.999, not 1" in why


def test_every_failure_is_named():
    verdict = pass_verdict(results(A=0.0, OC=0.8333, SC=0.5), applicable=ROUTING_L1)
    assert verdict.value == 0.0
    assert verdict.details["failed"] == {"A": 0.0, "OC": 0.8333, "SC": 0.5}


def test_metrics_that_do_not_apply_are_ignored():
    # Place Perception L0: no RD, OC or SC.
    place_l0 = ["A", "PIoU", "IG", "TE", "RP", "tokens"]
    assert passes(results(RD_distance=0.0, OC=None, SC="absent"), applicable=place_l0)[0]


def test_a_metric_that_is_not_calculable_is_skipped():
    assert passes(results(PIoU=None), applicable=ROUTING_L1)[0]


def test_missing_sc_leaves_the_case_undecided_unless_something_failed():
    undecided = pass_verdict(results(SC="absent"), applicable=ROUTING_L1)
    assert undecided.value is None and "SC applies but was not scored" in undecided.explanation
    assert passes(results(SC=None), applicable=ROUTING_L1) == (False, undecided.explanation)
    assert pass_verdict(results(SC="absent", A=0.0), applicable=ROUTING_L1).value == 0.0


def test_applicability_defaults_to_the_results_with_a_value():
    assert passes(results(SC="absent", OC=None))[0]


def test_alpha_is_configurable():
    assert passes(results(SC=0.85), alpha=0.8, applicable=ROUTING_L1)[0]
