"""Restore a results backup into a database made by ``migrate`` (and, for scoring, ``build_city``).

The restore refuses, before it writes anything, when the target:
- is not at the same migrations as the backup (restore with the backup's code, then migrate);
- holds any row in a table of the backup (restoring twice would duplicate rows);
- holds a different version of a city the results were scored on (or lacks it), unless
  ``allow_city_mismatch`` is given, which restores and warns.
pg_restore then loads every table in one transaction (all or nothing), and the restored
tables are checked against the row counts and content hashes in the manifest.
"""

from __future__ import annotations

import json
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection, transaction

from .backup import DUMP, FORMAT, MANIFEST, applied_migrations, file_sha256, table_fingerprints
from .dbtools import Target, run_client


class RestoreRefused(ValueError):
    """The target database cannot take this backup; nothing was written."""


class RestoreMismatch(RuntimeError):
    """The restored tables differ from the backup's manifest."""


@dataclass
class RestoreReport:
    """What a restore loaded, and what it warns about."""

    tables: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0


def results_restore(*, path: Path, allow_city_mismatch: bool = False) -> RestoreReport:
    """Load a backup written by ``results_backup`` into the default database and verify it.

    Raises:
        RestoreRefused: the file is not a backup, or the target cannot take it (see the module docstring).
        RestoreMismatch: the restored content differs from the manifest.
        DatabaseToolError: pg_restore is missing or failed (the transaction is rolled back).
    """
    started = time.perf_counter()
    report = RestoreReport()
    with tempfile.TemporaryDirectory(prefix="restore-") as tmp:
        manifest, dump = read_backup(Path(path), Path(tmp))
        report.warnings += target_problems(manifest, allow_city_mismatch=allow_city_mismatch)
        run_client(
            "pg_restore",
            ["--data-only", "--single-transaction", "--exit-on-error", "--no-owner", "--no-privileges", str(dump)],
            target=Target.from_settings(connection.settings_dict),
        )
    report.warnings += _restore_memberships(manifest["group_memberships"])
    report.tables = _verified(manifest["tables"])
    report.seconds = round(time.perf_counter() - started, 2)
    return report


def read_backup(path: Path, into: Path) -> tuple[dict, Path]:
    """The manifest and the extracted dump of a backup file (only its two known members are read)."""
    try:
        with tarfile.open(path, mode="r:") as archive:
            manifest = json.loads(_member(archive, MANIFEST).read())
            dump = into / DUMP
            with dump.open("wb") as out:
                reader = _member(archive, DUMP)
                while chunk := reader.read(1 << 20):
                    out.write(chunk)
    except FileNotFoundError:
        raise RestoreRefused(f"no backup file {path}") from None
    except (tarfile.TarError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RestoreRefused(f"{path} is not a results backup (a tar of {MANIFEST} and {DUMP}): {exc}") from None
    found = manifest.get("format") if isinstance(manifest, dict) else None
    if found != FORMAT:
        raise RestoreRefused(f"{path}: unknown backup format {found!r}; this code reads format {FORMAT}")
    missing = sorted({"tables", "migrations", "cities", "group_memberships", "dump"} - set(manifest))
    if missing:
        raise RestoreRefused(f"{path}: the manifest lacks {', '.join(missing)}")
    if file_sha256(dump) != manifest["dump"].get("sha256"):
        raise RestoreRefused(f"{path}: {DUMP} does not match the SHA-256 in its manifest: the file is damaged")
    return manifest, dump


def _member(archive: tarfile.TarFile, name: str):
    try:
        member = archive.getmember(name)
    except KeyError:
        raise tarfile.TarError(f"it has no {name}") from None
    if not member.isfile():
        raise tarfile.TarError(f"{name} is not a regular file")
    return archive.extractfile(member)


def target_problems(manifest: dict, *, allow_city_mismatch: bool) -> list[str]:
    """Refuse (RestoreRefused) a target that cannot take the backup; returns warnings for one that may."""
    _refuse_other_tables(manifest["tables"])
    _refuse_other_migrations(manifest["migrations"], str(manifest.get("git_commit") or "")[:12])
    _refuse_rows(manifest["tables"])
    problems = _city_problems(manifest["cities"])
    if problems and not allow_city_mismatch:
        raise RestoreRefused(
            "; ".join(problems) + ". Build the same city first (build_city with the seed of the "
            "backup's city), or pass --allow-city-mismatch to restore anyway"
        )
    return [f"city mismatch (restored anyway): {p}" for p in problems]


def _refuse_other_tables(tables: dict) -> None:
    from .backup import backup_tables

    expected = set(backup_tables())
    if set(tables) != expected:
        extra, missing = sorted(set(tables) - expected), sorted(expected - set(tables))
        raise RestoreRefused(
            f"the backup's tables differ from this code's (unknown: {', '.join(extra) or 'none'}; "
            f"missing: {', '.join(missing) or 'none'}): restore with the code version of the backup"
        )


def _refuse_other_migrations(expected: dict[str, list[str]], manifest_commit: str) -> None:
    here = applied_migrations()
    for app, names in expected.items():
        if sorted(here.get(app, [])) != sorted(names):
            raise RestoreRefused(
                f"the target's {app} migrations differ from the backup's (backup: {_last(names)}, target: "
                f"{_last(here.get(app, []))}): migrate the target with the code version the backup was taken "
                f"with (commit {manifest_commit or 'unknown'}), restore, then migrate forward"
            )


def _last(names: list[str]) -> str:
    return max(names) if names else "none applied"


def _refuse_rows(tables: dict[str, dict]) -> None:
    occupied = []
    with connection.cursor() as cursor:
        for table in tables:  # names checked against backup_tables() first
            cursor.execute(f'SELECT count(*) FROM "{table}"')
            rows = cursor.fetchone()[0]
            if rows:
                occupied.append(f"{table} ({rows} rows)")
    if occupied:
        raise RestoreRefused(
            "the target already holds results in " + ", ".join(occupied) + ": a restore only "
            "loads into empty tables (restore into a fresh database, then switch DATABASE_URL)"
        )


def _city_problems(cities: dict[str, str]) -> list[str]:
    from environment.selectors import city_versions

    here = city_versions(names=cities)
    problems = []
    for name, version in cities.items():
        if name not in here:
            problems.append(f"the target has no city {name!r} (the results were scored on version {version[:12]})")
        elif here[name] != version:
            problems.append(
                f"the target's city {name!r} is version {here[name][:12]}, the results were scored on {version[:12]}"
            )
    return problems


def _restore_memberships(memberships: dict[str, list[str]]) -> list[str]:
    warnings = []
    users = get_user_model().objects.in_bulk(list(memberships), field_name="username")
    groups = Group.objects.in_bulk([g for names in memberships.values() for g in names], field_name="name")
    for username, names in memberships.items():
        missing = [n for n in names if n not in groups]
        if missing:
            warnings.append(f"user {username!r} was in group(s) {', '.join(missing)}, which the target lacks")
        if username in users:
            users[username].groups.add(*[groups[n] for n in names if n in groups])
    return warnings


def _verified(expected: dict[str, dict]) -> dict[str, int]:
    from .backup import backup_tables

    pks = backup_tables()
    with transaction.atomic():
        found = table_fingerprints({table: pks[table] for table in expected})
    wrong = [
        f"{t}: {found[t]['rows']} rows (backup: {e['rows']})"
        + ("" if found[t]["rows"] != e["rows"] else ", content differs")
        for t, e in expected.items()
        if found[t] != e
    ]
    if wrong:
        raise RestoreMismatch(
            "the restored tables differ from the backup: " + "; ".join(wrong) + ". Drop this "
            "database and restore again into a fresh one"
        )
    return {table: e["rows"] for table, e in expected.items()}
