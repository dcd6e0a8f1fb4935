"""Scoring keeps a metric's failure as a scoring error, but a lost database is not one: the task retries."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from benchmark.runs import lifecycle
from benchmark.runs.scoring import trajectories


def _score(monkeypatch, error: Exception):
    import benchmark.runs.scoring.services as services

    def failing(**_):
        raise error

    monkeypatch.setattr(services, "answer_score", failing)
    monkeypatch.setattr(trajectories, "_judges", lambda: [])
    monkeypatch.setattr(trajectories, "_cache", lambda: None)

    class Document:
        case_id = "probe"

    return trajectories.trajectory_score(
        Document(), steps=[], final_answer={}, ended="submitted", input_tokens=0, output_tokens=0
    )


def test_a_metric_that_raises_is_kept_as_a_scoring_error_for_a_rescore(monkeypatch):
    scores, passed = _score(monkeypatch, ValueError("bad metric"))
    assert passed is None and scores["error"]["explanation"] == "scoring failed: ValueError: bad metric"


def test_a_lost_database_connection_is_not_a_scoring_error(monkeypatch):
    with pytest.raises(OperationalError):
        _score(monkeypatch, OperationalError("server closed the connection unexpectedly"))


@pytest.mark.django_db
def test_a_case_finished_by_another_worker_keeps_the_first_result(grid_city):
    """Two workers ran one case (the first's lease ran out while the database was away): the first to
    finish wins; the late one's result is discarded, not written over it."""
    from benchmark.cases.services import case_create, release_freeze
    from benchmark.runs.models import Trajectory
    from benchmark.runs.services import run_create
    from tests.factories import routing_document

    release = release_freeze(
        name="finish-race",
        split="public",  # a hand-made fixture document, no engine query
        cases=[case_create(document=routing_document(status="validated"))],
        audit=False,
    )
    trajectory = run_create(agent="reference", release=release).trajectories.get()
    lifecycle.trajectory_finish(trajectory=trajectory, steps=[], final_answer=None, ended="model_error", error="first")
    late = Trajectory.objects.get(id=trajectory.id)
    late.status = Trajectory.RUNNING  # the late worker's stale copy of the row
    lifecycle.trajectory_finish(trajectory=late, steps=[], final_answer=None, ended="timeout", error="second")
    trajectory.refresh_from_db()
    assert (trajectory.status, trajectory.ended, trajectory.error) == (Trajectory.DONE, "model_error", "first")


@pytest.mark.django_db
def test_scoring_a_case_answered_through_the_toolbox_does_not_look_the_city_up_again(grid_city):
    """The toolbox's pinned city version goes to scoring: without it, scoring reads the city row once more."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmark.runs.scoring.world import forget_worlds
    from environment.tools.context import city_context
    from tests.factories import routing_document

    document = routing_document(status="validated")
    pinned = city_context(document.city_name)
    forget_worlds()  # from a cold start: building the world does not read the city either
    for city, expected in ((pinned, 0), (None, 1)):
        with CaptureQueriesContext(connection) as queries:
            trajectories.trajectory_score(
                document, steps=[], final_answer={}, ended="submitted", input_tokens=0, output_tokens=0, city=city
            )
        city_reads = [q for q in queries.captured_queries if 'FROM "environment_city"' in q["sql"]]
        assert len(city_reads) == expected, [q["sql"][:120] for q in city_reads]
