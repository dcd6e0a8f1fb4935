"""The evidence rule: two supporting notes or comments after the last denial or ending, inside a dated state's dates."""

from __future__ import annotations

from datetime import UTC, date, datetime

from environment.evidence import ASKS, CREDITS, ENDED, HEARSAY, NEGATES, PROMO, SPAM, SUPPORTS, Item, fact_verdict

NOW = datetime(2026, 12, 7, 12, tzinfo=UTC)


def _at(year: int, month: int = 6) -> datetime:
    return datetime(year, month, 1, tzinfo=UTC)


def test_two_supporting_items_make_a_fact_hold():
    verdict = fact_verdict([Item(_at(2024), SUPPORTS, ref="n1"), Item(_at(2025), SUPPORTS, ref="n2/c1")], NOW)
    assert verdict.holds and len(verdict.counted) == 2 and "2 notes or comments (n1, n2/c1)" in verdict.why


def test_a_single_report_is_not_enough():
    verdict = fact_verdict([Item(_at(2024), SUPPORTS, ref="n1"), Item(_at(2025), HEARSAY, ref="n2")], NOW)
    assert not verdict.holds and "only one note or comment supports it (n1)" in verdict.why


def test_a_later_ending_undoes_earlier_support():
    items = [Item(_at(2023), SUPPORTS), Item(_at(2024), SUPPORTS), Item(_at(2025), ENDED)]
    verdict = fact_verdict(items, NOW)
    assert not verdict.holds and verdict.reset == items[2] and "reports that it ended" in verdict.why
    assert fact_verdict(items, _at(2024, 12)).holds  # before the ending it held


def test_support_after_a_denial_counts_again():
    items = [Item(_at(2023), NEGATES), Item(_at(2024), SUPPORTS), Item(_at(2025), SUPPORTS)]
    assert fact_verdict(items, NOW).holds
    assert not fact_verdict([*items, Item(_at(2026), NEGATES)], NOW).holds


def test_questions_rumours_comparisons_adverts_and_spam_never_count():
    talk = [Item(_at(2024, m), stance) for m, stance in enumerate((ASKS, HEARSAY, CREDITS, PROMO, SPAM), 1)]
    assert not fact_verdict(talk, NOW).holds
    both = [*talk, Item(_at(2025), SUPPORTS), Item(_at(2025, 8), SUPPORTS)]
    assert fact_verdict(both, NOW).holds  # nor do they count against


def test_a_dated_state_holds_only_inside_its_dates():
    dates = {"valid_from": date(2025, 12, 1), "valid_until": date(2025, 12, 24)}
    items = [Item(_at(2025, 11), SUPPORTS, **dates), Item(_at(2025, 11), SUPPORTS, **dates)]
    assert fact_verdict(items, datetime(2025, 12, 10, tzinfo=UTC)).holds
    assert not fact_verdict(items, NOW).holds


def test_items_after_the_moment_are_not_read():
    items = [Item(_at(2024), SUPPORTS), Item(_at(2026, 10), SUPPORTS)]
    assert not fact_verdict(items, _at(2025)).holds and fact_verdict(items, NOW).holds
