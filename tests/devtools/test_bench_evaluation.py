"""bench_evaluation: a real run on real workers, timed from ready workers, with the CPU it cost."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import redis
from django.core.management import CommandError, call_command

from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests import processes

DEV_SETTINGS = "lifeplanner_site.dev_settings"  # the bench commands are devtools', which the image leaves out
BROKER = "redis://127.0.0.1:6379/9"  # a database of its own, so that no other worker takes the run's tasks


def test_a_benchmark_runs_every_case_on_its_workers_and_reports_the_cpu_per_model_call(eval_release, django_db_blocker):
    redis.Redis.from_url(BROKER).flushdb()
    env = processes.child_env(REDIS_URL=BROKER, ALLOW_PRIVATE_ENDPOINTS="1", DJANGO_SETTINGS_MODULE=DEV_SETTINGS)
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_evaluation",
            "--release",
            eval_release.name,
            "--workers",
            "1",
            "--pool",
            "threads",
            "--concurrency",
            "4",
            "--limit",
            "6",
            "--delay",
            "0.05",
            "--endpoint-concurrency",
            "2",
        ],
        cwd=processes.REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    try:
        assert done.returncode == 0, done.stderr[-3000:]
        assert re.search(r"run \d+: 6 cases \(6 passed\) on 1 worker\(s\) x 4 \(threads\)", done.stdout)
        # four cases at once, two requests in flight at most: the endpoint's cap held across the harness
        peak = re.search(
            r"2 in flight \(4 cases at once\): ideal 40\.0 calls/s, [\d.]+ of it; the endpoint held at "
            r"most (\d) requests at once",
            done.stdout,
        )
        assert peak and 1 <= int(peak.group(1)) <= 2, done.stdout
        cpu = re.search(
            r"CPU per model call: ([\d.]+) ms \(workers ([\d.]+), command \(endpoint\) ([\d.]+), "
            r"redis ([\d.]+), postgres ([\d.]+)\)",
            done.stdout,
        )
        assert cpu, done.stdout
        total, workers, endpoint, _, postgres = map(float, cpu.groups())
        assert workers > 0 and postgres > 0 and endpoint >= 0
        assert abs(total - sum(map(float, cpu.groups()[1:]))) < 0.3
        # the whole cluster counts, and the workers' own connections (their pool's) were among what was seen
        cluster = re.search(
            r"PostgreSQL: the whole cluster; (\d+) processes seen \((\d+) serving the workers\), [\d.]+ CPU "
            r"seconds in those that ended \(short connections, autovacuum\)",
            done.stdout,
        )
        assert cluster and int(cluster.group(1)) >= int(cluster.group(2)) >= 1, done.stdout
    finally:
        redis.Redis.from_url(BROKER).flushdb()
        with django_db_blocker.unblock():
            runs = EvaluationRun.objects.filter(release=eval_release, name__startswith="bench ")
            endpoints = set(runs.values_list("endpoint_id", flat=True))
            runs.delete()
            ModelEndpoint.objects.filter(id__in=endpoints).delete()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "--workers must be 1 or more; got 0"),
        (["--concurrency", "0"], "--concurrency must be 1 or more; got 0"),
        (["--limit", "0"], "--limit must be 1 or more; got 0"),
        (["--delay", "-1"], "--delay must be 0 or more seconds; got -1.0"),
        (["--endpoint-concurrency", "0"], "--endpoint-concurrency must be 1 or more; got 0"),
        (
            ["--workers", "2", "--concurrency", "3", "--endpoint-concurrency", "7"],
            "--endpoint-concurrency must be at most the cases running at once (--workers x --concurrency = 6); got 7",
        ),
    ],
)
def test_bad_benchmark_options_are_refused_naming_what_is_allowed(args, message):
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("bench_evaluation", "--release", "helsinki-v1", *args)


def test_bench_model_client_times_litellm_against_the_sdk_and_plain_http(eval_release):
    from tests.processes import free_port

    env = processes.child_env(ALLOW_PRIVATE_ENDPOINTS="1", DJANGO_SETTINGS_MODULE=DEV_SETTINGS)
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "bench_model_client",
            "--release",
            eval_release.name,
            "--calls",
            "5",
            "--port",
            str(free_port()),
        ],
        cwd=processes.REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = dict(re.findall(r"^(LLMClient.*|openai SDK.*|httpx.*?)\s+([\d.]+)\s+[\d.]+$", done.stdout, re.M))
    assert len(rows) == 3 and all(float(cpu) > 0 for cpu in rows.values()), done.stdout
