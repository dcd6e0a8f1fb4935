"""A model's card: what the people reading a leaderboard want to know of the model behind an endpoint.

Stored on ``ModelEndpoint.card`` as a small JSON object of the fields below, each optional and all
declared by whoever submits the endpoint (nothing here is checked against the model). The leaderboard
shows them beside the run; declared prices price a run whose model litellm's price list does not know
(a self-hosted model is 0).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

MAX_TEXT = 120
TEXT_FIELDS = {
    "organisation": "who made the model, e.g. Hugging Face (HuggingFaceTB)",
    "parameters": "its size, e.g. 135M or 7B",
    "license": "its licence, e.g. Apache-2.0",
    "quantisation": "how its weights are stored, e.g. Q4_1 (GGUF) or bf16",
    "server": "what serves it, e.g. llama-cpp-python 0.3.36 or vLLM 0.9",
}
FLAG_FIELDS = {"open_weights": "whether its weights are public (true or false)"}
PRICE_FIELDS = {
    "usd_per_million_input_tokens": "the declared price of a million prompt tokens (0 for a self-hosted model)",
    "usd_per_million_output_tokens": "the declared price of a million completion tokens",
}
FIELDS = {**TEXT_FIELDS, **FLAG_FIELDS, **PRICE_FIELDS}


def card_clean(card: Any) -> dict:
    """The card with only its known fields, each checked.

    Raises:
        ValidationError: naming the field that is wrong and what it must be, or the unknown field.
    """
    if card is None:
        return {}
    if not isinstance(card, dict):
        raise ValidationError("card must be a JSON object of " + ", ".join(FIELDS))
    unknown = sorted(str(key) for key in card if key not in FIELDS)
    if unknown:
        raise ValidationError(f"card may not hold {', '.join(unknown)}: its fields are {', '.join(FIELDS)}")
    for key, value in card.items():
        problem = _problem(key, value)
        if problem:
            raise ValidationError(f"card.{key} must be {problem}")
    return {key: card[key] for key in FIELDS if key in card}


def card_price(card: dict, *, input_tokens: int, output_tokens: int) -> float | None:
    """USD for the tokens at the card's declared prices; None unless the card declares both."""
    per_input, per_output = (card.get(key) for key in PRICE_FIELDS)
    if per_input is None or per_output is None:
        return None
    return round((input_tokens * per_input + output_tokens * per_output) / 1_000_000, 6)


def card_summary(card: dict | None) -> str:
    """One line of the card for a leaderboard row: "Hugging Face · 135M · open weights · Q4_1 (GGUF) · llama-..."."""
    card = card or {}
    flag = card.get("open_weights")
    weights = None if flag is None else "open weights" if flag else "closed weights"
    parts = [card.get("organisation"), card.get("parameters"), weights]
    parts += [card.get("quantisation"), card.get("server")]
    return " · ".join(str(part) for part in parts if part)


def _problem(key: str, value: Any) -> str:
    if key in TEXT_FIELDS:
        ok = isinstance(value, str) and 0 < len(value) <= MAX_TEXT and value.isprintable()
        return "" if ok else f"one line of text up to {MAX_TEXT} characters: {TEXT_FIELDS[key]}"
    if key in FLAG_FIELDS:
        return "" if isinstance(value, bool) else FLAG_FIELDS[key]
    ok = isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1_000_000
    return "" if ok else f"a number from 0 to 1000000: {PRICE_FIELDS[key]}"
