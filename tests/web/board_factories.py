"""Releases, runs, trajectories and score dicts for the board's page tests (leaderboard, run, cases).

Score dicts have the stored shape ({metric: {value, explanation, details, source}}); a run's
aggregates are computed from its stored trajectories by the real ``run_aggregates``.
"""

from __future__ import annotations

from django.utils import timezone

from benchmark.cases.models import Release
from benchmark.cases.services import case_create, release_freeze
from benchmark.runs.aggregates import run_aggregates
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from tests.benchmark.factories import routing_document

_counter = iter(range(1, 1_000_000))
# One case per cell of table 2, in the paper's order.
ALL_CELLS = [
    ("place_perception", "L0"),
    ("place_perception", "L1"),
    ("place_perception", "L2"),
    ("nearby_discovery", "L0"),
    ("nearby_discovery", "L1"),
    ("nearby_discovery", "L2"),
    ("routing", "L0"),
    ("routing", "L1"),
    ("routing", "L2"),
    ("trip_design", "L1"),
    ("trip_design", "L2"),
]


def release_with_cases(
    name: str, *, cells=ALL_CELLS, split: str = Release.PUBLIC, per_cell: int = 1, **overrides
) -> Release:
    """A frozen release of grid-city routing documents relabelled to the given cells."""
    cases = []
    for category, level in cells:
        for _ in range(per_cell):
            n = next(_counter)
            doc = routing_document(
                case_id=f"{name}-{category}-{level}-{n:04d}",
                category=category,
                level=level,
                type=f"{category}_{level}",
                status="validated",
                **overrides,
            )
            cases.append(case_create(document=doc))
    return release_freeze(name=name, split=split, cases=cases, audit=False)


def metric(name: str, value, **details) -> dict:
    return {
        "name": name,
        "value": value,
        "applicable": value is not None,
        "explanation": f"{name} = {value}",
        "details": details,
        "source": "rule",
    }


def passing_scores(**overrides) -> dict:
    """Scores of a case that passes; ``overrides`` replace whole metrics (metric(...) dicts)."""
    scores = {name: metric(name, 1.0) for name in ("A", "PIoU", "RD_distance", "RD_time", "OC", "SC", "IG", "TE", "RP")}
    scores["grounding"] = metric("grounding", None, flags=[], checked=3)
    scores["pass_rate"] = metric("pass_rate", 1.0)
    return scores | overrides


def failing_scores(**overrides) -> dict:
    return passing_scores(pass_rate=metric("pass_rate", 0.0), **overrides)


def run_with_results(
    release: Release,
    *,
    name: str,
    results: list[tuple[bool | None, dict]] | None = None,
    agent: str = "litellm",
    status: str = EvaluationRun.COMPLETED,
    verified: bool = True,
    purpose: str = EvaluationRun.EVALUATION,
    endpoint=None,
    created_by=None,
    tokens: tuple[int, int] = (0, 0),
    steps: list[dict] | None = None,
    ended: str = "submitted",
    aggregate: bool = True,
    limit: int | None = None,
    model_name: str | None = None,
    description: str = "A test run written by tests/web/board_factories.py.",
) -> EvaluationRun:
    """A run with one DONE trajectory per release entry, in position order.

    ``model_name``: what a listing needs for a run without an endpoint (default: the run's name); ``description``
    too (runs.listing.listing_problems): give "" to make a run the leaderboard does not list.

    ``results``: (passed, scores) per entry (cycled when shorter); default: every case passes.
    ``steps``: the tool calls of every trajectory, as Step fields. ``limit``: only the first cases.
    """
    run = EvaluationRun.objects.create(
        name=name,
        agent=agent,
        release=release,
        status=status,
        verified=verified,
        purpose=purpose,
        endpoint=endpoint,
        created_by=created_by,
        finished_at=timezone.now() if status == EvaluationRun.COMPLETED else None,
        model_name=(name if endpoint is None else "") if model_name is None else model_name,
        description=description,
    )
    results = results or [(True, passing_scores())]
    entries = list(release.entries.order_by("position"))[:limit]
    trajectories = Trajectory.objects.bulk_create(
        [
            Trajectory(
                run=run,
                entry=entry,
                status=Trajectory.DONE,
                ended=ended,
                passed=results[i % len(results)][0],
                scores=results[i % len(results)][1],
                input_tokens=tokens[0],
                output_tokens=tokens[1],
                final_answer={"answer": "x"},
            )
            for i, entry in enumerate(entries)
        ]
    )
    Step.objects.bulk_create(
        [Step(trajectory=t, index=i, **step) for t in trajectories for i, step in enumerate(steps or [])]
    )
    if aggregate and status == EvaluationRun.COMPLETED:
        run.aggregates = run_aggregates(run=run)
        run.save(update_fields=["aggregates"])
    return run
