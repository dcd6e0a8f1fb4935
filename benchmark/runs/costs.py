"""What a run's tokens cost, at litellm's local price list (no network: LITELLM_LOCAL_MODEL_COST_MAP).

Computed when a run's aggregates are computed (in the worker, where litellm is loaded anyway),
so that pages never import litellm to show a price.
"""

from __future__ import annotations

import functools

from django.db.models import Sum

from benchmark.runs.models import EvaluationRun, Trajectory


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


def run_cost(*, run: EvaluationRun) -> float | None:
    """Total USD of the run's finished trajectories: at litellm's price of the model, or else at the prices its
    endpoint's card declares (0 for a self-hosted model); None when neither prices it (and for agents)."""
    from benchmark.endpoints.card import card_price

    model = run.endpoint.model if run.endpoint is not None else ""
    card = run.endpoint.card if run.endpoint is not None else {}
    if not model_prices(model) and card_price(card or {}, input_tokens=0, output_tokens=0) is None:
        return None
    sums = run.trajectories.filter(status=Trajectory.DONE).aggregate(i=Sum("input_tokens"), o=Sum("output_tokens"))
    tokens = {"input_tokens": sums["i"] or 0, "output_tokens": sums["o"] or 0}
    if model_prices(model):
        return token_cost(model=model, **tokens)
    return card_price(card, **tokens)
