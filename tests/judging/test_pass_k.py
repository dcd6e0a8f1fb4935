"""pass^k (tau-bench): the unbiased per-case estimate C(c, k) / C(n, k), averaged over cases."""

import pytest

from judging.aggregate import CaseScore
from judging.pass_k import case_pass_hat_k, pass_hat_k_curve


def trials(case_id: str, verdicts: list[bool]) -> list[CaseScore]:
    return [CaseScore(case_id, "routing", "L1", passed, trial=t) for t, passed in enumerate(verdicts)]


def test_a_case_passing_two_of_three_trials():
    assert [case_pass_hat_k(passed=2, trials=3, k=k) for k in (1, 2, 3)] == pytest.approx([2 / 3, 1 / 3, 0.0])


def test_the_curve_averages_cases_and_does_not_depend_on_trial_order():
    scores = trials("b", [True, True, True]) + trials("a", [False, True, True])[::-1]
    assert pass_hat_k_curve(scores) == pytest.approx({1: 100 * (1 + 2 / 3) / 2, 2: 100 * (1 + 1 / 3) / 2, 3: 50.0})


def test_k_stops_at_the_fewest_trials_of_any_case():
    scores = trials("a", [True, False, True, True]) + trials("b", [True, False])
    assert pass_hat_k_curve(scores) == pytest.approx({1: 100 * (3 / 4 + 1 / 2) / 2, 2: 100 * (3 / 6 + 0) / 2})


def test_one_trial_per_case_has_no_curve():
    assert pass_hat_k_curve(trials("a", [True]) + trials("b", [False])) == {} and pass_hat_k_curve([]) == {}


@pytest.mark.parametrize("passed, n, k", [(1, 3, 0), (1, 3, 4), (4, 3, 1), (-1, 3, 1)])
def test_impossible_counts_are_refused(passed, n, k):
    with pytest.raises(ValueError):
        case_pass_hat_k(passed=passed, trials=n, k=k)
