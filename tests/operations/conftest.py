"""Fixtures for operations tests: the release "ops-fixture" and finished runs on it.

They are committed (pg_dump, child processes and the in-process runner's threads must see them)
and removed again at the end of the session (release) or module (runs).
"""

from __future__ import annotations

import io
import os

import pytest
from django.core.management import call_command
from django.test import override_settings

OPS_PREFIX = "ops-"
CASES = 22
SCRIPTED_KEY = "sk-ops-scripted-0123456789"


def assert_test_database() -> None:
    from django.db import connection

    name = connection.settings_dict["NAME"]
    assert name.startswith("test_"), f"refusing to write committed rows into {name!r}, not a test database"


def _remove_ops_fixtures() -> None:
    from benchmark.cases.models import Case, Release
    from benchmark.runs.models import EvaluationRun

    EvaluationRun.objects.filter(release__name__startswith=OPS_PREFIX).delete()
    Release.objects.filter(name__startswith=OPS_PREFIX).delete()
    Case.objects.filter(case_id__startswith=OPS_PREFIX).delete()


@pytest.fixture(scope="session")
def ops_release(generated_cases, django_db_blocker):
    """The 22 generated Helsinki cases (two per cell) as the public release "ops-fixture"."""
    from benchmark.cases.services import case_create, release_freeze

    with django_db_blocker.unblock():
        assert_test_database()
        _remove_ops_fixtures()
        cases = [
            case_create(
                document=document.model_copy(update={"status": "validated", "case_id": OPS_PREFIX + document.case_id})
            )
            for document in generated_cases[0][:CASES]
        ]
        release = release_freeze(name="ops-fixture", split="public", cases=cases)
    yield release
    with django_db_blocker.unblock():
        _remove_ops_fixtures()


def finished_run(release, *, agent: str, name: str, endpoint=None):
    """A run of every case of ``release``, executed in this process and completed."""
    from benchmark.runs.driver import run_sync
    from benchmark.runs.models import EvaluationRun
    from benchmark.runs.services import run_create

    assert_test_database()
    run = run_create(agent=agent, release=release, endpoint=endpoint, config={"trials": 1}, name=name)
    run_sync(run=run, concurrency=2, progress=None)
    run.refresh_from_db()
    assert run.status == EvaluationRun.COMPLETED and run.aggregates["table2"]["n"] == release.entries.count()
    return run


@pytest.fixture(scope="module")
def heuristic_run(ops_release, django_db_blocker):
    """A completed run of the heuristic agent on ops-fixture (it passes some cases and fails others)."""
    with django_db_blocker.unblock():
        run = finished_run(ops_release, agent="heuristic", name="ops heuristic")
    yield run
    with django_db_blocker.unblock():
        run.delete()


@pytest.fixture(scope="module")
def endpoint_run(ops_release, django_db_blocker):
    """A completed run of a scripted model endpoint on 3 cases, with every model call recorded."""
    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.runs.models import EvaluationRun, ModelCall
    from devtools.fake_endpoint import ScriptedEndpoint

    with (
        django_db_blocker.unblock(),
        ScriptedEndpoint.for_release(ops_release) as endpoint,
        override_settings(ALLOW_PRIVATE_ENDPOINTS=True),
    ):
        assert_test_database()
        os.environ["OPS_SCRIPTED_KEY"] = SCRIPTED_KEY
        try:
            call_command(
                "evaluate",
                "--model",
                "openai/scripted",
                "--api-base",
                endpoint.url,
                "--api-key-env",
                "OPS_SCRIPTED_KEY",
                "--release",
                ops_release.name,
                "--limit",
                "3",
                "--sync",
                "--no-progress",
                "--name",
                "ops endpoint",
                stdout=io.StringIO(),
            )
        finally:
            del os.environ["OPS_SCRIPTED_KEY"]
        run = EvaluationRun.objects.get(name="ops endpoint")
        assert run.status == EvaluationRun.COMPLETED and ModelCall.objects.filter(trajectory__run=run).count() >= 3
    yield run
    with django_db_blocker.unblock():
        endpoint_id = run.endpoint_id
        run.delete()
        ModelEndpoint.objects.filter(id=endpoint_id).delete()
