"""A model's card on its endpoint: declared fields checked, shown in one line, prices for unpriced models."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from benchmark.endpoints.card import card_clean, card_price, card_summary

CARD = {
    "organisation": "Hugging Face (HuggingFaceTB)",
    "parameters": "135M",
    "open_weights": True,
    "quantisation": "Q4_1 (GGUF)",
    "server": "llama-cpp-python 0.3.36",
    "usd_per_million_input_tokens": 0,
    "usd_per_million_output_tokens": 0,
}


def test_a_card_is_kept_in_its_fields_order_and_summarised_in_one_line():
    assert card_clean(dict(reversed(CARD.items()))) == CARD
    assert card_summary(CARD) == (
        "Hugging Face (HuggingFaceTB) · 135M · open weights · Q4_1 (GGUF) · llama-cpp-python 0.3.36"
    )
    assert card_summary({"parameters": "1T", "open_weights": False}) == "1T · closed weights"
    assert card_clean(None) == {} and card_summary({}) == ""


@pytest.mark.parametrize(
    "card, message",
    [
        ([], "card must be a JSON object"),
        ({"weights_url": "http://x"}, "card may not hold weights_url"),
        ({"parameters": ""}, "card.parameters must be one line of text"),
        ({"server": "a\nb"}, "card.server must be one line of text"),
        ({"open_weights": "yes"}, "card.open_weights must be whether its weights are public"),
        ({"usd_per_million_input_tokens": -1}, "card.usd_per_million_input_tokens must be a number from 0"),
        ({"usd_per_million_output_tokens": True}, "card.usd_per_million_output_tokens must be a number"),
    ],
)
def test_a_bad_card_names_the_field_and_what_it_must_be(card, message):
    with pytest.raises(ValidationError, match=message):
        card_clean(card)


def test_declared_prices_price_tokens_and_a_card_without_both_prices_nothing():
    assert card_price(CARD, input_tokens=10**6, output_tokens=10**6) == 0
    priced = CARD | {"usd_per_million_input_tokens": 0.5, "usd_per_million_output_tokens": 2}
    assert card_price(priced, input_tokens=2 * 10**6, output_tokens=10**6) == 3.0
    assert card_price({"usd_per_million_input_tokens": 1}, input_tokens=1, output_tokens=1) is None
