"""The deployment's processes, started exactly as docker/compose.yml starts them, on the test database.

``stack`` runs each app service's command (``docker/entrypoint.sh <role> ...``) with the settings
of docker/.env.example (DEBUG off: the production settings), a fresh SECRET_KEY, the test
database and a Redis database of its own. Docker does not run here, so this is how the
containers' commands and settings are exercised.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis
import yaml

from tests.processes import REPO, child_env, free_port, kill_process_group, wait_for

DOCKER = REPO / "docker"
ENTRYPOINT = DOCKER / "entrypoint.sh"
SITE_HOST = "lifeplanner.test"
BROKER = "redis://127.0.0.1:6379/11"  # a Redis database of its own, flushed when the stack starts
LONG_RUNNING = ("web", "worker", "beat", "mcp-runs")


def env_file_values(path: Path) -> dict[str, str]:
    """The ``NAME=value`` lines of an env file (comments and blank lines skipped, one level of quotes removed)."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, value = line.partition("=")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[name.strip()] = value
    return values


def compose_file() -> dict:
    return yaml.safe_load((DOCKER / "compose.yml").read_text())


def app_services() -> dict[str, dict]:
    """The compose services that run the LifePlanner image (they have a build section)."""
    return {name: spec for name, spec in compose_file()["services"].items() if "build" in spec}


def production_env(**extra: str) -> dict[str, str]:
    """docker/.env.example filled in for this machine: the test database, the stack's Redis, a fresh key."""
    values = env_file_values(DOCKER / ".env.example")
    values.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS=SITE_HOST,
        CSRF_TRUSTED_ORIGINS=f"https://{SITE_HOST}",
        REDIS_URL=BROKER,
    )
    env = child_env(**values)
    env.update(LOG_LEVEL="INFO", **extra)
    return env


@dataclass
class Stack:
    env: dict[str, str]
    logs: Path
    port: int
    mcp_port: int
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    started: dict[str, list[str]] = field(default_factory=dict)  # service -> its compose command

    def start(self, service: str, command: list[str], **extra: str) -> subprocess.Popen:
        log = open(self.logs / f"{service}.log", "ab")  # noqa: SIM115 (the child holds it)
        try:
            process = subprocess.Popen(
                [str(ENTRYPOINT), *command],
                cwd=REPO,
                env={**self.env, **extra},
                start_new_session=True,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        self.processes[service], self.started[service] = process, command
        return process

    def run(self, command: list[str], timeout: float = 120, **extra: str) -> subprocess.CompletedProcess:
        """A one-shot entry point command (a health check, init), with the stack's environment."""
        return subprocess.run(
            [str(ENTRYPOINT), *command],
            cwd=REPO,
            env={**self.env, **extra},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def log(self, service: str) -> str:
        return (self.logs / f"{service}.log").read_text(errors="replace")

    def alive(self, service: str) -> None:
        process = self.processes[service]
        assert process.poll() is None, f"{service} exited with {process.returncode}:\n{self.log(service)[-3000:]}"

    def stop(self) -> None:
        import signal

        for process in self.processes.values():  # a warm shutdown, as `docker compose down` asks for
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            kill_process_group(process, sig=signal.SIGTERM, timeout=20)


def _interpolated(value: str) -> str:
    """A compose value with ``${NAME:-default}`` read as compose reads it (the variable, else the default)."""
    return re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: os.environ.get(m.group(1), m.group(2)), value)


def node_env(service: str, spec: dict) -> dict[str, str]:
    """The service's own compose environment for this machine: a unique node name, one process per pool."""
    own = {
        k: _interpolated(str(v))
        for k, v in (spec.get("environment") or {}).items()
        if k not in ("DATABASE_URL", "REDIS_URL")
    }
    if "CELERY_NODE_NAME" in own:
        own["CELERY_NODE_NAME"] = f"{own['CELERY_NODE_NAME']}-test{os.getpid()}"
    own["CELERY_CONCURRENCY"] = "1"
    return own


@pytest.fixture(scope="session")
def site_db(django_db_setup, django_db_blocker, django_db_keepdb, django_db_createdb):
    """The test database, even in a session without django_db tests (pytest-django then sets up none)."""
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.settings_dict["NAME"].startswith("test_"):
        yield
        return
    with django_db_blocker.unblock():
        config = setup_databases(
            verbosity=0, interactive=False, aliases={"default"}, keepdb=django_db_keepdb and not django_db_createdb
        )
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            teardown_databases(config, verbosity=0)


@pytest.fixture(scope="session")
def stack(site_db, tmp_path_factory) -> Stack:
    """web, mcp-runs, the three workers and beat, as compose.yml runs them; stopped at the end of the session."""
    redis.Redis.from_url(BROKER).flushdb()
    root = tmp_path_factory.mktemp("stack")
    port, mcp_port = free_port(), free_port()
    env = production_env(
        STATIC_ROOT=str(root / "static"),
        BIND_HOST="127.0.0.1",
        PORT=str(port),
        MCP_PORT=str(mcp_port),
        WEB_CONCURRENCY="2",
        HOUSEKEEPING_SWEEP_SECONDS="2",
        CELERY_BEAT_SCHEDULE_FILE=str(root / "celerybeat-schedule"),
    )
    stack = Stack(env=env, logs=root, port=port, mcp_port=mcp_port)
    # The image runs collectstatic at build time with the production settings; so does the stack.
    collected = stack.run(["manage", "collectstatic", "--noinput", "-v", "0"])
    assert collected.returncode == 0, collected.stderr
    try:
        for service, spec in app_services().items():
            if spec["command"][0] in LONG_RUNNING:
                stack.start(service, spec["command"], **node_env(service, spec))
        _wait_until_ready(stack)
        yield stack
    finally:
        stack.stop()


def _wait_until_ready(stack: Stack) -> None:
    """Every long-running service passes its own compose health check (beat has none: it must stay up)."""
    for service, spec in app_services().items():
        if service not in stack.started:
            continue
        stack.alive(service)
        check = (spec.get("healthcheck") or {}).get("test")
        if check:
            command, extra = entrypoint_args(check), node_env(service, spec)
            wait_for(
                lambda command=command, extra=extra: _passes(stack, command, extra),
                180,
                f"{service} to pass {shlex.join(command)}",
                interval=1.0,
            )
    time.sleep(1)
    stack.alive("beat")


def _passes(stack: Stack, command: list[str], extra: dict[str, str]) -> bool:
    return stack.run(command, timeout=60, **extra).returncode == 0


def entrypoint_args(test: list[str]) -> list[str]:
    """["CMD", "docker/entrypoint.sh", "health"] -> ["health"]."""
    assert test[0] == "CMD" and test[1] == "docker/entrypoint.sh", f"not an entry point health check: {test}"
    return test[2:]
