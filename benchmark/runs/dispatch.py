"""Queueing trajectories for the workers: the task is looked up by its name in the Celery app, so
the services that queue work never import the tasks module that calls them (no import cycle)."""

from __future__ import annotations

from collections.abc import Iterable

from celery import current_app
from django.db import transaction

TRAJECTORY_TASK = "benchmark.tasks.trajectory_task"  # benchmark/runs/tasks.py (the name outlived the split)


def trajectories_enqueue(ids: Iterable[int]) -> None:
    """Send one task per trajectory id once the current transaction commits (right away outside one)."""
    ids = list(ids)
    if ids:
        task = current_app.tasks[TRAJECTORY_TASK]
        transaction.on_commit(lambda: [task.delay(i) for i in ids])


def broker_messages_waiting(*, queue: str) -> int:
    """How many messages wait in ``queue`` on the broker (not counting those workers hold)."""
    with current_app.connection_for_read() as connection:
        # kombu-stubs type default_channel as the abstract StdChannel, which has no queue_declare.
        return connection.default_channel.queue_declare(queue=queue).message_count  # type: ignore[attr-defined]
