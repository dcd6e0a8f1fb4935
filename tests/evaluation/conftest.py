"""Fixtures for evaluation tests: a frozen release of generated cases, committed for other processes."""

from __future__ import annotations

import re
from collections import Counter

import pytest

SIMPLE_NAME = re.compile(r"[A-Z][a-z]{3,}(?: [A-Z][a-z]{2,})?")  # no "to", "and", commas or punctuation to trip on


@pytest.fixture(scope="session")
def places(helsinki, django_db_blocker) -> list:
    """Helsinki places with a simple name that no other place shares, in place_id order (for the no-model agents'
    questions: a name they must find by searching)."""
    from environment.models import Place

    with django_db_blocker.unblock():
        rows = list(Place.objects.filter(city=helsinki).order_by("place_id"))
    counts = Counter(p.name.casefold() for p in rows)
    return [p for p in rows if counts[p.name.casefold()] == 1 and SIMPLE_NAME.fullmatch(p.name)]


@pytest.fixture(scope="session")
def eval_release(generated_cases, django_db_blocker):
    """A release of the 22 generated Helsinki cases (validated by verification), committed so that
    workers and servers in other processes see it; removed again at the end of the session."""
    from benchmark.cases.services import case_create, release_freeze

    with django_db_blocker.unblock():
        _assert_test_database()
        _remove_eval_release()
        cases = [
            case_create(
                document=document.model_copy(update={"status": "validated", "case_id": "eval-" + document.case_id})
            )
            for document in generated_cases[0]
        ]
        release = release_freeze(name="eval-fixture", split="public", cases=cases)
    yield release
    with django_db_blocker.unblock():
        _remove_eval_release()


def _assert_test_database() -> None:
    from django.db import connection

    name = connection.settings_dict["NAME"]
    assert name.startswith("test_"), f"refusing to write committed fixtures into {name!r}, not a test database"


def _remove_eval_release() -> None:
    from benchmark.cases.models import Case, Release
    from benchmark.runs.models import EvaluationRun

    EvaluationRun.objects.filter(release__name="eval-fixture").delete()
    Release.objects.filter(name="eval-fixture").delete()
    Case.objects.filter(case_id__startswith="eval-").delete()


@pytest.fixture(scope="module")
def run_url(eval_release):
    """``manage.py serve_run_mcp`` in a subprocess on the test database; always stopped."""
    from tests.processes import free_port, http_server

    port = free_port()
    with http_server(["serve_run_mcp", "--port", str(port)], port=port) as url:
        yield url


@pytest.fixture
def autocommit_db(django_db_blocker, eval_release):
    """Autocommit access to the test database; removes the external and uploaded runs afterwards."""
    from benchmark.runs.models import EvaluationRun

    with django_db_blocker.unblock():
        yield
        EvaluationRun.objects.filter(release=eval_release, agent__in=["external", "upload"]).delete()
