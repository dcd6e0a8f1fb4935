"""Fixtures of the fault drills: a committed release of its own and a drill that always cleans up.

The drills run in autocommit (no django_db mark, ``django_db_blocker`` unblocked) so that the
worker processes see every row the test writes; each drill kills its own workers and Redis.
"""

from __future__ import annotations

import pytest

from tests.faults.drill import FIGURES, Drill, DrillFigures

RELEASE = "faults-fixture"
CASE_PREFIX = "fault-"


@pytest.fixture(scope="session")
def fault_release(generated_cases, django_db_blocker):
    """The 22 generated Helsinki cases frozen as a release, committed for the workers; removed at the end."""
    from benchmark.cases.services import case_create, release_freeze

    with django_db_blocker.unblock():
        _assert_test_database()
        _remove_release()
        cases = [
            case_create(
                document=document.model_copy(update={"status": "validated", "case_id": CASE_PREFIX + document.case_id})
            )
            for document in generated_cases[0]
        ]
        release = release_freeze(name=RELEASE, split="public", cases=cases)
    yield release
    with django_db_blocker.unblock():
        _remove_release()


@pytest.fixture
def drill(fault_release, django_db_blocker, settings, tmp_path, request):
    """Make a drill with ``drill(cases=..., trials=..., ...)``; it is closed (workers, Redis, rows) after the test."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the scripted endpoint listens on 127.0.0.1
    made: list[Drill] = []

    def make(**kwargs) -> Drill:
        made.append(Drill(directory=tmp_path / f"drill-{len(made)}", release=fault_release, **kwargs))
        return made[-1]

    with django_db_blocker.unblock():
        yield make
        for one in made:
            if getattr(request.node, "rep_call_failed", False):
                print(one.logs())  # the workers' logs, shown with the failure
            one.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.rep_call_failed = report.failed
    return report


def pytest_terminal_summary(terminalreporter):
    if FIGURES:
        terminalreporter.write_sep("-", "fault drills (tests/faults)")
        terminalreporter.write_line(DrillFigures.header())
        for figures in FIGURES:
            terminalreporter.write_line(figures.line())


def _assert_test_database() -> None:
    from django.db import connection

    name = connection.settings_dict["NAME"]
    assert name.startswith("test_"), f"refusing to write committed fixtures into {name!r}, not a test database"


def _remove_release() -> None:
    from benchmark.cases.models import Case, Release
    from benchmark.runs.models import EvaluationRun

    EvaluationRun.objects.filter(release__name=RELEASE).delete()
    Release.objects.filter(name=RELEASE).delete()
    Case.objects.filter(case_id__startswith=CASE_PREFIX).delete()
