"""Backup of the results: releases, cases, runs, trajectories, scores, and the users they name.

A backup is one tar file holding ``manifest.json`` and ``results.dump`` (``pg_dump
--format=custom --data-only`` of exactly the tables of ``backup_tables()``). The row counts
and content hashes in the manifest are taken in the same snapshot that pg_dump dumps
(``pg_export_snapshot``), so a backup taken while workers write is consistent and a
restore can be verified against it. The city is not in the backup (it is rebuilt from OSM
and a seed); the manifest records each city's name and version, and a restore refuses a
database whose city differs.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tarfile
import tempfile
from pathlib import Path

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model
from django.utils import timezone

from .dbtools import Target, client_version, run_client, table_fingerprint

FORMAT = 1
MANIFEST, DUMP = "manifest.json", "results.dump"
# The apps whose tables hold the benchmark's data (their tables keep the benchmark_ prefix).
RESULT_APPS = ("accounts", "cases", "endpoints", "runs", "operations")


class BackupError(ValueError):
    """A backup cannot be taken as asked (the message says why)."""


def backup_models() -> list:
    """The models whose tables a backup holds: every table of the benchmark apps, and the users they reference.

    Group memberships travel in the manifest by group name (groups and permissions are created by
    migrations). API tokens are backed up as the SHA-256 hashes they are stored as (a backup gives no
    working token); sessions and the admin log are not backed up.
    """
    models: list[type[Model]] = [get_user_model()]
    for label in RESULT_APPS:
        models += [
            m
            for m in apps.get_app_config(label).get_models(include_auto_created=True)
            if m._meta.managed and not m._meta.proxy
        ]
    _assert_closed(models)
    return models


def backup_tables() -> dict[str, str]:
    """Table name -> primary-key column of every table in a backup, in a stable order."""
    return {m._meta.db_table: m._meta.pk.column for m in sorted(backup_models(), key=lambda m: m._meta.db_table)}


def _assert_closed(models: list) -> None:
    """Every foreign key of a backed-up table points at a backed-up table (else a restore would break)."""
    inside = set(models)
    for model in models:
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model not in inside:
                raise BackupError(
                    f"{model._meta.db_table}.{field.column} references "
                    f"{field.related_model._meta.db_table}, which backups do not hold: "
                    "add its model to benchmark/operations/backup.py"
                )


def results_backup(*, out: Path, overwrite: bool = False) -> dict:
    """Write a backup of the results of the default database to ``out`` (mode 0600: it holds password hashes).

    Args:
        out: the backup file (a tar of ``manifest.json`` and ``results.dump``).
        overwrite: replace an existing file (it is replaced only once the new backup is complete).

    Returns:
        The manifest: tables with rows and SHA-256 of their content, cities, migrations, sizes.

    Raises:
        BackupError: ``out`` exists, its folder does not, or this is called inside a transaction.
        DatabaseToolError: pg_dump is missing or failed.
    """
    out = Path(out)
    if out.exists() and not overwrite:
        raise BackupError(f"{out} exists: choose another name, or pass --overwrite")
    if not out.parent.is_dir():
        raise BackupError(f"the folder {out.parent} does not exist")
    if connection.in_atomic_block:
        raise BackupError("a backup needs a snapshot of its own: call it outside any transaction")
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".backup-") as tmp:
        dump = Path(tmp) / DUMP
        manifest = _dump_in_snapshot(dump)
        manifest["dump"] = {"bytes": dump.stat().st_size, "sha256": file_sha256(dump)}
        partial = Path(tmp) / "backup.tar"
        _write_archive(partial, manifest, dump)
        os.replace(partial, out)
    return manifest


def _dump_in_snapshot(dump: Path) -> dict:
    tables = backup_tables()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute("SELECT pg_export_snapshot()")
            snapshot = cursor.fetchone()[0]
        manifest = _manifest(tables)
        run_client(
            "pg_dump",
            [
                "--format=custom",
                "--data-only",
                "--no-owner",
                "--no-privileges",
                "--strict-names",
                f"--snapshot={snapshot}",
                f"--file={dump}",
                *[f"--table=public.{table}" for table in tables],
            ],
            target=Target.from_settings(connection.settings_dict),
        )
    return manifest


def _manifest(tables: dict[str, str]) -> dict:
    from .rescore import git_commit

    return {
        "format": FORMAT,
        "created_at": timezone.now().isoformat(),
        "database": connection.settings_dict["NAME"],
        "git_commit": git_commit(),
        "pg_dump": client_version("pg_dump"),
        "migrations": applied_migrations(),
        "cities": result_cities(),
        "group_memberships": group_memberships(),
        "tables": table_fingerprints(tables),
    }


def applied_migrations() -> dict[str, list[str]]:
    """app label -> applied migration names, for the apps whose tables a backup holds."""
    # benchmark holds the tables' history up to 0011, when its models moved to the apps.
    labels = sorted({m._meta.app_label for m in backup_models()} | {"benchmark"})
    applied = MigrationRecorder(connection).applied_migrations()
    return {label: sorted(name for app, name in applied if app == label) for label in labels}


def result_cities() -> dict[str, str]:
    """City name -> the version this database holds, for every city a case or release was written on."""
    from benchmark.cases.models import Case, Release
    from environment.selectors import city_versions

    names = set(Case.objects.values_list("city_name", flat=True)) | set(
        Release.objects.values_list("city_name", flat=True)
    )
    versions = city_versions(names=names)
    return {name: versions.get(name, "") for name in sorted(names)}


def group_memberships() -> dict[str, list[str]]:
    """username -> group names, for users in any group."""
    memberships: dict[str, list[str]] = {}
    for username, group in (
        get_user_model().objects.filter(groups__isnull=False).values_list("username", "groups__name")
    ):
        memberships.setdefault(username, []).append(group)
    return {user: sorted(groups) for user, groups in sorted(memberships.items())}


def table_fingerprints(tables: dict[str, str]) -> dict[str, dict]:
    """table -> {rows, sha256} in the current transaction's snapshot."""
    out = {}
    for table, pk in tables.items():
        with connection.chunked_cursor() as cursor:
            rows, sha = table_fingerprint(cursor, table=table, pk=pk)
        out[table] = {"rows": rows, "sha256": sha}
    return out


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _write_archive(path: Path, manifest: dict, dump: Path) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as raw, tarfile.open(fileobj=raw, mode="w") as archive:
        data = json.dumps(manifest, indent=2, sort_keys=True).encode()
        info = tarfile.TarInfo(MANIFEST)
        info.size, info.mode, info.mtime = len(data), 0o600, int(timezone.now().timestamp())
        archive.addfile(info, io.BytesIO(data))
        archive.add(dump, arcname=DUMP)
