"""Backup and restore of the results, on this machine's PostgreSQL: pg_dump, a fresh migrated database, pg_restore.

The restore runs as the real command in a child process pointed at a second database that the
test creates (``migrate``) and drops; its content is compared table by table with the source.
"""

from __future__ import annotations

import io
import json
import re
import stat
import subprocess
import sys
import tarfile

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from benchmark.operations.backup import backup_tables, results_backup
from benchmark.operations.dbtools import table_fingerprint
from benchmark.operations.restore import RestoreRefused, results_restore
from tests import processes

from .conftest import assert_test_database

RESULT_TABLES = ("benchmark_evaluationrun", "benchmark_trajectory", "benchmark_step", "benchmark_modelcall")


@pytest.fixture
def curator(django_db_blocker, heuristic_run):
    """A committed curator who created the heuristic run (users and their groups travel with the results)."""
    from django.contrib.auth.models import Group, User

    with django_db_blocker.unblock():
        user = User.objects.create_user("ops-curator", password="a-password-hash-not-a-password")
        user.groups.add(Group.objects.get(name="Curators"))
        type(heuristic_run).objects.filter(id=heuristic_run.id).update(created_by=user)
    yield user
    with django_db_blocker.unblock():
        user.delete()


@pytest.fixture
def scratch_database(django_db_blocker):
    """A second, empty database made by ``migrate`` (in a child process); dropped afterwards."""
    with django_db_blocker.unblock():
        assert_test_database()
        name = connection.settings_dict["NAME"] + "_restore"
        _drop(name)
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        url = _url(name)
    try:
        _manage(url, "migrate", "--noinput", check=True)
        yield url
    finally:
        with django_db_blocker.unblock():
            _drop(name)


def _url(name: str) -> str:
    db = connection.settings_dict
    return f"postgis://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


def _drop(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _manage(url: str, *args: str, check: bool = False) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=processes.REPO,
        env=processes.child_env(DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=300,
    )
    if check:
        assert done.returncode == 0, done.stderr[-3000:]
    return done


def _psycopg_url(url: str) -> str:
    return url.replace("postgis://", "postgresql://", 1)


def _fingerprints_there(url: str) -> dict[str, tuple[int, str]]:
    with psycopg.connect(_psycopg_url(url)) as conn, conn.transaction():
        return {
            table: table_fingerprint(conn.cursor(name=f"fp_{table}"), table=table, pk=pk)
            for table, pk in backup_tables().items()
        }


def _fingerprints_here() -> dict[str, tuple[int, str]]:
    from django.db import transaction

    with transaction.atomic():
        out = {}
        for table, pk in backup_tables().items():
            with connection.chunked_cursor() as cursor:
                out[table] = table_fingerprint(cursor, table=table, pk=pk)
        return out


def _sql(url: str, statement: str, params=()) -> None:
    with psycopg.connect(_psycopg_url(url), autocommit=True) as conn:
        conn.execute(statement, params)


def test_a_backup_restores_into_a_fresh_database_identically_and_only_once(
    heuristic_run, endpoint_run, curator, scratch_database, django_db_blocker, tmp_path
):
    with django_db_blocker.unblock():
        backup = tmp_path / "results.lpbackup"
        out = io.StringIO()
        call_command("backup_results", "--out", str(backup), stdout=out)
        source = _fingerprints_here()
        city = _city_version_here()
        latest = max(_migrations_here())
    assert f"to {backup}" in out.getvalue() and "cities: helsinki" in out.getvalue()
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert all(source[t][0] > 0 for t in RESULT_TABLES)

    _sql(scratch_database, "DELETE FROM django_migrations WHERE app = 'benchmark' AND name = %s", [latest])
    refused = _manage(scratch_database, "restore_results", str(backup))
    assert refused.returncode != 0 and "the target's benchmark migrations differ from the backup's" in refused.stderr
    _sql(scratch_database, "INSERT INTO django_migrations (app, name, applied) SELECT 'benchmark', %s, now()", [latest])

    refused = _manage(scratch_database, "restore_results", str(backup))
    assert refused.returncode != 0 and "the target has no city 'helsinki'" in refused.stderr
    _sql(
        scratch_database,
        "INSERT INTO environment_city (name, version, seed, scale, source, built_at, report) "
        "VALUES ('helsinki', 'another-build', 0, 1, 'test', now(), '{}')",
    )
    refused = _manage(scratch_database, "restore_results", str(backup))
    assert (
        refused.returncode != 0 and f"is version another-buil, the results were scored on {city[:12]}" in refused.stderr
    )
    assert _fingerprints_there(scratch_database)["benchmark_case"][0] == 0  # a refusal writes nothing

    restored = _manage(scratch_database, "restore_results", str(backup), "--allow-city-mismatch", check=True)
    assert "WARNING: city mismatch (restored anyway)" in restored.stderr
    rows = sum(rows for rows, _ in source.values())
    assert f"Restored and verified {rows} rows of {len(source)} tables" in restored.stdout
    assert _fingerprints_there(scratch_database) == source
    assert _curators_there(scratch_database) == ["ops-curator"]

    again = _manage(scratch_database, "restore_results", str(backup), "--allow-city-mismatch")
    assert again.returncode != 0 and re.search(
        r"the target already holds results in .*benchmark_case \(\d+ rows\)", again.stderr
    )
    assert _fingerprints_there(scratch_database) == source


def _city_version_here() -> str:
    from environment.models import City

    return City.objects.get(name="helsinki").version


def _migrations_here() -> list[str]:
    from django.db.migrations.recorder import MigrationRecorder

    return [name for app, name in MigrationRecorder(connection).applied_migrations() if app == "benchmark"]


def _curators_there(url: str) -> list[str]:
    with psycopg.connect(_psycopg_url(url)) as conn:
        return [
            r[0]
            for r in conn.execute(
                "SELECT u.username FROM auth_user u JOIN auth_user_groups ug ON ug.user_id = u.id "
                "JOIN auth_group g ON g.id = ug.group_id WHERE g.name = 'Curators' ORDER BY u.username"
            )
        ]


def test_the_manifest_records_content_cities_and_migrations_without_the_password(
    heuristic_run, django_db_blocker, tmp_path
):
    with django_db_blocker.unblock():
        manifest = results_backup(out=tmp_path / "b.tar")
        with tarfile.open(tmp_path / "b.tar") as archive:
            assert sorted(archive.getnames()) == ["manifest.json", "results.dump"]
            text = archive.extractfile("manifest.json").read().decode()
        with pytest.raises(CommandError, match="exists: choose another name, or pass --overwrite"):
            call_command("backup_results", "--out", str(tmp_path / "b.tar"))
        trajectories = heuristic_run.trajectories.count()
        with pytest.raises(
            RestoreRefused, match="results.dump does not match the SHA-256 in its manifest: the file is damaged"
        ):
            results_restore(path=_damaged_copy(tmp_path / "b.tar", tmp_path / "damaged.tar"))
    assert json.loads(text) == manifest
    # (The database's name may contain the password's word, e.g. test_lifeplanner: leave the name out.)
    assert connection.settings_dict["PASSWORD"] not in text.replace(connection.settings_dict["NAME"], "")
    assert set(manifest["tables"]) == set(backup_tables()) and "auth_user" in manifest["tables"]
    assert "benchmark_runrescore" in manifest["tables"] and not any(
        t.startswith("environment_") for t in manifest["tables"]
    )
    assert manifest["cities"]["helsinki"] and manifest["migrations"]["benchmark"][-1].startswith("0")
    assert manifest["tables"]["benchmark_trajectory"]["rows"] >= trajectories


def _damaged_copy(source, target):
    """The backup with one byte of its dump flipped (a disk or transfer error)."""
    with tarfile.open(source) as archive:
        manifest = archive.extractfile("manifest.json").read()
        dump = bytearray(archive.extractfile("results.dump").read())
    dump[len(dump) // 2] ^= 0xFF
    with tarfile.open(target, "w") as archive:
        for name, data in (("manifest.json", manifest), ("results.dump", bytes(dump))):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return target


@pytest.mark.django_db
def test_a_backup_inside_a_transaction_is_refused(tmp_path):
    with pytest.raises(ValueError, match="needs a snapshot of its own"):
        results_backup(out=tmp_path / "b.tar")
    assert not (tmp_path / "b.tar").exists()


@pytest.mark.django_db
def test_a_file_that_is_not_a_backup_is_refused(tmp_path):
    junk = tmp_path / "junk.tar"
    junk.write_bytes(b"not a tar file at all")
    with pytest.raises(RestoreRefused, match="is not a results backup"):
        results_restore(path=junk)
    with pytest.raises(RestoreRefused, match="no backup file"):
        results_restore(path=tmp_path / "missing.tar")
    with tarfile.open(tmp_path / "other.tar", "w") as archive:
        data = json.dumps({"format": 99}).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
        info = tarfile.TarInfo("results.dump")
        archive.addfile(info, io.BytesIO(b""))
    with pytest.raises(RestoreRefused, match="unknown backup format 99; this code reads format 1"):
        results_restore(path=tmp_path / "other.tar")
