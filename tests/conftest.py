"""Shared fixtures: a small grid city for fast tests and the real Helsinki build.

Both are written into the test database once per session (and kept between runs by
--reuse-db when the Helsinki version has not changed), outside test transactions, so
servers running in other threads or processes can read them.
"""

from __future__ import annotations

import pytest


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
