"""Cancel and resume a run; the evaluate command's summary; self-driven runs are never queued."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from benchmark.runs.driver import run_summary, run_sync
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.runs.services import run_cancel, run_create, run_enqueue, run_resume


def test_cancel_then_resume_completes_every_case_once(eval_release, django_db_blocker):
    with django_db_blocker.unblock():
        run = run_create(agent="reference", release=eval_release, limit=6, name="cancel drill")
        try:
            assert run_cancel(run=run) == 6
            run.refresh_from_db()
            assert run.status == EvaluationRun.CANCELLED
            assert set(run.trajectories.values_list("status", flat=True)) == {Trajectory.CANCELLED}
            run_resume(run=run)
            run.refresh_from_db()
            assert run.status == EvaluationRun.RUNNING
            run_sync(run=run, concurrency=2, progress=None)
            run.refresh_from_db()
            assert run.status == EvaluationRun.COMPLETED and run.trajectories.filter(passed=True).count() == 6
            summary = run_summary(run=run)
            assert "overall" in summary and "100.0%" in summary
        finally:
            run.delete()


def test_external_runs_are_never_sent_to_workers(eval_release, django_db_blocker):
    with django_db_blocker.unblock():
        run = run_create(agent="external", release=eval_release, limit=1)
        try:
            with pytest.raises(ValueError, match="drives itself"):
                run_enqueue(run=run)
        finally:
            run.delete()


def test_evaluate_explains_bad_requests(eval_release, django_db_blocker):
    with django_db_blocker.unblock():
        for args, message in (
            (["--agent", "nobody", "--sync"], "unknown agent 'nobody'"),
            (["--agent", "reference", "--model", "x/y"], "either --agent"),
            (["--resume", "999999"], "no run 999999"),
            (["--model", "openai/x", "--api-key-env", "NO_SUCH_VAR_XYZ"], "is not set"),
        ):
            with pytest.raises(CommandError, match=message):
                call_command("evaluate", *args, "--release", eval_release.name, "--no-progress", stdout=io.StringIO())


def test_a_stratified_sample_is_partial_until_complete_adds_the_rest(eval_release, django_db_blocker):
    from benchmark.runs.services import run_complete

    with django_db_blocker.unblock():
        run = run_create(agent="reference", release=eval_release, per_cell=1, name="sample drill")
        try:
            cells = list(run.trajectories.values_list("entry__case__category", "entry__case__level"))
            assert len(cells) == len(set(cells)) == 11 and run.config["per_cell"] == 1
            run_sync(run=run, concurrency=2, progress=None)
            run.refresh_from_db()
            assert run.status == EvaluationRun.COMPLETED
            out = io.StringIO()
            call_command("evaluate", "--complete", str(run.id), "--sync", "--no-progress", stdout=out)
            run.refresh_from_db()
            assert "11 cases added" in out.getvalue() and "per_cell" not in run.config
            assert run.status == EvaluationRun.COMPLETED and run.trajectories.filter(passed=True).count() == 22
            assert run_complete(run=run) == 0  # whole: nothing more to add
        finally:
            run.delete()


def test_per_cell_must_be_a_whole_number_of_cases(eval_release, django_db_blocker):
    with django_db_blocker.unblock(), pytest.raises(ValueError, match="per_cell must be a whole number"):
        run_create(agent="reference", release=eval_release, per_cell=0)
