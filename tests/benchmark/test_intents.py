"""Implicit intents (level L2): coverage of the vocabulary and the no-literal-match rules."""

from __future__ import annotations

import pytest

from benchmark.cases.engine.intents import INTENTS, Intent, intent_for
from environment.build.corpus.vocab import ALL_SPECS, LONG_TERM, SHORT_TERM, STATIC

EXPECTED = {s.key for s in STATIC + LONG_TERM}


def _phrases(intent: Intent) -> tuple[str, ...]:
    return intent.wants + intent.needs


def test_every_static_and_long_term_key_has_an_intent_and_no_extras():
    assert set(INTENTS) == EXPECTED
    assert not set(INTENTS) & {s.key for s in SHORT_TERM}


def test_intent_for():
    for key, intent in INTENTS.items():
        assert intent_for(key) is intent
        assert intent.key == key
    assert intent_for("christmas_promo") is None
    assert intent_for("no_such_fact") is None


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_shape(key):
    intent = INTENTS[key]
    assert intent.polarity in ("seek", "avoid")
    assert isinstance(intent.wants, tuple) and len(intent.wants) == 3
    assert isinstance(intent.needs, tuple) and len(intent.needs) == 2
    assert len(set(_phrases(intent))) == 5
    for p in _phrases(intent):
        assert isinstance(p, str) and p == p.strip() and "  " not in p
        assert p[0].islower(), p
        assert p[-1] not in ".!?,;:", p
        assert not p.lower().startswith(("i ", "to ")), p  # fits after "I want to" / "if I"
        assert "{" not in p and "}" not in p, p


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_no_literal_label_key_or_evidence(key):
    spec, intent = ALL_SPECS[key], INTENTS[key]
    label = spec.label.split(":", 1)[1].strip().lower()
    spaced_key = key.replace("_", " ").lower()
    for p in _phrases(intent):
        low = p.lower()
        assert label not in low, (key, p)
        assert spaced_key not in low, (key, p)
        for word in spec.evidence:
            assert word.lower() not in low, (key, word, p)


def test_no_duplicates_across_keys():
    seen: dict[str, str] = {}
    for key, intent in INTENTS.items():
        for p in _phrases(intent):
            norm = " ".join(p.lower().split())
            assert norm not in seen or seen[norm] == key, (p, key, seen.get(norm))
            seen[norm] = key


def test_negative_facts_are_avoided():
    avoid = {k for k, i in INTENTS.items() if i.polarity == "avoid"}
    for key in (
        "slow_service",
        "unfriendly_staff",
        "noisy_evenings",
        "tourist_trap",
        "long_wait_times",
        "weak_coffee",
        "small_portions",
        "dated_interior",
        "cold_inside_winter",
        "hard_to_find_entrance",
        "weekend_queues",
        "high_prices",
        "limited_stock",
        "crowded_at_lunch",
        "windy_exposed",
        "card_only_no_cash",
        "thin_walls",
    ):
        assert key in avoid, key
    for key in (
        "corgi_cafe",
        "reading_sofa",
        "free_umbrella_borrowing",
        "quiet_for_studying",
        "friendly_staff",
        "fast_service",
        "great_view",
    ):
        assert INTENTS[key].polarity == "seek", key
