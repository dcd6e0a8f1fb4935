"""Aggregation on a known small example (hand-computed)."""

import random

import pytest

from judging.aggregate import (
    CaseScore,
    Interval,
    bootstrap,
    paired_comparison,
    rank_ranges,
    table2,
    table3,
    table_categories,
)


def score(case_id, category, level, passed, tokens=100, **metrics):
    return CaseScore(case_id, category, level, passed, metrics, tokens)


RUN = [
    score("p0a", "place_perception", "L0", True, 100, A=1.0, IG=1.0),
    score("p0b", "place_perception", "L0", False, 300, A=0.0, IG=0.5),
    score("r1a", "routing", "L1", True, 200, A=1.0, OC=1.0, SC=1.0),
    score("r1b", "routing", "L1", True, 400, A=1.0, OC=0.5, SC=0.8),
]


def test_table2_rates_per_cell_overall_and_tokens():
    t2 = table2(RUN)
    assert t2["cells"]["place_perception/L0"] == {"pr": 50.0, "n": 2}
    assert t2["cells"]["routing/L1"] == {"pr": 100.0, "n": 2}
    assert t2["cells"]["trip_design/L2"] == {"pr": None, "n": 0}
    assert t2["overall"]["value"] == 75.0 and t2["macro"] == 75.0 and t2["avg_tokens"] == 250.0
    assert t2["overall"]["low"] <= 75.0 <= t2["overall"]["high"]


def test_table3_averages_only_where_a_metric_applies():
    t3 = table3(RUN)
    assert t3["L0"]["A"] == 50.0 and t3["L0"]["IG"] == 75.0 and t3["L0"]["OC"] is None
    assert t3["L1"]["OC"] == 75.0 and t3["L1"]["SC"] == 90.0 and t3["L1"]["PR"] == 100.0
    assert t3["L2"]["PR"] is None


def test_table_categories_averages_per_category_what_table3_averages_per_level():
    by_category = table_categories(RUN)
    assert list(by_category) == ["place_perception", "nearby_discovery", "routing", "trip_design"]
    assert by_category["place_perception"] == {**table3(RUN)["L0"], "n": 2}  # its two rows are L0's
    assert by_category["routing"]["n"] == 2 and by_category["routing"]["OC"] == 75.0
    assert by_category["routing"]["tokens"] == 300.0 and by_category["routing"]["IG"] is None
    assert by_category["trip_design"] == {
        "n": 0,
        "PR": None,
        "tokens": None,
        **{name: None for name in table3(RUN)["L2"] if name not in ("PR", "tokens")},
    }


def test_bootstrap_is_seeded_and_brackets_the_mean():
    values = [0, 100, 100, 0, 100, 100, 100, 0, 100, 100]
    first, again = bootstrap(values, seed=3), bootstrap(values, seed=3)
    assert first == again and first.value == 70.0 and first.low < 70.0 < first.high
    assert bootstrap([100.0] * 5) == Interval(100.0, 100.0, 100.0)
    with pytest.raises(ValueError):
        bootstrap([])


def test_paired_comparison_counts_cases_won_and_lost():
    other = [
        score("p0a", "place_perception", "L0", False),
        score("p0b", "place_perception", "L0", True),
        score("r1a", "routing", "L1", False),
        score("r1b", "routing", "L1", True),
    ]
    result = paired_comparison(RUN, other)
    assert result["n"] == 4 and result["difference"]["value"] == 25.0
    assert (result["a"], result["b"]) == (75.0, 50.0)  # each run's pass rate over the shared cases
    assert result["won"] == ["p0a", "r1a"] and result["lost"] == ["p0b"]
    with pytest.raises(ValueError, match="no case in common"):
        paired_comparison(RUN, [score("x", "routing", "L0", True)])


def test_rank_ranges_are_honest_about_ties():
    ranks = rank_ranges({"a": Interval(80, 75, 85), "b": Interval(78, 72, 84), "c": Interval(40, 35, 45)})
    assert ranks["a"] == (1, 2) and ranks["b"] == (1, 2) and ranks["c"] == (3, 3)


def trials_of(cases: int, trials: int, *, passing=lambda i: i % 2 == 0):
    """``cases`` routing L1 cases, each repeated ``trials`` times with the same verdict."""
    return [CaseScore(f"c{i:02d}", "routing", "L1", passing(i), trial=t) for i in range(cases) for t in range(trials)]


def test_identical_trials_leave_the_interval_as_wide_as_one_trial():
    one, five = table2(trials_of(50, 1))["overall"], table2(trials_of(50, 5))["overall"]
    assert five == one and one["value"] == 50.0
    assert one["high"] - one["low"] > 20  # resampling the 250 rows as independent gave about 12 points


def test_intervals_are_pinned_for_a_seed():
    """numpy's PCG64 seeded with the run's seed: the same scores always give these numbers."""
    scores = trials_of(47, 1, passing=lambda i: i % 3 != 0)
    assert table2(scores, seed=4)["overall"] == {"value": 65.96, "low": 53.19, "high": 78.72}
    assert table2(scores, seed=0)["overall"] == {"value": 65.96, "low": 53.19, "high": 78.72}
    assert "pass_hat_k" not in table2(scores) and "pass_hat_k" not in table2(scores)["cells"]["routing/L1"]


def test_intervals_do_not_depend_on_the_order_of_the_rows():
    scores = trials_of(40, 3, passing=lambda i: i % 3 != 0)
    shuffled = scores[:]
    random.Random(7).shuffle(shuffled)
    assert table2(shuffled, seed=2) == table2(scores, seed=2)
    other = trials_of(40, 3, passing=lambda i: i % 4 != 0)
    assert paired_comparison(shuffled, other[::-1], seed=2) == paired_comparison(scores, other, seed=2)


def test_pass_hat_k_counts_cases_whose_every_trial_passed():
    verdicts = {"a": [True, True, True], "b": [True, False, True], "c": [False, False, False]}
    scores = [
        CaseScore(case, "routing", "L1", passed, trial=t)
        for case, trials in verdicts.items()
        for t, passed in enumerate(trials)
    ]
    scores += [CaseScore("d", "place_perception", "L0", True, trial=t) for t in range(2)]  # k = 2 for this case
    t2 = table2(scores)
    assert t2["cells"]["routing/L1"] == {"pr": 55.6, "n": 9, "mean_over_trials": 55.6, "pass_hat_k": 33.3, "trials": 3}
    assert t2["cells"]["place_perception/L0"]["pass_hat_k"] == 100.0
    assert t2["cells"]["routing/L0"] == {
        "pr": None,
        "n": 0,
        "mean_over_trials": None,
        "pass_hat_k": None,
        "trials": None,
    }
    assert t2["pass_hat_k"]["value"] == 50.0 and t2["pass_hat_k"]["low"] <= 50.0 <= t2["pass_hat_k"]["high"]
    assert t2["mean_over_trials"] == t2["overall"] and t2["overall"]["value"] == 63.64
    assert (t2["trials"], t2["trials_min"], t2["cases"], t2["n"]) == (3, 2, 4, 11)


def test_paired_comparison_with_trials_pairs_cases_not_trials():
    a = [CaseScore("x", "routing", "L1", t < 2, trial=t) for t in range(3)]  # 2 of 3
    a += [CaseScore("y", "routing", "L1", True, trial=t) for t in range(3)]
    b = [CaseScore("x", "routing", "L1", t == 2, trial=t) for t in range(3)]  # 1 of 3, on another trial
    b += [CaseScore("y", "routing", "L1", True, trial=0)]  # one trial only: still case y
    result = paired_comparison(a, b)
    assert result["n"] == 2 and result["won"] == ["x"] and result["lost"] == []
    assert result["difference"]["value"] == round((200 / 3 - 100 / 3) / 2, 2)


def test_identical_trials_give_the_paired_interval_of_one_trial():
    a1, b1 = trials_of(50, 1), trials_of(50, 1, passing=lambda i: i % 5 != 0)
    a5, b5 = trials_of(50, 5), trials_of(50, 5, passing=lambda i: i % 5 != 0)
    assert paired_comparison(a5, b5) == paired_comparison(a1, b1)
