"""Celery tasks of endpoints: the connection test of the submit form (names as in benchmark/runs/tasks.py)."""

from celery import shared_task

from .probe import PROBE_TIMEOUT_S


@shared_task(
    name="benchmark.tasks.connection_test_task",
    soft_time_limit=int(PROBE_TIMEOUT_S) + 10,
    time_limit=int(PROBE_TIMEOUT_S) + 20,
)
def connection_test_task(test_id: str, model: str, api_base: str, encrypted_key: str, no_key: bool, params: dict):
    """One connection test queued by ``connection_tests.connection_test_start``; its result is in its record."""
    from .connection_tests import connection_test_run

    return connection_test_run(test_id, model, api_base, encrypted_key, no_key, params)
