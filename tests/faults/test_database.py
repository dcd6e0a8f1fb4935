"""The drills work in autocommit so the workers see their rows; pytest-django sets up the test
database only for sessions holding a test with the django_db mark: this is that test."""

import pytest
from django.db import connection


@pytest.mark.django_db
def test_fault_drills_run_on_the_test_database():
    assert connection.settings_dict["NAME"].startswith("test_")
