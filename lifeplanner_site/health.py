"""``/health/``: is this deployment able to serve and to evaluate?

Checks the database (a query, and PostGIS installed), Redis (PING on ``REDIS_URL``) and the
Celery workers (which of the queues in ``LIFEPLANNER_QUEUES`` have a worker that answers).
HTTP 200 while the database and Redis answer (``"status": "ok"``, or ``"degraded"`` when a
queue has no worker), 503 otherwise (``"down"``). Errors are named by their type only: an
exception's text can hold a host, a user name or a URL, and this page is public.

``python -m lifeplanner_site.health`` probes a running server (the container health check).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

OK, ERROR, DEGRADED, SKIPPED = "ok", "error", "degraded", "skipped"


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """The checks as JSON; 200 when the database and Redis answer, 503 when either does not."""
    from django.conf import settings

    checks = {"database": database_check(), "redis": redis_check(url=settings.REDIS_URL)}
    checks["workers"] = (
        workers_check_cached()
        if checks["redis"]["status"] == OK
        else {"status": SKIPPED, "detail": "Redis does not answer"}
    )
    serving = checks["database"]["status"] == OK and checks["redis"]["status"] == OK
    status = ("ok" if checks["workers"]["status"] == OK else "degraded") if serving else "down"
    return JsonResponse({"status": status, "checks": checks}, status=200 if serving else 503)


def _timed(check: Callable[[], dict], failure: str) -> dict:
    """Run ``check``; add its latency; on an exception, report ``failure`` and the exception's type only."""
    started = time.perf_counter()
    try:
        result = check()
    except Exception as exc:  # any failure is a finding of the health check, never a crash of it
        result = {"status": ERROR, "detail": f"{failure} ({type(exc).__name__})"}
    result["latency_ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


def database_check(*, connection=None) -> dict:
    """SELECT 1 and the PostGIS version on ``connection`` (the default database by default)."""
    if connection is None:
        from django.db import connection

    def check() -> dict:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
            cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'postgis'")
            row = cursor.fetchone()
        if row is None:
            return {"status": ERROR, "detail": "the PostGIS extension is not installed"}
        return {"status": OK, "postgis": row[0]}

    return _timed(check, "the database does not answer")


def redis_check(*, url: str, timeout_s: float = 2.0) -> dict:
    """PING on the broker's Redis."""
    import redis

    def check() -> dict:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout_s, socket_timeout=timeout_s)
        try:
            client.ping()
        finally:
            client.close()
        return {"status": OK}

    return _timed(check, "Redis does not answer")


def workers_check(*, app=None, timeout_s: float = 1.0, queues: tuple[str, ...] | None = None) -> dict:
    """How many workers answer, and how many consume each queue; degraded when a queue has none."""
    from django.conf import settings

    if app is None:
        from lifeplanner_site.celery import app
    queues = tuple(queues or settings.LIFEPLANNER_QUEUES)

    def check() -> dict:
        replies = app.control.inspect(timeout=timeout_s).active_queues() or {}
        consumers = {queue: 0 for queue in queues}
        for worker_queues in replies.values():
            for queue in {q.get("name") for q in worker_queues or []} & set(queues):
                consumers[queue] += 1
        missing = [queue for queue, n in consumers.items() if n == 0]
        result = {"status": DEGRADED if missing else OK, "answered": len(replies), "queues": consumers}
        if missing:
            result["detail"] = f"no worker consumes {', '.join(missing)}"
        return result

    return _timed(check, "the workers could not be asked")


_cache_lock = threading.Lock()
_cached: tuple[float, dict] | None = None


def workers_check_cached() -> dict:
    """``workers_check`` at most once per HEALTH_WORKERS_CACHE_SECONDS per process (each one waits for answers)."""
    global _cached
    from django.conf import settings

    with _cache_lock:
        now = time.monotonic()
        if _cached is not None and now - _cached[0] < settings.HEALTH_WORKERS_CACHE_SECONDS:
            return dict(_cached[1], cached=True)
        result = workers_check(timeout_s=settings.HEALTH_WORKER_TIMEOUT_S)
        _cached = (now, result)
        return result


def workers_cache_clear() -> None:
    global _cached
    with _cache_lock:
        _cached = None


# --- the container health check -----------------------------------------------------------------------------


def probe(*, port: int, host_header: str, timeout_s: float = 10.0) -> tuple[int, str]:
    """GET http://127.0.0.1:<port>/health/ with the site's host name; (HTTP status, body)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/health/", headers={"Host": host_header})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def probe_host(allowed_hosts: str) -> str:
    """A Host header the site accepts: the first of ALLOWED_HOSTS (".example.org" -> "example.org")."""
    first = next((h.strip() for h in allowed_hosts.split(",") if h.strip()), "localhost")
    return "localhost" if first == "*" else first.lstrip(".")


def main(argv: list[str] | None = None) -> int:
    import os

    parser = argparse.ArgumentParser(description="Exit 0 when the server on 127.0.0.1:PORT reports healthy.")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args(argv)
    try:
        status, body = probe(port=args.port, host_header=probe_host(os.environ.get("ALLOWED_HOSTS", "")))
    except OSError as exc:
        print(f"health: no answer on port {args.port} ({type(exc).__name__})", file=sys.stderr)
        return 1
    print(body)
    return 0 if status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
