"""/health/: the database, Redis and the workers, checked for real; 503 when the site cannot serve."""

from __future__ import annotations

import json
import urllib.request

import pytest
import redis
from django.db import connection, connections

from lifeplanner_site.health import database_check, probe_host, workers_cache_clear, workers_check
from tests.processes import celery_broker, free_port
from tests.site.conftest import BROKER, SITE_HOST

EMPTY_BROKER = "redis://127.0.0.1:6379/10"  # a Redis database no worker listens on


def get(url: str, **headers: str) -> tuple[int, dict, dict]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), dict(exc.headers)


@pytest.fixture
def fresh_health(settings):
    settings.HEALTH_WORKERS_CACHE_SECONDS = 0
    settings.HEALTH_WORKER_TIMEOUT_S = 0.5
    workers_cache_clear()
    yield settings
    workers_cache_clear()


def test_health_of_the_running_stack_reports_database_redis_and_every_queue(stack):
    status, body, headers = get(f"http://127.0.0.1:{stack.port}/health/", Host=SITE_HOST)
    assert status == 200, body
    assert body["status"] == "ok"
    checks = body["checks"]
    assert checks["database"]["status"] == "ok" and checks["database"]["postgis"].startswith("3.")
    assert checks["redis"]["status"] == "ok"
    assert checks["workers"]["answered"] >= 3  # the evaluation, scoring and housekeeping containers
    assert all(n >= 1 for n in checks["workers"]["queues"].values())
    assert set(checks["workers"]["queues"]) == {"evaluation", "scoring", "housekeeping"}
    assert all(isinstance(check["latency_ms"], float) for check in checks.values())
    assert "no-cache" in headers["Cache-Control"]


def test_health_never_shows_connection_strings_or_keys(stack):
    raw = (
        urllib.request.urlopen(
            urllib.request.Request(f"http://127.0.0.1:{stack.port}/health/", headers={"Host": SITE_HOST}), timeout=30
        )
        .read()
        .decode()
    )
    password = connection.settings_dict["PASSWORD"]
    for secret in (stack.env["SECRET_KEY"], stack.env["DATABASE_URL"], "postgis://", "redis://", password):
        assert secret not in raw


@pytest.mark.django_db
def test_redis_down_is_503_with_the_failure_named_but_not_the_url(client, fresh_health):
    closed = f"redis://127.0.0.1:{free_port()}/0"
    fresh_health.REDIS_URL = closed
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["redis"] == {
        "status": "error",
        "detail": "Redis does not answer (ConnectionError)",
        "latency_ms": body["checks"]["redis"]["latency_ms"],
    }
    assert body["checks"]["workers"]["status"] == "skipped"
    assert closed not in response.content.decode() and "127.0.0.1" not in response.content.decode()


@pytest.mark.django_db
def test_no_worker_is_degraded_but_still_200(client, fresh_health):
    redis.Redis.from_url(EMPTY_BROKER).flushdb()
    fresh_health.REDIS_URL = EMPTY_BROKER
    with celery_broker(EMPTY_BROKER):
        response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["workers"]["answered"] == 0
    assert body["checks"]["workers"]["detail"] == "no worker consumes evaluation, scoring, housekeeping"


def test_a_queue_without_its_worker_is_named(stack):
    with celery_broker(BROKER):
        result = workers_check(timeout_s=2.0, queues=("evaluation", "reports"))
    assert result["status"] == "degraded"
    assert result["queues"]["evaluation"] >= 1 and result["queues"]["reports"] == 0
    assert result["detail"] == "no worker consumes reports"


@pytest.mark.django_db
def test_database_down_is_an_error_without_host_or_user():
    default = connections["default"]
    broken = type(default)({**default.settings_dict, "PORT": free_port()}, alias="health-probe")
    try:
        result = database_check(connection=broken)
    finally:
        broken.close()
    assert result["status"] == "error"
    assert result["detail"] == "the database does not answer (OperationalError)"


@pytest.mark.django_db
def test_database_check_finds_postgis():
    result = database_check()
    assert result["status"] == "ok" and result["postgis"].startswith("3.")


@pytest.mark.django_db
def test_health_refuses_writes(client):
    assert client.post("/health/").status_code == 405


def test_probe_uses_a_host_name_the_site_accepts():
    assert probe_host("leaderboard.example.org,other.example.org") == "leaderboard.example.org"
    assert probe_host(".example.org") == "example.org"
    assert probe_host("*") == "localhost"
    assert probe_host("") == "localhost"


def test_the_web_containers_health_check_fails_when_nothing_answers(stack):
    result = stack.run(["health"], PORT=str(free_port()))
    assert result.returncode == 1
    assert "no answer on port" in result.stderr
