"""What tokens cost at litellm's local price list (no network: LITELLM_LOCAL_MODEL_COST_MAP).

The endpoints package is the one place that imports litellm; a run's cost (``benchmark/runs/costs.py``)
asks here. litellm is imported only when a model is priced, so pages that show a stored price never load it.
"""

from __future__ import annotations

import functools
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # otherwise importing litellm fetches it


@functools.lru_cache(maxsize=256)
def model_prices(model: str) -> bool:
    """Whether litellm's local cost map prices ``model``."""
    if not model:
        return False
    import litellm  # heavy: imported only when a run has a model endpoint

    try:
        litellm.cost_per_token(model=model, prompt_tokens=1, completion_tokens=1)
    except Exception:  # litellm raises several kinds for an unmapped model; all mean "unknown"
        return False
    return True


def token_cost(*, model: str, input_tokens: int, output_tokens: int) -> float | None:
    """USD for the tokens at litellm's price of ``model``; None when litellm does not know it."""
    if not model_prices(model):
        return None
    import litellm

    prompt, completion = litellm.cost_per_token(
        model=model, prompt_tokens=input_tokens, completion_tokens=output_tokens
    )
    return round(prompt + completion, 6)
