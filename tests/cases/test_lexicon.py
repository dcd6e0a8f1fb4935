"""Place nouns, errands and implicit needs: what a question's words accept, and which needs fit which places."""

from __future__ import annotations

import pytest

from benchmark.cases.lexicon import ACCEPT, ERRANDS, MIGHT, NOUN, errand_noun, indefinite, nouns_for
from benchmark.cases.needs import NEEDS, need_of
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


def test_supermarkets_may_sell_the_wine_an_errand_asks_for():
    wine = errand_noun("buy a bottle of wine")
    assert wine.match(place("Shopping|Liquor Store")) == ACCEPT
    assert wine.match(place("Shopping|Supermarket")) == MIGHT  # up to 8 % since 2024


def test_every_need_rests_on_known_facts():
    for key, need in NEEDS.items():
        assert need.satisfied_by[0] == key and all(k in ALL_SPECS for k in need.satisfied_by), key


def test_rival_facts_count_as_meeting_a_need():
    assert "great_view" in need_of("lake_sunset_spot").satisfied_by
    assert "rooftop_terrace" in need_of("great_view").satisfied_by  # a visible tag that meets the same words
    assert "fresh_pastries" in need_of("huge_cinnamon_buns").satisfied_by
    assert "affordable_prices" not in NEEDS  # any cheap place would meet it: not an implicit need
    assert not {"good_wifi", "fully_vegan_menu", "gluten_free_options"} & set(ALL_SPECS)  # map facts show them


def test_a_need_fits_a_place_by_its_kind():
    assert NEEDS["salmon_soup"].fits(place("Food & Beverages|Finnish Restaurant"))
    assert not NEEDS["salmon_soup"].fits(place("Food & Beverages|Fast Food"))
    assert not NEEDS["english_speaking_staff"].fits(place("Shopping|Jewellery Store"))
    assert not NEEDS["fresh_pastries"].fits(place("Food & Beverages|Ice Cream Parlour"))
