"""A model's page: what its submitters declared of it (endpoints/card.py) and its listed runs across releases.

A model is named by the string a run carries: its endpoint's litellm model string ("openai/smollm2"), or the
model an upload or an external agent declared (``EvaluationRun.model_name``). The page reads only what the
leaderboard shows: listed evaluation runs the reader may see, their aggregates, never a case's result.
"""

from __future__ import annotations

from django.db.models import Q

from benchmark.agents.config import RUN_FILTERS, RunConfig
from benchmark.board.search import provider_of
from benchmark.endpoints.card import TEXT_FIELDS
from benchmark.runs.listing import is_baseline, run_listing_problems
from benchmark.runs.models import EvaluationRun

from .leaderboard import leaderboard_rows
from .visibility import runs_visible

# The card's fields as the page lists them, with their labels (prices are the cost column's business).
CARD_LABELS = {
    "organisation": "Organisation",
    "parameters": "Parameters",
    "open_weights": "Weights",
    "license": "Licence",
    "quantisation": "Quantisation",
    "server": "Served by",
}
assert set(CARD_LABELS) == {*TEXT_FIELDS, "open_weights"}, "a card field without a label"


def model_runs(*, model: str, user) -> list[EvaluationRun]:
    """The listed evaluation runs of ``model`` that ``user`` may see, newest first."""
    runs = (
        runs_visible(user=user)
        .filter(purpose=EvaluationRun.EVALUATION, unlisted_at__isnull=True)
        .filter(Q(endpoint__model=model) | Q(endpoint__isnull=True, model_name=model))
        .select_related("endpoint", "release", "created_by")
        .order_by("-created_at", "-id")
    )
    return [run for run in runs if not run_listing_problems(run) and not is_baseline(agent=run.agent, model=model)]


def model_card(*, model: str, user) -> dict | None:
    """The page of ``model``: None when no listed run of it is visible to ``user``.

    ``{"model", "provider", "card": [(label, text)], "submitters", "first", "last", "runs": [...]}``; each run
    ``{"run": EvaluationRun, "row": its leaderboard row (section, rank, overall, ...), "settings": [(key, value)]}``.
    The card is the newest endpoint's that declares one (several endpoints may serve one model).
    """
    runs = model_runs(model=model, user=user)
    if not runs:
        return None
    rows: dict[int, dict] = {}
    for release in {run.release for run in runs}:
        rows.update({row["run_id"]: row for row in leaderboard_rows(release=release, user=user)})
    card = next((run.endpoint.card for run in runs if run.endpoint and run.endpoint.card), {}) or {}
    submitters = sorted({run.created_by.get_username() for run in runs if run.created_by})
    return {
        "model": model,
        "provider": provider_of(model),
        "card": [(label, _value(field, card[field])) for field, label in CARD_LABELS.items() if field in card],
        "submitters": submitters,
        "first": runs[-1].created_at,
        "last": runs[0].created_at,
        "runs": [{"run": run, "row": rows.get(run.id), "settings": _settings(run)} for run in runs],
    }


def _value(field: str, value) -> str:
    if field == "open_weights":
        return "open (public weights)" if value else "closed"
    return str(value)


def _settings(run: EvaluationRun) -> list[tuple[str, object]]:
    """The settings a run ran with (temperature, tool budget, trials, seed, ...) and its filters, as stored."""
    stored = RunConfig.from_stored(run.config).stored()
    filters = [(key, run.config[key]) for key in RUN_FILTERS if run.config.get(key)]
    return [*stored.items(), *filters]
