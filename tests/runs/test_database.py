"""Most evaluation tests work in autocommit so other processes see their rows; pytest-django sets
up the test database only for sessions holding a test with the django_db mark: this is that test."""

import pytest
from django.db import connection


@pytest.mark.django_db
def test_evaluation_tests_run_on_the_test_database():
    assert connection.settings_dict["NAME"].startswith("test_")
