"""The PostgreSQL client binaries get the password only through their environment; fingerprints see content only."""

from __future__ import annotations

import pytest
from django.db import connection

from benchmark.operations.dbtools import DatabaseToolError, Target, client_binary, run_client, table_fingerprint
from benchmark.runs.models import JudgeRecord

PASSWORD = "not-the-real-password-4711"


def _target(**overrides) -> Target:
    db = {**connection.settings_dict, "PASSWORD": PASSWORD, "OPTIONS": {"sslmode": "prefer"}, **overrides}
    return Target.from_settings(db)


def test_the_password_and_tls_options_reach_the_client_through_its_environment_only():
    target = _target()
    assert PASSWORD not in " ".join(target.args()) and PASSWORD not in repr(target.args())
    env = target.env()
    assert env["PGPASSWORD"] == PASSWORD and env["PGSSLMODE"] == "prefer"


@pytest.mark.django_db
def test_a_failing_client_says_which_and_why_without_the_password():
    with pytest.raises(DatabaseToolError, match="pg_dump failed") as failed:
        run_client(
            "pg_dump",
            ["--data-only", "--table=public.no_such_table", "--strict-names", "--file=/dev/null"],
            target=_target(USER="no_such_role_ops"),
        )
    assert PASSWORD not in str(failed.value) and '"no_such_role_ops" does not exist' in str(failed.value)
    with pytest.raises(DatabaseToolError, match="no matching tables were found"):
        run_client(
            "pg_dump",
            ["--data-only", "--table=public.no_such_table", "--strict-names", "--file=/dev/null"],
            target=Target.from_settings(connection.settings_dict),
        )


def test_a_missing_client_binary_is_named_with_how_to_install_it():
    with pytest.raises(DatabaseToolError, match="pg_nothing is not installed: install the PostgreSQL 15 client"):
        client_binary("pg_nothing")


@pytest.mark.django_db
def test_a_fingerprint_follows_content_not_physical_order():
    JudgeRecord.objects.bulk_create(
        [JudgeRecord(key=f"k{i}", role="r", model="m", prompt_version="v1", verdict={"score": i}) for i in range(3)]
    )
    with connection.cursor() as cursor:
        first = table_fingerprint(cursor, table="benchmark_judgerecord", pk="id")
        JudgeRecord.objects.filter(key="k0").update(role="r")  # same content, new physical row version
        assert table_fingerprint(cursor, table="benchmark_judgerecord", pk="id") == first
        JudgeRecord.objects.filter(key="k1").update(verdict={"score": 10})
        changed = table_fingerprint(cursor, table="benchmark_judgerecord", pk="id")
    assert changed[0] == first[0] == JudgeRecord.objects.count() and changed[1] != first[1]
