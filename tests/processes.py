"""Child processes for tests (servers, workers) that work on the session's test database."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_database_env(**extra: str) -> dict[str, str]:
    """This process's environment, pointed at the test database pytest-django created."""
    from django.db import connection

    db = connection.settings_dict
    name = db["NAME"]
    assert name.startswith("test_"), f"refusing to point a child process at {name!r}, not a test database"
    url = f"postgis://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST"))}
    env.update({"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "lifeplanner_site.settings", "LOG_LEVEL": "WARNING"})
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_server(manage_args: list[str], *, port: int, timeout: float = 60.0) -> Iterator[str]:
    """Run ``manage.py <manage_args>`` until it answers on ``port``; yield its /mcp URL; always stop it."""
    process = subprocess.Popen([sys.executable, "manage.py", *manage_args], cwd=REPO, env=test_database_env(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
