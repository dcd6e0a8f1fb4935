"""Need phrasings (level L2): twelve a need in two disjoint banks, never the fact's words, fitting their places."""

from __future__ import annotations

import re

import pytest

from benchmark.cases.needs import NEEDS, needs_in, nouns_for_need
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


def test_every_need_is_in_one_bank_with_twelve_phrasings():
    assert set(PHRASINGS) == set(NEEDS)
    for key, need in NEEDS.items():
        assert len(PHRASINGS[key]) == 12, key
        assert bank_phrasings(key, need.bank) == PHRASINGS[key]
        other = HIDDEN if need.bank == PUBLIC else PUBLIC
        with pytest.raises(ValueError, match=f"{key} is a {need.bank} need: a {other} release never asks for it"):
            bank_phrasings(key, other)
    with pytest.raises(ValueError, match="unknown phrasing bank"):
        bank_phrasings("great_view", "secret")


def test_the_two_banks_share_no_need_and_no_fact_that_meets_one():
    """A hidden release never asks for a need whose holders a public gold or evidence card has shown: no fact
    meets a public need and a hidden one, and each bank has needs enough to write its L2 cells from."""
    public, hidden = needs_in(PUBLIC), needs_in(HIDDEN)
    assert public and hidden and not set(public) & set(hidden) and set(public) | set(hidden) == set(NEEDS)
    meets = {bank: {fact for key in needs_in(bank) for fact in NEEDS[key].satisfied_by} for bank in BANKS}
    assert not meets[PUBLIC] & meets[HIDDEN]
    assert len(public) >= 8 and len(hidden) >= 8
    with pytest.raises(ValueError, match="unknown need bank 'secret'"):
        needs_in("secret")


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
    museum = fitting_phrases("great_view", HIDDEN, kind="museum", serves_food=False, is_shop=False, timed=False)
    assert museum and not any(mentions(p, ("dinner", "coffee", "drink")) for p in museum)
    park = fitting_phrases("great_view", HIDDEN, kind="park", serves_food=False, is_shop=False, timed=False)
    assert "have dinner looking out across the water to the islands" not in park  # marked for places that serve
    bank = fitting_phrases("english_speaking_staff", HIDDEN, kind="bank", serves_food=False, is_shop=False, timed=False)
    assert "explain exactly what haircut I want without miming it" not in bank  # marked for beauty salons
    for key, bank_name in (("quiet_for_studying", PUBLIC), ("great_for_dates", HIDDEN)):
        timed = fitting_phrases(key, bank_name, kind="cafe", serves_food=True, is_shop=False, timed=True)
        assert timed and not [p for p in timed if stay_minutes(p) or mentions(p, TIME_WORDS)]
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
    # and notes can deny it, end it, ask about it or credit it elsewhere, so look-alikes carry decoys about it
    assert [key for key in NEEDS if not ALL_SPECS[key].deniable] == []


def test_no_need_phrasing_reuses_the_wording_of_the_evidence_it_points_to():
    """A question says "milk-foam swan", a note "latte art": building a release checks it, in either bank."""
    for bank in BANKS:
        assert evidence_reuse(bank) == []
    assert ("still", "warm") in content_pairs("a bun still warm from the oven")  # what it would have caught


def test_a_release_whose_phrasings_reuse_the_evidence_is_refused(monkeypatch):
    import benchmark.cases.phrasings as phrasings
    from benchmark.cases.engine.generate_flow import generate_and_store

    reused = dict(PHRASINGS, salmon_soup=("warm up with creamy salmon soup and rye bread",) * 12)
    monkeypatch.setattr(phrasings, "PHRASINGS", reused)
    assert evidence_reuse(PUBLIC) and "salmon_soup" in evidence_reuse(PUBLIC)[0]
    with pytest.raises(ValueError, match="reuse the wording of the notes they point to"):
        generate_and_store(city="helsinki", seed=0, count=1, cells=[], validate=False, progress=None)
