"""A run's cases go to the broker longest first, so that its end does not wait on long cases queued last."""

from __future__ import annotations

import base64
import json

import redis

from benchmark.runs.services import run_create, run_enqueue
from tests.processes import celery_broker

BROKER = "redis://127.0.0.1:6379/12"  # a database of its own, flushed by the test


def queued_trajectory_ids(broker: redis.Redis) -> list[int]:
    """The trajectory ids of the tasks waiting in the evaluation queue, in the order workers will take them."""
    messages = [json.loads(raw) for raw in reversed(broker.lrange("evaluation", 0, -1))]  # LPUSH in, BRPOP out
    return [json.loads(base64.b64decode(m["body"]))[0][0] for m in messages]


def test_cases_are_queued_by_the_length_of_their_reference_path_longest_first(eval_release, django_db_blocker):
    broker = redis.Redis.from_url(BROKER)
    broker.flushdb()
    with django_db_blocker.unblock():
        run = run_create(agent="reference", release=eval_release, name="queue order")
        try:
            with celery_broker(BROKER):
                assert run_enqueue(run=run) == 22  # autocommit: sent at once
            lengths = {t.id: len(t.entry.snapshot["reference_path"]) for t in run.trajectories.select_related("entry")}
        finally:
            run.delete()
    order = queued_trajectory_ids(broker)
    broker.flushdb()
    assert sorted(order) == sorted(lengths)
    assert [lengths[i] for i in order] == sorted(lengths.values(), reverse=True)
    by_id = [lengths[i] for i in sorted(lengths)]
    assert by_id != sorted(by_id, reverse=True)  # in the order the cases were made, they are not longest first
