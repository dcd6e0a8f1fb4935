"""Shared fixtures: a small grid city for fast tests, the real Helsinki build, the cases the data engine writes on
it, and a frozen release of them for the tests of agents, runs, endpoints and external agents.

They are written into the test database once per session (Helsinki kept between runs by --reuse-db when its
version has not changed), outside test transactions, so servers and workers running in other threads or processes
can read them.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

SIMPLE_NAME = re.compile(r"[A-Z][a-z]{3,}(?: [A-Z][a-z]{2,})?")  # no "to", "and", commas or punctuation to trip on


@pytest.fixture(scope="session", autouse=True)
def _test_database_always(request):
    """Every session works on the test database, even when no selected test is marked django_db.

    pytest-django sets up only the databases that collected django_db tests ask for; tests that
    write committed rows or start child processes (through django_db_blocker) would otherwise
    reach the development database."""
    if not request.config.pluginmanager.has_plugin("django"):
        return
    request.getfixturevalue("django_db_setup")
    from django.db import connection
    from django.test.utils import setup_databases

    if not connection.settings_dict["NAME"].startswith("test_"):
        keepdb = request.getfixturevalue("django_db_keepdb") and not request.getfixturevalue("django_db_createdb")
        with request.getfixturevalue("django_db_blocker").unblock():
            setup_databases(verbosity=0, interactive=False, aliases={"default"}, keepdb=keepdb)


@pytest.fixture(scope="session")
def grid_city(django_db_setup, django_db_blocker):
    from tests.factories import build_grid_city

    with django_db_blocker.unblock():
        return build_grid_city()


@pytest.fixture(scope="session")
def helsinki(django_db_setup, django_db_blocker):
    """The bundled Helsinki city (seed 0), built into the test database if missing or stale."""
    from environment.build.pipeline import city_build, city_version, default_pbf
    from environment.models import City

    with django_db_blocker.unblock():
        version = city_version(pbf=default_pbf(), seed=0, scale=1, corpus_jsonl=None)
        city = City.objects.filter(name="helsinki", version=version).first()
        if city is None:
            city = city_build(name="helsinki", seed=0, log=lambda _msg: None)
        return city


@pytest.fixture
def grid_ctx(grid_city):
    from environment.tools.context import city_context

    return city_context(grid_city.name)


@pytest.fixture
def helsinki_ctx(helsinki):
    from environment.tools.context import city_context

    return city_context(helsinki.name)


@pytest.fixture(scope="session")
def generated_cases(helsinki, django_db_blocker):
    """Two cases per cell (22) written by the data engine on Helsinki, seed 7: (documents, reports)."""
    from benchmark.cases.engine.generate_flow import cell_counts
    from benchmark.cases.engine.runner import generate_cases
    from environment.tools.context import city_context

    with django_db_blocker.unblock():
        return generate_cases(context=city_context("helsinki"), seed=7, counts=cell_counts(22, []))


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
