"""The compare page and the leaderboard under concurrent anonymous clients, through a real server.

Collects the static files and starts gunicorn on a free local port with the site's production
settings (DEBUG off), as the image and docker/entrypoint.sh do, then runs N client threads that
each request the compare page of two runs and the leaderboard in turn over HTTP, and prints
p50/p95/max per page and the share of throttled answers (429). Nothing is written to the
database; the server is stopped at the end.
"""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

REPO = Path(settings.BASE_DIR)


class Command(BaseCommand):
    help = (
        "p50/p95 of the compare page and the leaderboard with N concurrent anonymous clients through gunicorn "
        "(docs/benchmarks.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--a", type=int, required=True, help="Run A of the compare page.")
        parser.add_argument("--b", type=int, required=True, help="Run B of the compare page.")
        parser.add_argument("--clients", type=int, default=20)
        parser.add_argument("--requests", type=int, default=10, help="Requests per client per page.")
        parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (WEB_CONCURRENCY's default).")
        parser.add_argument("--release", default="helsinki-v2")

    def handle(self, *args, **opts):
        if opts["clients"] < 1 or opts["requests"] < 1 or opts["workers"] < 1:
            raise CommandError("--clients, --requests and --workers must be 1 or more")
        pages = {"compare": f"/compare/?a={opts['a']}&b={opts['b']}", "leaderboard": f"/?release={opts['release']}"}
        port = _free_port()
        server = _start(port, opts["workers"])
        try:
            for path in pages.values():  # warm every worker once
                for _ in range(opts["workers"] * 2):
                    _get(port, path)
            times: dict[str, list[float]] = {name: [] for name in pages}
            codes: dict[str, list[int]] = {name: [] for name in pages}
            lock = threading.Lock()

            def client() -> None:
                for _ in range(opts["requests"]):
                    for name, path in pages.items():
                        started = time.perf_counter()
                        try:
                            status = _get(port, path)
                        except OSError:  # a timeout or a refused connection counts as "other"
                            status = -1
                        elapsed = 1000 * (time.perf_counter() - started)
                        with lock:
                            times[name].append(elapsed)
                            codes[name].append(status)

            load = os.getloadavg()
            threads = [threading.Thread(target=client) for _ in range(opts["clients"])]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        self.stdout.write(
            f"{opts['clients']} concurrent clients x {opts['requests']} requests per page; gunicorn "
            f"{opts['workers']} workers, DEBUG off; load average before {load[0]:.2f} "
            f"({os.cpu_count()} CPUs)"
        )
        self.stdout.write(
            f"{'page':12s} {'url':30s} {'p50 ms':>8s} {'p95 ms':>8s} {'max ms':>8s} {'200':>5s} "
            f"{'429':>5s} {'other':>5s}"
        )
        for name, path in pages.items():
            ordered = sorted(times[name])
            p95 = ordered[max(0, int(0.95 * len(ordered)) - 1)]
            ok, limited = codes[name].count(200), codes[name].count(429)
            self.stdout.write(
                f"{name:12s} {path:30s} {statistics.median(ordered):8.1f} {p95:8.1f} "
                f"{ordered[-1]:8.1f} {ok:5d} {limited:5d} {len(ordered) - ok - limited:5d}"
            )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(port: int, workers: int) -> subprocess.Popen:
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0"}
    env.setdefault("SECRET_KEY", "bench-compare-" + "x" * 40)
    # DEBUG off serves hashed static names from a manifest: collect them with the same settings first
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=REPO, env=env, check=True
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "lifeplanner_site.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--timeout",
            "120",
            "--log-level",
            "warning",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None  # stderr=PIPE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError(f"gunicorn exited with {process.returncode}: {process.stderr.read().decode()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise CommandError("gunicorn did not start within 60 s")


def _get(port: int, path: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()
