"""Connection tests off the web worker: queued as a task on the evaluation queue, followed by their id.

A connection test is one model call to an endpoint typed in the submit form (``probe.endpoint_probe``).
It is never made inside a web request: a slow or dripping endpoint would hold a web worker for as long
as it likes, and the web container is not behind the deployment's egress proxy. Instead
``connection_test_start`` writes a record in Redis and queues ``connection_test_task`` on the evaluation
queue (the workers behind the egress proxy, docs/operations.md); the worker runs the probe, with its one
deadline, and writes the result into the record, which the page polls through ``connection_test_state``.

The API key travels in the task message encrypted (``secrets.encrypt_secret``), never in clear on the
broker, and is not stored with the result. A record lives ``RECORD_TTL_S``; a user has at most one test
in flight. A test no worker took within ``QUEUE_WAIT_S`` is reported as such (its message expires then).
"""

from __future__ import annotations

import json
import time
import uuid

from django.conf import settings

from .probe import PROBE_TIMEOUT_S, endpoint_probe
from .secrets import decrypt_secret, encrypt_secret

TASK = "benchmark.tasks.connection_test_task"  # benchmark/endpoints/tasks.py, registered by the app's ready()
QUEUE_WAIT_S = 60  # a test not taken by a worker within this is dropped and said to be
RUN_WAIT_S = PROBE_TIMEOUT_S + 30  # a test running longer lost its worker (the probe ends at its deadline)
RECORD_TTL_S = 600
QUEUED, RUNNING, DONE = "queued", "running", "done"
_PREFIX = "lifeplanner:connection-test"


class ConnectionTestBusy(Exception):
    """The user's previous connection test has not finished."""


def connection_test_start(
    *, user_id: int, model: str, api_base: str, api_key: str | None, no_key: bool, params: dict | None
) -> str:
    """Queue a connection test for the endpoint described; its id, for ``connection_test_state``.

    Raises:
        ConnectionTestBusy: the user's previous test is still queued or running.
    """
    from celery import current_app

    redis = _redis()
    previous = redis.get(f"{_PREFIX}:user:{user_id}")
    if previous is not None:
        state = connection_test_state(test_id=previous.decode(), user_id=user_id)
        if state is not None and state["state"] != DONE:
            raise ConnectionTestBusy(
                "your previous connection test has not finished yet; wait for its result (at most "
                f"{QUEUE_WAIT_S + PROBE_TIMEOUT_S:g} s)"
            )
    test_id = uuid.uuid4().hex
    _write(redis, test_id, {"state": QUEUED, "user": user_id, "queued_at": time.time()})
    redis.set(f"{_PREFIX}:user:{user_id}", test_id, ex=RECORD_TTL_S)
    secret = encrypt_secret(api_key) if api_key else ""
    current_app.tasks[TASK].apply_async(
        args=(test_id, model, api_base or "", secret, no_key, params or {}), queue="evaluation", expires=QUEUE_WAIT_S
    )
    return test_id


def connection_test_run(
    test_id: str, model: str, api_base: str, encrypted_key: str, no_key: bool, params: dict
) -> dict:
    """Run the queued test ``test_id`` (the task's body) and record its result; the result."""
    redis = _redis()
    record = _read(redis, test_id)
    if record is None or record["state"] != QUEUED:  # expired, or already taken (a redelivered message)
        return {"state": "skipped"}
    _write(redis, test_id, {**record, "state": RUNNING, "started_at": time.time()})
    result = endpoint_probe(
        model=model,
        api_base=api_base,
        api_key=decrypt_secret(encrypted_key) if encrypted_key else None,
        no_key=no_key,
        params=params,
    )
    done = {**record, "state": DONE, "ok": result.ok, "latency_ms": result.latency_ms, "message": result.message}
    _write(redis, test_id, done)
    return {"state": DONE, "ok": result.ok}


def connection_test_state(*, test_id: str, user_id: int) -> dict | None:
    """The test as its owner sees it (None for another user's, or an unknown or expired id):
    ``state`` (queued, running, done), and when done ``ok``, ``latency_ms`` and ``message``."""
    if not test_id.isalnum() or len(test_id) != 32:
        return None
    record = _read(_redis(), test_id)
    if record is None or record.get("user") != user_id:
        return None
    state = {"id": test_id, "state": record["state"], "finished": record["state"] == DONE}
    if record["state"] == QUEUED and time.time() - record["queued_at"] > QUEUE_WAIT_S:
        message = f"no evaluation worker took the test within {QUEUE_WAIT_S} s; the workers may be busy, try again"
        return {**state, "state": DONE, "finished": True, "ok": False, "latency_ms": 0.0, "message": message}
    if record["state"] == RUNNING and time.time() - record["started_at"] > RUN_WAIT_S:
        message = "the worker running the test stopped before it finished; try again"
        return {**state, "state": DONE, "finished": True, "ok": False, "latency_ms": 0.0, "message": message}
    if record["state"] == DONE:
        state.update(ok=record["ok"], latency_ms=record["latency_ms"], message=record["message"])
    return state


def _redis():
    import redis

    return redis.Redis.from_url(settings.REDIS_URL)


def _read(redis, test_id: str) -> dict | None:
    raw = redis.get(f"{_PREFIX}:{test_id}")
    return None if raw is None else json.loads(raw)


def _write(redis, test_id: str, record: dict) -> None:
    redis.set(f"{_PREFIX}:{test_id}", json.dumps(record), ex=RECORD_TTL_S)
