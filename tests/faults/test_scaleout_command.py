"""bench_scaleout: the same cases on 1 then 2 worker processes, the curve and the per-case costs."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests import processes
from tests.fakes.redis_server import RedisServer


def test_bench_scaleout_measures_each_worker_count_on_the_same_cases_and_cleans_up(
    fault_release, django_db_blocker, settings, tmp_path, monkeypatch
):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with (
        RedisServer(tmp_path / "redis", appendonly=False) as redis_server,
        processes.celery_broker(redis_server.url(0)),
    ):
        settings.REDIS_URL = redis_server.url(0)
        env = processes.child_env(REDIS_URL=redis_server.url(0), ALLOW_PRIVATE_ENDPOINTS="1")
        for name, value in env.items():
            monkeypatch.setenv(name, value)  # the workers inherit the command's environment
        out = io.StringIO()
        with django_db_blocker.unblock():
            runs_before, endpoints_before = EvaluationRun.objects.count(), ModelEndpoint.objects.count()
            call_command(
                "bench_scaleout",
                "--release",
                fault_release.name,
                "--limit",
                "6",
                "--workers",
                "1,2",
                "--concurrency",
                "2",
                "--delay",
                "0.2",
                "--jitter",
                "0.1",
                stdout=out,
                stderr=io.StringIO(),
            )
            assert (EvaluationRun.objects.count(), ModelEndpoint.objects.count()) == (runs_before, endpoints_before)
    text = out.getvalue()
    rows = re.findall(r"^\s+(\d+)\s+2\s+6\s+6\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+([\d.]+)x", text, re.MULTILINE)
    assert [workers for workers, _ in rows] == ["1", "2"], text  # every case passed on each
    assert float(rows[0][1]) == 1.0
    assert re.search(r"per case \(mean of 6\): [\d.]+ steps, [\d.]+ KiB; [\d.]+ model calls", text), text


@pytest.mark.parametrize(
    "args, problem",
    [
        (["--workers", "0,2"], "--workers must be a comma-separated list"),
        (["--workers", "two"], "--workers must be a comma-separated list"),
        (["--jitter", "2", "--delay", "1"], "--jitter from 0 to --delay"),
        (["--limit", "0"], "--limit must be 1 or more"),
    ],
)
def test_bench_scaleout_rejects_bad_options_saying_what_is_allowed(args, problem, fault_release, django_db_blocker):
    with django_db_blocker.unblock(), pytest.raises(CommandError, match=re.escape(problem)):
        call_command("bench_scaleout", "--release", fault_release.name, *args)
