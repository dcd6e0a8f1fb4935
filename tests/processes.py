"""Child processes for tests (servers, workers) that work on the session's test database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def child_database_url(*, host: str | None = None, port: int | None = None) -> str:
    """The URL of the test database pytest-django created (optionally through another host and port)."""
    from django.db import connection

    db = connection.settings_dict
    name = db["NAME"]
    assert name.startswith("test_"), f"refusing to point a child process at {name!r}, not a test database"
    return (
        f"postgis://{db['USER']}:{db['PASSWORD']}@{host or db['HOST'] or '127.0.0.1'}:"
        f"{port or db['PORT'] or 5432}/{name}"
    )


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment, pointed at the test database pytest-django created."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update(
        {
            "DATABASE_URL": child_database_url(),
            "DJANGO_SETTINGS_MODULE": "lifeplanner_site.settings",
            "LOG_LEVEL": "WARNING",
        }
    )
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_server(manage_args: list[str], *, port: int, timeout: float = 60.0) -> Iterator[str]:
    """Run ``manage.py <manage_args>`` until it answers on ``port``; yield its /mcp URL; always stop it."""
    process = subprocess.Popen(
        [sys.executable, "manage.py", *manage_args],
        cwd=REPO,
        env=child_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for_port(port, process, timeout, manage_args[0])
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stderr.close()


def _wait_for_port(port: int, process: subprocess.Popen, timeout: float, name: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}: {process.stderr.read().decode()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"{name} did not answer on port {port} within {timeout:g} s")


# --- Celery workers on the test database ------------------------------------------------------------


def start_celery_worker(
    env: dict[str, str],
    *,
    pool: str = "prefork",
    concurrency: int = 1,
    name: str = "",
    log: Path | None = None,
    queues: str = "evaluation,scoring,housekeeping",
) -> subprocess.Popen:
    """A Celery worker in a process group of its own (so ``kill_process_group`` takes its children too),
    consuming ``queues`` (settings.CELERY_TASK_ROUTES; a worker without -Q consumes only the default queue)."""
    args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "lifeplanner_site",
        "worker",
        "-Q",
        queues,
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=WARNING",
        "-n",
        f"{name or 'test'}-{time.monotonic_ns()}@%h",
    ]
    return _spawn(args, env, log)


def start_celery_beat(env: dict[str, str], *, schedule: Path, log: Path | None = None) -> subprocess.Popen:
    """Celery beat (the scheduler of the housekeeping sweep) in a process group of its own."""
    args = [sys.executable, "-m", "celery", "-A", "lifeplanner_site", "beat", "-s", str(schedule), "--loglevel=WARNING"]
    return _spawn(args, env, log)


def _spawn(args: list[str], env: dict[str, str], log: Path | None) -> subprocess.Popen:
    """Start ``args`` as the leader of a new process group, its output appended to ``log`` (or dropped)."""
    output = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 (the child holds it)
    try:
        return subprocess.Popen(
            args, cwd=REPO, env=env, start_new_session=True, stdout=output, stderr=subprocess.STDOUT
        )
    finally:
        if log:
            output.close()


def kill_process_group(process: subprocess.Popen, sig: int = signal.SIGKILL, timeout: float = 20.0) -> None:
    """Signal the process and its children (it leads its own group); wait for it to end."""
    if process.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def wait_for(predicate, timeout: float, what: str, interval: float = 0.2) -> float:
    """Poll ``predicate`` until true; returns the seconds waited, fails the test on ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return time.monotonic() - started
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")


@contextmanager
def celery_broker(url: str) -> Iterator[str]:
    """Make this process's Celery app publish to ``url`` inside the block."""
    from lifeplanner_site.celery import app

    def use(broker_url: str) -> None:
        app.conf.broker_url = broker_url
        app._pool = None  # connections are pooled per broker URL: start a fresh pool
        app.amqp._producer_pool = None

    previous = app.conf.broker_url
    use(url)
    try:
        yield url
    finally:
        use(previous)


CONNECTION_TEST_BROKER = "redis://127.0.0.1:6379/8"  # the connection tests' worker, records and queue


@contextmanager
def connection_test_worker(settings) -> Iterator[subprocess.Popen]:
    """A real Celery worker on the evaluation queue, on a Redis database of its own (flushed), with this
    process publishing there and keeping the connection tests' records there too (``settings.REDIS_URL``)."""
    import redis

    redis.Redis.from_url(CONNECTION_TEST_BROKER).flushdb()
    settings.REDIS_URL = CONNECTION_TEST_BROKER
    env = child_env(REDIS_URL=CONNECTION_TEST_BROKER, ALLOW_PRIVATE_ENDPOINTS="1")
    worker = start_celery_worker(env, pool="solo", queues="evaluation", name="connection-test")
    try:
        with celery_broker(CONNECTION_TEST_BROKER):
            yield worker
    finally:
        kill_process_group(worker)
