"""Retention of recorded model responses: old bodies are cleared, metadata and scores stay, replay is refused."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from benchmark.operations.retention import model_calls_prune
from benchmark.runs.models import EvaluationRun, ModelCall
from benchmark.runs.recording import PRUNED_MARK

pytestmark = pytest.mark.django_db


def _finished_days_ago(run, days: int) -> None:
    EvaluationRun.objects.filter(id=run.id).update(finished_at=timezone.now() - timedelta(days=days))


def _calls(run) -> list[tuple]:
    return list(
        ModelCall.objects.filter(trajectory__run=run)
        .order_by("id")
        .values_list("id", "sequence", "latency_ms", "attempts", "error", "request", "response")
    )


def test_only_runs_finished_before_the_cutoff_are_pruned_and_only_their_bodies(endpoint_run):
    before = _calls(endpoint_run)
    assert all(request and response for *_, request, response in before)
    scores = list(endpoint_run.trajectories.order_by("id").values_list("scores", "passed", "final_answer"))
    _finished_days_ago(endpoint_run, 10)
    assert model_calls_prune(older_than_days=30).runs == [] and _calls(endpoint_run) == before

    _finished_days_ago(endpoint_run, 40)
    report = model_calls_prune(older_than_days=30)

    assert [r["run"] for r in report.runs] == [endpoint_run.id] and report.calls == len(before) > 0
    after = _calls(endpoint_run)
    assert [row[:5] for row in after] == [row[:5] for row in before]  # sequence, latency, attempts, error kept
    assert all(request == {} and response is None for *_, request, response in after)
    assert list(endpoint_run.trajectories.order_by("id").values_list("scores", "passed", "final_answer")) == scores
    endpoint_run.refresh_from_db()
    assert endpoint_run.config[PRUNED_MARK]
    assert model_calls_prune(older_than_days=30).runs == []  # nothing left to prune


def test_a_finished_run_without_a_finish_time_is_pruned_by_its_creation_time(endpoint_run):
    before = _calls(endpoint_run)
    EvaluationRun.objects.filter(id=endpoint_run.id).update(
        finished_at=None, created_at=timezone.now() - timedelta(days=40)
    )

    report = model_calls_prune(older_than_days=30)

    assert report.runs[0]["run"] == endpoint_run.id and report.runs[0]["finished_at"] is None
    assert report.calls == len(before) > 0


def test_a_dry_run_reports_calls_and_bytes_and_changes_nothing(endpoint_run):
    before = _calls(endpoint_run)
    _finished_days_ago(endpoint_run, 100)
    out = io.StringIO()
    call_command("prune_model_calls", "--older-than", "90", "--dry-run", stdout=out)
    report = model_calls_prune(older_than_days=90, dry_run=True)
    assert report.calls == len(before) and report.bytes > 1000
    assert f"Would clear {len(before)} model calls of 1 runs" in out.getvalue()
    endpoint_run.refresh_from_db()
    assert _calls(endpoint_run) == before and PRUNED_MARK not in endpoint_run.config


def test_a_pruned_run_cannot_be_replayed(endpoint_run):
    _finished_days_ago(endpoint_run, 100)
    call_command("prune_model_calls", "--older-than", "90", stdout=io.StringIO())
    runs = EvaluationRun.objects.count()
    with pytest.raises(
        CommandError, match=f"run {endpoint_run.id} cannot be replayed: its recorded model responses were pruned on 20"
    ):
        call_command("evaluate", "--replay", str(endpoint_run.id), "--sync", "--no-progress")
    assert EvaluationRun.objects.count() == runs


def test_runs_still_running_or_being_replayed_keep_their_recording(endpoint_run):
    from benchmark.runs.services import run_create

    before = _calls(endpoint_run)
    _finished_days_ago(endpoint_run, 100)
    replay = run_create(
        agent=endpoint_run.agent,
        release=endpoint_run.release,
        endpoint=endpoint_run.endpoint,
        config={"trials": 1},
        limit=3,
        replay_of=endpoint_run,
    )
    assert model_calls_prune(older_than_days=90).runs == [] and _calls(endpoint_run) == before
    replay.delete()
    EvaluationRun.objects.filter(id=endpoint_run.id).update(status=EvaluationRun.RUNNING)
    assert model_calls_prune(older_than_days=90).runs == [] and _calls(endpoint_run) == before


def test_the_setting_is_the_default_and_zero_keeps_recordings_forever(endpoint_run, settings):
    from benchmark.operations.tasks import model_calls_prune_task

    before = _calls(endpoint_run)
    _finished_days_ago(endpoint_run, 10_000)
    settings.MODEL_CALL_RETENTION_DAYS = 0
    assert model_calls_prune_task() == {"runs": 0, "calls": 0, "bytes": 0} and _calls(endpoint_run) == before
    out = io.StringIO()
    call_command("prune_model_calls", stdout=out)
    assert "keep forever" in out.getvalue()

    settings.MODEL_CALL_RETENTION_DAYS = 30
    result = model_calls_prune_task()
    assert result["runs"] == 1 and result["calls"] == len(before) and result["bytes"] > 1000


@pytest.mark.parametrize("days", [-1, "30", True])
def test_a_bad_number_of_days_is_refused_with_what_is_allowed(days):
    with pytest.raises(ValueError, match=r"must be a whole number of days, 0 or more \(0 keeps recordings forever\)"):
        model_calls_prune(older_than_days=days)


def test_the_command_refuses_a_negative_age():
    with pytest.raises(CommandError, match="--older-than must be a whole number of days"):
        call_command("prune_model_calls", "--older-than", "-5")
