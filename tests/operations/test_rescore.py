"""Re-scoring a finished run: exactly what changed is recorded, the aggregates follow, nothing else moves."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from benchmark.operations.models import RunRescore
from benchmark.operations.rescore import run_rescore, scoring_versions
from benchmark.runs.aggregates import run_aggregates
from benchmark.runs.models import EvaluationRun, Trajectory

pytestmark = pytest.mark.django_db


def _passing(run) -> Trajectory:
    """A passing trajectory whose case is scored on Answer Accuracy."""
    for t in run.trajectories.filter(passed=True).order_by("id"):
        if t.scores.get("A", {}).get("value") == 1.0:
            return t
    raise AssertionError("the run has no passing trajectory scored on A")


def _as_if_an_older_metric_scored(run, trajectory: Trajectory) -> dict:
    """Store the scores an older, stricter A metric would have given: A 0.5, failed; aggregates to match."""
    scores = {
        **trajectory.scores,
        "A": {**trajectory.scores["A"], "value": 0.5},
        "pass_rate": {**trajectory.scores["pass_rate"], "value": 0.0},
    }
    Trajectory.objects.filter(id=trajectory.id).update(scores=scores, passed=False)
    EvaluationRun.objects.filter(id=run.id).update(aggregates=run_aggregates(run=run))
    run.refresh_from_db()
    return run.aggregates


def test_a_rescore_records_exactly_the_changed_score_and_recomputes_the_aggregates(heuristic_run):
    run = heuristic_run
    true_aggregates = run.aggregates
    changed = _passing(run)
    old_aggregates = _as_if_an_older_metric_scored(run, changed)
    assert old_aggregates["table2"]["overall"]["value"] < true_aggregates["table2"]["overall"]["value"]

    record = run_rescore(run=run, reason="A: accept the place name as well as its id")

    assert record.pk and record.n_trajectories == 22
    assert (record.n_pass_changed, record.n_metric_changed) == (1, 1)
    assert record.changes == [
        {
            "trajectory": changed.id,
            "case_id": changed.entry.case.case_id,
            "trial": 0,
            "metrics": {"A": [0.5, 1.0], "pass_rate": [0.0, 1.0]},
            "passed": [False, True],
        }
    ]
    assert record.aggregates_before == old_aggregates and record.aggregates_after == true_aggregates
    run.refresh_from_db()
    changed.refresh_from_db()
    assert run.aggregates == true_aggregates and changed.passed is True and changed.scores["A"]["value"] == 1.0
    assert record.versions["scoring_code_sha256"] == scoring_versions()["scoring_code_sha256"]
    assert record.versions["prompt_versions"]["semantic_constraint"] == "semantic_constraint.v1"


def test_a_rescore_with_unchanged_code_changes_nothing(heuristic_run):
    run = heuristic_run
    before = {t.id: (t.scores, t.passed) for t in run.trajectories.all()}
    assert {p for _, p in before.values()} == {True, False}, "the heuristic run should pass some cases and fail some"

    record = run_rescore(run=run, reason="determinism check")

    assert (record.n_trajectories, record.n_pass_changed, record.n_metric_changed) == (22, 0, 0)
    assert record.changes == [] and record.aggregates_after == record.aggregates_before == run.aggregates
    assert {t.id: (t.scores, t.passed) for t in run.trajectories.all()} == before


def test_a_dry_run_reports_the_change_and_writes_nothing(heuristic_run):
    run = heuristic_run
    changed = _passing(run)
    old_aggregates = _as_if_an_older_metric_scored(run, changed)

    record = run_rescore(run=run, reason="what would change", dry_run=True)

    assert record.pk is None and record.n_pass_changed == 1 and record.changes[0]["trajectory"] == changed.id
    assert record.aggregates_after["table2"]["overall"]["value"] > old_aggregates["table2"]["overall"]["value"]
    changed.refresh_from_db()
    run.refresh_from_db()
    assert changed.passed is False and run.aggregates == old_aggregates and not RunRescore.objects.exists()


def test_a_rescore_limited_to_some_metrics_keeps_the_others_and_the_verdict(heuristic_run):
    run = heuristic_run
    changed = _passing(run)
    _as_if_an_older_metric_scored(run, changed)

    record = run_rescore(run=run, reason="A only", metrics="A")

    changed.refresh_from_db()
    assert record.metrics == ["A"] and record.changes[0]["metrics"] == {"A": [0.5, 1.0]}
    assert record.n_pass_changed == 0 and changed.passed is False and changed.scores["pass_rate"]["value"] == 0.0


@pytest.mark.parametrize(
    ("status", "reason", "metrics", "message"),
    [
        (EvaluationRun.RUNNING, "fix", None, "is running; re-score it once it has finished"),
        (EvaluationRun.COMPLETED, "  ", None, "a reason is required"),
        (EvaluationRun.COMPLETED, "fix", ["A", "Accuracy"], "unknown metric.*Accuracy.*allowed: .*pass_rate"),
    ],
)
def test_a_rescore_explains_what_it_refuses(heuristic_run, status, reason, metrics, message):
    EvaluationRun.objects.filter(id=heuristic_run.id).update(status=status)
    heuristic_run.refresh_from_db()
    with pytest.raises(ValueError, match=message):
        run_rescore(run=heuristic_run, reason=reason, metrics=metrics)
    assert not RunRescore.objects.exists()


def test_the_command_and_the_task_rescore_and_report(heuristic_run):
    from benchmark.operations.tasks import run_rescore_task

    changed = _passing(heuristic_run)
    _as_if_an_older_metric_scored(heuristic_run, changed)
    out = io.StringIO()
    call_command("rescore_run", str(heuristic_run.id), "--reason", "A fix", "--dry-run", stdout=out)
    assert "would change: 1 pass verdicts, 1 with a metric value" in out.getvalue()
    assert f'{changed.entry.case.case_id}#0: {{"passed": [false, true]' in out.getvalue()
    assert not RunRescore.objects.exists()

    assert run_rescore_task(heuristic_run.id, "A fix") == {
        "rescore": RunRescore.objects.get().id,
        "trajectories": 22,
        "pass_changed": 1,
        "metric_changed": 1,
    }
    with pytest.raises(CommandError, match="no run 999999"):
        call_command("rescore_run", "999999", "--reason", "x")


def test_rescores_are_read_only_in_the_admin_and_escape_the_reason(heuristic_run, client):
    from django.contrib.auth.models import User

    record = run_rescore(run=heuristic_run, reason="<script>alert(1)</script> judge v2")
    client.force_login(User.objects.create_superuser("ops-admin", password="pw"))
    page = client.get(f"/admin/operations/runrescore/{record.id}/change/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt; judge v2" in page and "<script>alert(1)" not in page
    assert client.get("/admin/operations/runrescore/add/").status_code == 403
    assert client.post(f"/admin/operations/runrescore/{record.id}/delete/", {"post": "yes"}).status_code == 403
    assert RunRescore.objects.filter(id=record.id).exists()


def test_the_scoring_code_version_covers_every_judging_and_scoring_file():
    from benchmark.operations.rescore import REPO, _scoring_files

    covered = {path.relative_to(REPO).as_posix() for path in _scoring_files()}
    expected = {
        path.relative_to(REPO).as_posix()
        for folder in ("judging", "benchmark/runs/scoring")
        for path in (REPO / folder).rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert len(expected) > 30 and expected <= covered and "benchmark/runs/aggregates.py" in covered
