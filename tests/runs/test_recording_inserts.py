"""A trajectory's steps and model calls are written with COPY, not an INSERT that Django builds and psycopg
binds value by value in Python, and read back exactly as given."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmark.agents.toolbox import StepRecord
from benchmark.runs import lifecycle

AWKWARD = {
    "text": 'a "quoted" word, a back\\slash, {braces}, a comma, and Ünïcödé ✓',
    "nested": [{"k": ['"', "\\", "", None, 1.5, -2, True]}, []],
}


def _trajectory(release_name: str):
    """The one trajectory of a new run of the reference agent on a one-case release."""
    from benchmark.cases.services import case_create, release_freeze
    from benchmark.runs.services import run_create
    from tests.factories import routing_document

    release = release_freeze(
        name=release_name,
        split="public",
        cases=[case_create(document=routing_document(status="validated"))],
        audit=False,
    )
    return run_create(agent="reference", release=release).trajectories.get()


@pytest.mark.django_db
def test_steps_and_model_calls_are_copied_and_read_back_unchanged(grid_city):
    from benchmark.runs.models import ModelCall, Step

    trajectory = _trajectory("inserts")
    steps = [StepRecord(i, "place_search", {"query_name": f'"{i}"\\'}, {"result": AWKWARD}, "", 1.0) for i in range(3)]
    steps.append(StepRecord(3, "routing", {}, None, "invalid_arguments", 0.5, model_text="text\twith a tab\n"))
    calls = [
        {"sequence": i, "request": {"messages": [AWKWARD]}, "response": AWKWARD, "error": "", "attempts": 1}
        for i in range(2)
    ]
    with CaptureQueriesContext(connection) as queries:
        lifecycle.trajectory_finish(
            trajectory=trajectory, steps=steps, final_answer=None, ended="model_error", model_calls=calls
        )
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert inserts == []  # COPY, which Django's query log does not see
    row = [q["sql"] for q in queries.captured_queries if '"benchmark_trajectory"."id" =' in q["sql"]]
    assert len(row) == 1 and row[0].startswith("UPDATE"), row  # written and checked in one statement
    trajectory.refresh_from_db()
    assert (trajectory.status, trajectory.ended, trajectory.final_answer) == ("done", "model_error", None)
    stored = list(Step.objects.filter(trajectory=trajectory).values_list("arguments", "observation"))
    assert stored == [({"query_name": f'"{i}"\\'}, {"result": AWKWARD}) for i in range(3)] + [({}, None)]
    last = Step.objects.get(trajectory=trajectory, index=3)
    assert (last.tool, last.error_kind, last.latency_ms, last.model_text) == (
        "routing",
        "invalid_arguments",
        0.5,
        "text\twith a tab\n",
    )
    assert Step.objects.filter(trajectory=trajectory, observation__isnull=True).count() == 1  # SQL NULL, as bulk_create
    recorded = list(ModelCall.objects.filter(trajectory=trajectory).values_list("request", "response", "latency_ms"))
    assert recorded == [({"messages": [AWKWARD]}, AWKWARD, 0.0)] * 2  # latency_ms left out: the field's default
    assert all(call.created_at is not None for call in ModelCall.objects.filter(trajectory=trajectory))


@pytest.mark.django_db
def test_a_model_call_with_a_field_the_model_lacks_is_refused_and_nothing_is_written(grid_city):
    from benchmark.runs.models import Step, Trajectory

    trajectory = _trajectory("inserts-unknown")
    steps = [StepRecord(0, "place_search", {"query_name": "x"}, {"result": []}, "", 1.0)]
    calls = [{"sequence": 0, "request": {}, "response": {}, "error": "", "attempts": 1, "colour": "red"}]
    with pytest.raises(TypeError, match="ModelCall has no field colour"):
        lifecycle.trajectory_finish(
            trajectory=trajectory, steps=steps, final_answer=None, ended="model_error", model_calls=calls
        )
    assert not Step.objects.filter(trajectory=trajectory).exists()
    assert Trajectory.objects.get(id=trajectory.id).status != Trajectory.DONE
