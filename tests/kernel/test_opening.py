from datetime import datetime

from kernel.opening import hours_are_valid, is_open_at


def test_open_and_closed_at_local_times():
    hours = "Mo-Fr 08:00-18:00; Sa 10:00-14:00"
    assert is_open_at(hours, datetime(2026, 11, 30, 9, 0)) is True  # Monday
    assert is_open_at(hours, datetime(2026, 11, 30, 18, 30)) is False
    assert is_open_at(hours, datetime(2026, 12, 5, 13, 59)) is True  # Saturday
    assert is_open_at(hours, datetime(2026, 12, 6, 12, 0)) is False  # Sunday


def test_past_midnight_and_always_open():
    assert is_open_at("Mo-Su 16:00-02:00", datetime(2026, 12, 1, 1, 30)) is True
    assert is_open_at("24/7", datetime(2026, 12, 1, 4, 0)) is True


def test_strict_osm_syntax_reads_sa_comma_su_as_saturday_all_day():
    hours = "Sa, Su 09:00-16:00"
    assert is_open_at(hours, datetime(2026, 12, 5, 20, 0)) is True  # Saturday evening: all day
    assert is_open_at(hours, datetime(2026, 12, 6, 20, 0)) is False


def test_malformed_hours_are_flagged_and_never_raise():
    for text in ("broken hours ((", "Mo-Fr 25:00-26:00", "", "   "):
        assert hours_are_valid(text) is False
        assert is_open_at(text, datetime(2026, 12, 1, 12, 0)) is None
