"""Need phrasings (level L2): twelve a need in two disjoint banks, never the fact's words, fitting their places."""

from __future__ import annotations

import re

import pytest

from benchmark.cases.needs import NEEDS, nouns_for_need
from benchmark.cases.phrasings import (
    BANKS,
    HIDDEN,
    PHRASINGS,
    PUBLIC,
    TIME_WORDS,
    bank_phrasings,
    content_pairs,
    evidence_reuse,
    fitting_phrases,
    mentions,
    phrasing_kinds,
    stay_minutes,
)
from environment.build.corpus.vocab import ALL_SPECS


def _texts(key: str, bank: str | None = None) -> list[str]:
    phrasings = PHRASINGS[key] if bank is None else bank_phrasings(key, bank)
    return [phrasing_kinds(p)[0] for p in phrasings]


def test_every_need_has_twelve_phrasings_six_in_each_bank():
    assert set(PHRASINGS) == set(NEEDS)
    for key in NEEDS:
        assert len(PHRASINGS[key]) == 12, key
        assert len(bank_phrasings(key, PUBLIC)) == len(bank_phrasings(key, HIDDEN)) == 6
        assert not set(bank_phrasings(key, PUBLIC)) & set(bank_phrasings(key, HIDDEN))
    with pytest.raises(ValueError, match="unknown phrasing bank"):
        bank_phrasings("great_view", "secret")


@pytest.mark.parametrize("key", sorted(NEEDS))
def test_shape(key):
    for p in _texts(key):
        assert p == p.strip() and "  " not in p and p[0].islower(), p
        assert p[-1] not in ".!?,;:", p
        assert not p.lower().startswith(("i ", "to ")), p  # fits after "I want to"
        assert "{" not in p and "[" not in p, p
    for phrasing in PHRASINGS[key]:
        _, kinds = phrasing_kinds(phrasing)
        assert set(kinds) <= set(ALL_SPECS[key].kinds), (key, phrasing)


@pytest.mark.parametrize("key", sorted(NEEDS))
def test_no_literal_label_key_or_evidence(key):
    spec = ALL_SPECS[key]
    label = spec.label.split(":", 1)[1].strip().lower()
    for p in _texts(key):
        low = p.lower()
        assert label not in low and key.replace("_", " ") not in low, (key, p)
        for word in spec.evidence:
            assert word.lower() not in low, (key, word, p)


def test_no_phrasing_serves_two_needs_or_two_banks():
    seen: dict[str, str] = {}
    for key in NEEDS:
        for p in _texts(key):
            norm = " ".join(p.lower().split())
            assert norm not in seen, (p, key, seen.get(norm))
            seen[norm] = key


def test_a_phrasing_fits_its_place_and_the_questions_moment():
    museum = fitting_phrases("great_view", PUBLIC, kind="museum", serves_food=False, is_shop=False, timed=False)
    assert museum and not any(mentions(p, ("dinner", "coffee", "drink")) for p in museum)
    park = fitting_phrases("great_view", PUBLIC, kind="park", serves_food=False, is_shop=False, timed=False)
    assert "have dinner looking out across the water to the islands" not in park  # marked for places that serve
    bank = fitting_phrases("english_speaking_staff", PUBLIC, kind="bank", serves_food=False, is_shop=False, timed=False)
    assert "explain exactly what haircut I want without miming it" not in bank  # marked for beauty salons
    for bank_name in BANKS:
        timed = fitting_phrases(
            "quiet_for_studying", bank_name, kind="cafe", serves_food=True, is_shop=False, timed=True
        )
        assert not [p for p in timed if stay_minutes(p) or mentions(p, TIME_WORDS)]
    assert stay_minutes("revise somewhere hushed for the whole afternoon") == 180 and stay_minutes("pet a cat") == 0


def test_every_need_can_be_asked_of_some_noun_and_fits_only_its_kinds():
    for key in NEEDS:
        assert nouns_for_need(key), key
        for noun in nouns_for_need(key):
            assert any(re.search(r"\w", sub) for sub in noun.accept)
    assert {n.key for n in nouns_for_need("great_latte_art")} == {"cafe"}
    assert "ice_cream" not in {n.key for n in nouns_for_need("fresh_pastries")}
    assert {n.key for n in nouns_for_need("phone_repair_while_you_wait")} <= {"electronics_shop", "phone_shop"}
    assert "jewellery_shop" not in {n.key for n in nouns_for_need("english_speaking_staff")}


def test_every_need_is_a_hidden_memory():
    """L2 is settled by what people wrote: a need is a long-term or short-term fact, never a visible tag."""
    assert {ALL_SPECS[key].kind for key in NEEDS} == {"long_term", "short_term"}


def test_no_need_phrasing_reuses_the_wording_of_the_evidence_it_points_to():
    """A question says "milk-foam swan", a note "latte art": building a release checks it, in either bank."""
    for bank in BANKS:
        assert evidence_reuse(bank) == []
    assert ("still", "warm") in content_pairs("a bun still warm from the oven")  # what it would have caught


def test_a_release_whose_phrasings_reuse_the_evidence_is_refused(monkeypatch):
    import benchmark.cases.phrasings as phrasings
    from benchmark.cases.engine.generate_flow import generate_and_store

    reused = dict(PHRASINGS, great_view=("look out over a sweeping view of the harbour",) * 12)
    monkeypatch.setattr(phrasings, "PHRASINGS", reused)
    assert evidence_reuse(PUBLIC) and "great_view" in evidence_reuse(PUBLIC)[0]
    with pytest.raises(ValueError, match="reuse the wording of the notes they point to"):
        generate_and_store(city="helsinki", seed=0, count=1, cells=[], validate=False, progress=None)
