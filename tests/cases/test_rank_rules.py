"""Rank rules over a cell: the share of golds a fixed rule that reads no note picks, against chance."""

import pytest

from benchmark.cases.rank_rules import CaseSignals, RankQuota, picks_gold, rule_rates, rules_table


def case(gold: str, **signals: dict) -> CaseSignals:
    places = tuple(sorted({p for values in signals.values() for p in values} | {gold}))
    return CaseSignals(gold, places, signals)


def test_a_rule_picks_the_gold_or_shares_a_tie():
    nearest = case("A", measure={"A": 10.0, "B": 20.0, "C": 30.0})
    assert picks_gold(nearest, "measure", largest=False) == 1.0
    assert picks_gold(nearest, "measure", largest=True) == 0.0
    tied = case("A", rating={"A": 4.5, "B": 4.5, "C": 3.0})
    assert picks_gold(tied, "rating", largest=True) == 0.5
    assert picks_gold(case("A", cost={"A": 10.0, "B": 5.0}), "rating", largest=True) is None  # no ratings: n/a
    assert picks_gold(case("A", cost={"B": 5.0, "C": 7.0}), "cost", largest=False) is None  # gold's cost unknown


def test_a_cell_whose_golds_are_always_the_best_rated_is_flagged():
    cell = [case(g, rating={g: 4.8, "X": 4.0, "Y": 3.5}) for g in ("A", "B", "C", "D")]
    rates = {r.rule: r for r in rule_rates(cell)}
    assert rates["best-rated"].rate == 1.0 and rates["best-rated"].chance == pytest.approx(1 / 3)
    assert rates["best-rated"].flagged and not rates["worst-rated"].flagged
    assert "best-rated" in rules_table({"place_L2": cell}) and "  !" in rules_table({"place_L2": cell})


def test_golds_spread_over_the_ranks_are_not_flagged():
    spread = [
        case("A", measure={"A": 1.0, "B": 2.0, "C": 3.0}),
        case("B", measure={"A": 1.0, "B": 2.0, "C": 3.0}),
        case("C", measure={"A": 1.0, "B": 2.0, "C": 3.0}),
    ]
    rates = {r.rule: r for r in rule_rates(spread)}
    assert rates["best by the question's measure"].rate == pytest.approx(1 / 3)
    assert not any(r.flagged for r in rates.values())


def test_the_engine_refuses_a_gold_whose_rank_already_holds_its_share_of_the_cell():
    quota = RankQuota(target=20)
    many = {p: float(i) for i, p in enumerate("ABCDEFGHIJKLMNOPQRST")}  # 20 places: chance 5%
    third = case("C", measure=many)
    assert quota.cap(len(third.places)) == 3  # 15% of 20 cases
    for _ in range(3):
        assert quota.refusal([third]) is None
        quota.take([third])
    assert quota.refusal([third]) == "the gold's rank by the question's measure is already common in the cell"
    assert quota.refusal([case("D", measure=many)]) is None  # the fourth nearest is still rare
    assert not quota.allows("measure", 3, places=20) and quota.allows("measure", 4, places=20)
    six = case("A", hits={p: float(i) for i, p in enumerate("ABCDEF")})  # six options: chance + 5 points
    assert RankQuota(target=20).cap(len(six.places)) == 4
    # chance is the cell's: three golds among twenty places each keep the cap of a six-place case at 15%
    assert quota.cap(len(six.places)) == 3
    assert RankQuota(target=2).cap(6) == 2  # a tiny cell is not held to shares it cannot spread


def test_the_engine_refuses_a_gold_a_fixed_rule_already_picks_often_ties_counted_as_shares():
    worst = case("A", rating={"A": 3.0, "B": 4.0, "C": 4.1, "D": 4.2, "E": 4.3, "F": 4.4})
    tied = case("A", rating={"A": 3.0, "B": 3.0, "C": 4.1, "D": 4.2, "E": 4.3, "F": 4.4})  # worst with B: half a pick
    quota = RankQuota(target=20)  # six places: chance + 5 points = 21.7%, 4.33 picks in twenty cases
    quota.take([worst] * 3)
    assert quota.refusal([tied]) is None  # 3.5 picks of the worst-rated rule
    quota.take([tied])
    assert quota.refusal([tied]) is None  # 4.0
    quota.take([tied])
    refusal = quota.refusal([tied])  # 4.5 > 4.33 (its rank by rating, fifth, is still rare)
    assert refusal is not None and "worst-rated" in refusal
    # two golds of one case are counted together: each fits alone, both would not
    fresh = RankQuota(target=20)
    fresh.take([worst, worst, worst, tied])  # 3.5 picks
    assert fresh.refusal([tied]) is None and fresh.refusal([tied, tied]) is not None


def test_a_rank_by_a_signal_some_cases_lack_is_capped_on_the_cases_it_applies_to():
    quota = RankQuota(target=20)  # 15%: three of twenty cases
    rated = case("C", rating={p: float(i) for i, p in enumerate("ABCDEFGHIJKLMNOPQRST")})
    unrated = case("C", measure={p: float(i) for i, p in enumerate("ABCDEFGHIJKLMNOPQRST")})
    quota.take([unrated] * 10)  # half the cell so far has no ratings
    assert quota.cap(20, "rating") == 2  # 15% of about ten rated cases, and never under two
    quota.take([rated, rated])
    assert not quota.allows("rating", 18, places=20)  # the gold's rank by rating in ``rated``, already twice
    assert quota.allows("measure", 18, places=20) and quota.cap(20) == 3  # no signal: the whole target
