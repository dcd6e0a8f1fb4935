"""The policy for migrations that are applied while workers (running the previous code) keep writing.

Expand, then contract, never both in one release:
1. expand: add tables; add columns that are nullable or have a database default (``db_default``:
   Django's ``default`` alone is dropped from the column after the backfill, so the previous code's
   INSERTs, which do not name the column, fail); add indexes with ``AddIndexConcurrently`` in a
   non-atomic migration;
2. backfill (``RunPython``, in batches) and switch the code to the new columns;
3. contract in later releases: make the column nullable and remove the field from the code and the
   state only (``SeparateDatabaseAndState(state_operations=[RemoveField])``); one release later,
   when no running code names it, drop it from the database
   (``SeparateDatabaseAndState(database_operations=[RemoveField])``) in a migration that says so
   (``policy_exception = "..."`` on the Migration class, reviewed like code).
Renames are an add, a backfill and a later drop. Checked by ``migration_violations`` (and
tests/operations/test_migration_policy.py), for every migration from a given one on.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.postgres import operations as pg_ops
from django.db import connection
from django.db.migrations import operations as ops
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.state import ProjectState
from django.db.models import NOT_PROVIDED

# Need a policy_exception on the migration: they break the previous code or rewrite under a lock.
CONTRACT = (ops.RemoveField, ops.DeleteModel, ops.AlterModelTable, ops.RunSQL)
NEVER = (ops.RenameField, ops.RenameModel)  # the previous code still uses the old name
LOCKING = (ops.AddIndex, ops.AddConstraint, ops.AlterUniqueTogether, ops.AlterIndexTogether)
# Built without blocking writes: indexes concurrently, constraints NOT VALID (validated later, without a lock).
NON_BLOCKING = (
    pg_ops.AddIndexConcurrently,
    pg_ops.RemoveIndexConcurrently,
    pg_ops.AddConstraintNotValid,
    pg_ops.ValidateConstraint,
)


@dataclass(frozen=True)
class Violation:
    """One operation of a migration that breaks the policy, and why."""

    migration: str
    operation: str
    rule: str

    def __str__(self) -> str:
        return f"{self.migration}: {self.operation}: {self.rule}"


def migration_violations(*, app_label: str, first: str) -> list[Violation]:
    """Every policy violation in the app's migrations on disk named ``first`` or later (by name order)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    names = sorted(name for app, name in loader.disk_migrations if app == app_label and name >= first)
    found: list[Violation] = []
    for name in names:
        migration = loader.get_migration(app_label, name)
        state = loader.project_state((app_label, name), at_end=False)
        found += check_migration(migration, state)
    return found


def check_migration(migration, state: ProjectState) -> list[Violation]:
    """The violations of one migration, given the project state before it (``state`` is advanced)."""
    label, found = f"{migration.app_label}.{migration.name}", []
    excepted = bool(getattr(migration, "policy_exception", "").strip())
    created: set[str] = set()
    for operation in migration.operations:
        for checked in _database_operations(operation):
            rule = _rule(checked, state, migration.app_label, created, excepted)
            if rule:
                found.append(Violation(label, checked.describe(), rule))
            if isinstance(checked, ops.CreateModel):
                created.add(checked.name_lower)
        operation.state_forwards(migration.app_label, state)
    return found


def _database_operations(operation) -> list:
    """What the operation does to the database (a state-only change does nothing to it)."""
    if isinstance(operation, ops.SeparateDatabaseAndState):
        return list(operation.database_operations)
    return [operation]


def _rule(operation, state: ProjectState, app: str, created: set[str], excepted: bool) -> str:
    """Why ``operation`` breaks the policy ("" when it does not)."""
    if isinstance(operation, NON_BLOCKING):
        return ""
    if isinstance(operation, NEVER):
        return "renames break the previous code: add the new name, backfill, switch the code, drop the old later"
    if isinstance(operation, CONTRACT):
        return (
            ""
            if excepted
            else (
                "drops and raw SQL need policy_exception on the migration, saying which "
                "earlier release stopped using what is dropped (or why the SQL is safe)"
            )
        )
    model = getattr(operation, "model_name_lower", None) or getattr(operation, "name_lower", "")
    if model in created:
        return ""  # a table of this migration: nothing reads or writes it yet
    if isinstance(operation, LOCKING):
        return (
            "builds an index or validates a constraint under a lock on a live table: use AddIndexConcurrently "
            "in a non-atomic migration (constraints: NOT VALID, then validate)"
        )
    if isinstance(operation, ops.AddField):
        return _added_field_rule(operation.field)
    if isinstance(operation, ops.AlterField):
        return _altered_field_rule(state.models[app, model].fields[operation.name], operation.field)
    return ""


def _added_field_rule(field) -> str:
    if field.many_to_many:
        return ""
    if not field.null and field.db_default is NOT_PROVIDED:
        return (
            "a NOT NULL column without db_default: the previous code's INSERTs do not name it and fail "
            "(Django drops a plain default from the column); make it null=True or give it db_default"
        )
    if field.unique or (field.db_index and not field.primary_key):
        return "adds an index under a lock: add the column with db_index=False, then AddIndexConcurrently"
    return ""


def _altered_field_rule(old, new) -> str:
    if old.null and not new.null:
        return "makes a column NOT NULL: the previous code may still write NULL; backfill and switch first"
    if old.db_parameters(connection)["type"] != new.db_parameters(connection)["type"]:
        return "changes a column's type: rewrites the table under an exclusive lock; add a new column instead"
    if (new.unique and not old.unique) or (new.db_index and not old.db_index):
        return "adds an index under a lock: use AddIndexConcurrently in a non-atomic migration"
    return ""
