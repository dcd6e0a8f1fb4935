"""What a run's tokens cost: at litellm's local price list (``benchmark.endpoints.pricing``), else at the
prices its endpoint's card declares.

Computed when a run's aggregates are computed (in the worker, where litellm is loaded anyway),
so that pages never import litellm to show a price.
"""

from __future__ import annotations

from django.db.models import Sum

from benchmark.endpoints.pricing import model_prices, token_cost
from benchmark.runs.models import EvaluationRun, Trajectory


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
