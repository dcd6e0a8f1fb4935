"""Place nouns, errands and implicit needs: what a question's words accept, and which needs fit which places."""

from __future__ import annotations

import pytest

from benchmark.cases.engine.intents import INTENTS, fitting_phrases
from benchmark.cases.lexicon import ACCEPT, ERRANDS, MIGHT, NOUN, errand_noun, indefinite, nouns_for
from benchmark.cases.needs import NEEDS, need_of, visited_indoors
from environment.build.corpus.vocab import ALL_SPECS


def place(place_type: str, name: str = "Paikka", tag: str = "") -> dict:
    return {"place_type": place_type, "name": name, "tag": tag}


@pytest.mark.parametrize(
    ("noun", "record", "verdict"),
    [
        ("bar", place("Food & Beverages|Pub"), ACCEPT),
        ("bar", place("Entertainment|Nightclub"), MIGHT),
        ("bar", place("Food & Beverages|Coffee House", name="Espresso Bar Aamu"), MIGHT),
        ("bar", place("Food & Beverages|Coffee House"), None),
        ("asian_restaurant", place("Food & Beverages|Sushi Restaurant"), ACCEPT),
        ("asian_restaurant", place("Food & Beverages|Restaurant", tag="Cuisine: Korean"), ACCEPT),
        ("asian_restaurant", place("Food & Beverages|Italian Restaurant"), None),
        ("art_gallery", place("Shopping|Art Shop"), ACCEPT),
        ("art_gallery", place("Culture|Museum"), MIGHT),
        ("restaurant", place("Food & Beverages|Pizzeria"), ACCEPT),
        ("restaurant", place("Food & Beverages|Fast Food"), MIGHT),
        ("cafe", place("Food & Beverages|Bakery"), MIGHT),
    ],
)
def test_a_noun_accepts_what_a_careful_reader_would(noun, record, verdict):
    assert NOUN[noun].match(record) == verdict


def test_nouns_for_a_place_go_from_specific_to_broad():
    keys = [n.key for n in nouns_for(place("Food & Beverages|Sushi Restaurant"))]
    assert keys[0] == "sushi_restaurant" and keys[-1] == "restaurant"
    assert {"japanese_restaurant", "asian_restaurant"} <= set(keys)


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("Asian restaurant", "an"),
        ("art gallery", "an"),
        ("hour", "an"),
        ("university", "a"),
        ("café", "a"),
        ("Indian restaurant", "an"),
        ("European shop", "a"),
    ],
)
def test_indefinite_articles_follow_the_sound(word, article):
    assert indefinite(word) == article


def test_an_errand_adds_the_places_it_could_also_mean():
    cash = errand_noun("withdraw cash")
    assert cash.key == "cash_machine" and cash.match(place("Finance|Bank")) == MIGHT
    assert cash.match(place("Finance|ATM")) == ACCEPT
    assert all(key in NOUN for key, _ in ERRANDS.values())
    with pytest.raises(KeyError, match="unknown errand"):
        errand_noun("buy a yacht")


def test_every_need_has_an_intent_known_facts_and_known_nouns():
    for key, need in NEEDS.items():
        assert key in INTENTS and INTENTS[key].polarity == "seek", key
        assert need.satisfied_by[0] == key and all(k in ALL_SPECS for k in need.satisfied_by), key
        assert all(noun == "*" or noun in NOUN for noun in need.fits), key


def test_rival_facts_count_as_meeting_a_need():
    assert "rooftop_terrace" in need_of("great_view").satisfied_by
    assert "kids_play_corner" in need_of("kid_friendly_vibe").satisfied_by
    assert "affordable_prices" not in NEEDS  # any cheap place would meet it: not an implicit need


def test_needs_fit_their_places_and_moments():
    assert not visited_indoors(place("Culture|Memorial")) and visited_indoors(place("Shopping|Optician"))
    assert "bike_parking_racks" in NEEDS and NEEDS["bike_parking_racks"].vehicles == ("cycling",)
    # A shop gets no phrasing about eating; a question with its own clock gets none about "Friday night".
    shop = fitting_phrases("dog_friendly_place", "wants", serves_food=False, is_shop=True, timed=False)
    assert shop and not any("bite" in p for p in shop)
    assert not fitting_phrases("live_jazz_fridays", "wants", serves_food=True, is_shop=False, timed=True)
