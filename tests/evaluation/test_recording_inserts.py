"""A trajectory's steps and model calls are inserted as VALUES, not through Django's UNNEST bulk insert
(whose jsonb arrays psycopg escapes quote by quote in Python), and read back exactly as given."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmark.runs import execute
from benchmark.runs.agents.toolbox import StepRecord

AWKWARD = {
    "text": 'a "quoted" word, a back\\slash, {braces}, a comma, and Ünïcödé ✓',
    "nested": [{"k": ['"', "\\", "", None, 1.5, -2, True]}, []],
}


@pytest.mark.django_db
def test_steps_and_model_calls_are_inserted_as_values_and_read_back_unchanged(grid_city):
    from benchmark.cases.services import case_create, release_freeze
    from benchmark.runs.models import ModelCall, Step
    from benchmark.runs.services import run_create
    from tests.benchmark.factories import routing_document

    release = release_freeze(
        name="inserts",
        split="public",
        cases=[case_create(document=routing_document(status="validated"))],
        audit=False,
    )
    trajectory = run_create(agent="reference", release=release).trajectories.get()
    steps = [StepRecord(i, "place_search", {"query_name": f'"{i}"\\'}, {"result": AWKWARD}, "", 1.0) for i in range(3)]
    calls = [
        {"sequence": i, "request": {"messages": [AWKWARD]}, "response": AWKWARD, "error": "", "attempts": 1}
        for i in range(2)
    ]
    with CaptureQueriesContext(connection) as queries:
        execute.trajectory_finish(
            trajectory=trajectory, steps=steps, final_answer=None, ended="model_error", model_calls=calls
        )
    inserts = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith(('INSERT INTO "benchmark_step"', 'INSERT INTO "benchmark_modelcall"'))
    ]
    assert len(inserts) == 2, inserts
    assert all("UNNEST" not in sql and " VALUES " in sql for sql in inserts)
    stored = list(Step.objects.filter(trajectory=trajectory).values_list("arguments", "observation"))
    assert stored == [({"query_name": f'"{i}"\\'}, {"result": AWKWARD}) for i in range(3)]
    recorded = list(ModelCall.objects.filter(trajectory=trajectory).values_list("request", "response"))
    assert recorded == [({"messages": [AWKWARD]}, AWKWARD)] * 2
