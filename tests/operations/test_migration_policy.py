"""Migrations that are safe to apply while workers run the previous code (docs/operations.md).

Three checks: every migration from 0007 on follows the written policy; the previous code's
inserts, reads, updates and deletes (through the historical models Django keeps for each
migration state) still work against the migrated schema; and a live drill applies a migration
to the real benchmark tables while a Celery worker is in the middle of a run.
"""

from __future__ import annotations

import pytest
import redis
from django.db import connection, migrations, models
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from benchmark.operations.migration_policy import check_migration, migration_violations

from .conftest import assert_test_database

# benchmark holds the history until 0011 handed its models to the apps; theirs starts at 0001.
FIRST = {
    "benchmark": "0007",
    "environment": "0002",
    "accounts": "0001",
    "cases": "0001",
    "endpoints": "0001",
    "runs": "0001",
    "operations": "0001",
}
BENCHMARK_APPS = ("benchmark", "accounts", "cases", "endpoints", "runs", "operations")
BROKER = "redis://127.0.0.1:6379/13"  # a Redis database of its own, flushed by the drill


def _state(app: str, before: str | None = None):
    loader = MigrationLoader(None, ignore_no_migrations=True)
    if before is None:
        return loader.project_state()
    return loader.project_state((app, before), at_end=False)


def _probe(*operations, atomic: bool = True, policy_exception: str = "") -> migrations.Migration:
    migration = migrations.Migration("9999_probe", "runs")
    migration.operations, migration.atomic = list(operations), atomic
    migration.policy_exception = policy_exception
    return migration


def test_every_migration_from_0007_on_follows_the_policy():
    flagged = [v for app, first in FIRST.items() for v in migration_violations(app_label=app, first=first)]
    assert flagged == []


NOT_NULL = "NOT NULL column without db_default"
INDEX = "index"


@pytest.mark.parametrize(
    ("operation", "expected"),
    [
        (migrations.AddField("trajectory", "note", models.TextField(null=True)), ""),
        (migrations.AddField("trajectory", "flag", models.BooleanField(db_default=False)), ""),
        (migrations.AddField("trajectory", "flag", models.BooleanField(default=False)), NOT_NULL),
        (migrations.AddField("trajectory", "code", models.CharField(max_length=5, null=True, unique=True)), INDEX),
        (
            migrations.AddField(
                "trajectory", "other", models.ForeignKey("cases.case", null=True, on_delete=models.SET_NULL)
            ),
            INDEX,
        ),
        (migrations.AlterField("trajectory", "final_answer", models.JSONField(default=dict)), "NOT NULL"),
        (migrations.AlterField("trajectory", "error", models.CharField(max_length=100, blank=True)), "type"),
        (migrations.AlterField("trajectory", "error", models.TextField(blank=True, help_text="why")), ""),
        (migrations.AddIndex("step", models.Index(fields=["tool"], name="probe_step_tool")), "AddIndexConcurrently"),
        (migrations.RemoveField("trajectory", "error"), "policy_exception"),
        (migrations.DeleteModel("runtoken"), "policy_exception"),
        (migrations.RenameField("trajectory", "error", "failure"), "renames break the previous code"),
        (migrations.RunSQL("UPDATE benchmark_step SET tool = tool"), "policy_exception"),
        (migrations.SeparateDatabaseAndState(state_operations=[migrations.RemoveField("trajectory", "error")]), ""),
    ],
)
def test_the_policy_flags_what_breaks_the_previous_code(operation, expected):
    violations = check_migration(_probe(operation), _state("runs"))
    if expected:
        assert len(violations) == 1 and expected in violations[0].rule, violations
    else:
        assert violations == []


def test_a_concurrent_index_a_new_table_and_an_announced_drop_pass():
    from django.contrib.postgres.operations import AddIndexConcurrently

    new_table = migrations.CreateModel(
        "Probe",
        [
            ("id", models.BigAutoField(primary_key=True)),
            ("run", models.ForeignKey("runs.evaluationrun", on_delete=models.CASCADE)),
        ],
    )
    assert (
        check_migration(
            _probe(new_table, migrations.AddIndex("probe", models.Index(fields=["run"], name="probe_run"))),
            _state("runs"),
        )
        == []
    )
    concurrent = AddIndexConcurrently("step", models.Index(fields=["tool"], name="probe_step_tool"))
    assert check_migration(_probe(concurrent, atomic=False), _state("runs")) == []
    drop = migrations.SeparateDatabaseAndState(database_operations=[migrations.RemoveField("trajectory", "error")])
    assert check_migration(_probe(drop, policy_exception="unused since release 2027.01"), _state("runs")) == []
    assert len(check_migration(_probe(drop), _state("runs"))) == 1


# --- the previous code against the migrated schema ------------------------------------------------------


def _benchmark_migrations() -> list[str]:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    return sorted(name for app, name in loader.disk_migrations if app == "benchmark")


def _previous_code_states() -> list[str]:
    """Migrations from 0007 on (the ones written under this policy) whose preceding code must still work.

    Code older than the latest migration that carries a policy_exception (a planned drop) is out of scope:
    it is at least two releases old.
    """
    loader = MigrationLoader(None, ignore_no_migrations=True)
    names = [n for n in _benchmark_migrations() if n >= "0007"]
    contracts = [
        i for i, n in enumerate(names) if getattr(loader.get_migration("benchmark", n), "policy_exception", "")
    ]
    return names[contracts[-1] :] if contracts else names


def _sample(field, made: dict):
    if field.is_relation:
        return made[field.related_model._meta.label_lower]
    kind = field.get_internal_type()
    samples = {
        "JSONField": {"probe": True},
        "BooleanField": False,
        "FloatField": 0.5,
        "DateTimeField": timezone.now(),
        "URLField": "https://example.org/v1",
        "EmailField": "probe@example.org",
    }
    if kind in samples:
        return samples[kind]
    if "Integer" in kind:
        return 1
    return "probe"[: field.max_length or 5]


def _required(field) -> bool:
    return (
        field.concrete
        and not field.primary_key
        and not field.null
        and not field.has_default()
        and field.db_default is models.NOT_PROVIDED
        and not getattr(field, "auto_now_add", False)
        and not getattr(field, "auto_now", False)
    )


def _ordered(models_: list) -> list:
    """Models after the models their required foreign keys point at."""
    ordered, left = [], list(models_)
    while left:
        ready = [
            m
            for m in left
            if all(
                f.related_model in ordered or f.related_model is m
                for f in m._meta.concrete_fields
                if f.is_relation and _required(f)
            )
        ]
        assert ready, f"cannot order {left}"
        ordered += ready
        left = [m for m in left if m not in ready]
    return ordered


def _previous_code_workload(apps) -> None:
    """Insert, read, update and delete one row of every benchmark model as the historical code would."""
    user_model = apps.get_model("auth", "User")
    made = {"auth.user": user_model.objects.create(username="ops-previous-code")}
    models_ = _ordered([user_model, *(m for m in apps.get_models() if m._meta.app_label in BENCHMARK_APPS)])
    for model in models_:
        label = model._meta.label_lower
        if label not in made:
            made[label] = model.objects.create(
                **{f.name: _sample(f, made) for f in model._meta.concrete_fields if _required(f)}
            )
        row = model.objects.filter(pk=made[label].pk).values()[0]  # SELECT of every column the code knows
        assert row[model._meta.pk.attname] == made[label].pk
        model.objects.filter(pk=made[label].pk).update(**{model._meta.pk.attname: made[label].pk})
    for model in reversed(models_):
        model.objects.filter(pk=made[model._meta.label_lower].pk).delete()


@pytest.mark.django_db
@pytest.mark.parametrize("migration", _previous_code_states())
def test_the_previous_code_works_against_the_migrated_schema(migration):
    _previous_code_workload(_state("benchmark", before=migration).apps)


# --- live: a migration applied while a worker runs a run ------------------------------------------------


def _expand_migration() -> migrations.Migration:
    """A policy-following migration on the real benchmark tables: two new columns and a concurrent index."""
    from django.contrib.postgres.operations import AddIndexConcurrently

    return _probe(
        migrations.AddField("trajectory", "ops_drill_note", models.TextField(null=True)),
        migrations.AddField("step", "ops_drill_flag", models.BooleanField(db_default=False)),
        AddIndexConcurrently("step", models.Index(fields=["tool", "trajectory"], name="ops_drill_step_tool")),
        atomic=False,
    )


def _apply(migration: migrations.Migration, state, *, forwards: bool) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '10s'")  # never queue the workers behind a blocked ALTER for long
    try:
        with connection.schema_editor(atomic=False) as editor:
            if forwards:
                migration.apply(state.clone(), editor)
            else:
                migration.unapply(state.clone(), editor)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def _columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


def _assert_every_case_ran_once(run, *, total: int, after_migration: int) -> None:
    from benchmark.runs.models import Trajectory

    trajectories = list(run.trajectories.select_related("entry"))
    assert len(trajectories) == total
    assert all(t.status == Trajectory.DONE and t.passed and t.attempts == 1 and not t.error for t in trajectories)
    assert all(t.steps.count() == len(t.entry.snapshot["reference_path"]) for t in trajectories)
    with connection.cursor() as cursor:  # the previous code's INSERTs got the new column's database default
        cursor.execute(
            "SELECT count(*) FILTER (WHERE NOT s.ops_drill_flag), count(*) FROM benchmark_step s "
            "JOIN benchmark_trajectory t ON t.id = s.trajectory_id WHERE t.run_id = %s",
            [run.id],
        )
        defaulted, steps = cursor.fetchone()
    assert defaulted == steps == sum(len(t.entry.snapshot["reference_path"]) for t in trajectories)
    assert after_migration > 0


def test_a_migration_applied_while_a_worker_runs_a_run_loses_nothing(ops_release, django_db_blocker):
    from benchmark.runs.models import EvaluationRun, Trajectory
    from benchmark.runs.services import run_create, run_enqueue
    from tests.processes import celery_broker, child_env, kill_process_group, start_celery_worker, wait_for

    migration, state = _expand_migration(), _state("runs")
    assert check_migration(_probe(*migration.operations, atomic=False), _state("runs")) == []
    redis.Redis.from_url(BROKER).flushdb()
    with django_db_blocker.unblock(), celery_broker(BROKER):
        assert_test_database()
        run = run_create(agent="reference", release=ops_release, config={"trials": 2}, name="ops migration drill")
        total, applied = run.trajectories.count(), False
        worker = start_celery_worker(child_env(REDIS_URL=BROKER), pool="prefork", concurrency=1)
        try:
            run_enqueue(run=run)
            wait_for(lambda: run.trajectories.filter(status=Trajectory.DONE).count() >= 3, 180, "the first cases")
            _apply(migration, state, forwards=True)
            applied = True
            done_at_migration = run.trajectories.filter(status=Trajectory.DONE).count()
            assert done_at_migration < total, "the run finished before the migration; the drill proves nothing"
            assert {"ops_drill_note"} <= _columns("benchmark_trajectory")
            wait_for(
                lambda: EvaluationRun.objects.get(id=run.id).status == EvaluationRun.COMPLETED,
                300,
                "the run to complete on the migrated schema",
            )
            _assert_every_case_ran_once(
                run, total=2 * ops_release.entries.count(), after_migration=total - done_at_migration
            )
        finally:
            kill_process_group(worker)
            try:
                if applied:
                    _apply(migration, state, forwards=False)
            finally:
                run.delete()
        assert "ops_drill_note" not in _columns("benchmark_trajectory")
        assert "ops_drill_flag" not in _columns("benchmark_step")
