"""Aggregation on a known small example (hand-computed)."""
import pytest

from judging.aggregate import CaseScore, Interval, bootstrap, paired_comparison, rank_ranges, table2, table3


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


def test_bootstrap_is_seeded_and_brackets_the_mean():
    values = [0, 100, 100, 0, 100, 100, 100, 0, 100, 100]
    first, again = bootstrap(values, seed=3), bootstrap(values, seed=3)
    assert first == again and first.value == 70.0 and first.low < 70.0 < first.high
    assert bootstrap([100.0] * 5) == Interval(100.0, 100.0, 100.0)
    with pytest.raises(ValueError):
        bootstrap([])


def test_paired_comparison_counts_cases_won_and_lost():
    other = [score("p0a", "place_perception", "L0", False), score("p0b", "place_perception", "L0", True),
             score("r1a", "routing", "L1", False), score("r1b", "routing", "L1", True)]
    result = paired_comparison(RUN, other)
    assert result["n"] == 4 and result["difference"]["value"] == 25.0
    assert result["won"] == ["p0a", "r1a"] and result["lost"] == ["p0b"]
    with pytest.raises(ValueError, match="no case in common"):
        paired_comparison(RUN, [score("x", "routing", "L0", True)])


def test_rank_ranges_are_honest_about_ties():
    ranks = rank_ranges({"a": Interval(80, 75, 85), "b": Interval(78, 72, 84), "c": Interval(40, 35, 45)})
    assert ranks["a"] == (1, 2) and ranks["b"] == (1, 2) and ranks["c"] == (3, 3)
