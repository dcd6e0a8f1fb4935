"""A run's failed cases as a document for the downloads: the run page's list, with more of each case.

The rows are the run page's failed cases (``report.failed_cases``, the same filters), each with
its reasons, the first failing step (the first call whose observation is an error, as the replay's
"Why it failed" block finds it) and its replay URL. ``final_answer`` and ``explanations`` (each
metric below 1 with its explanation, which quotes the reference) are filled only for a viewer who may
see the release's answers (``benchmark.board.visibility.can_see_answers``); for anyone else on a
hidden release they are null and ``answers_visible`` is false.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import CharField, F, Func, Q

from benchmark.board.visibility import can_see_answers
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from benchmark.web.files import csv_text
from benchmark.web.replay.steps import parsed
from benchmark.web.runs import report


def failures_document(
    *, run: EvaluationRun, user, filters: report.FailureFilters, replay_url: Callable[[int], str]
) -> dict:
    """``{"run", "run_name", "release", "answers_visible", "filters", "failures": [...]}`` for ``user``."""
    failed = report.failed_cases(report.run_cases(run=run), filters=filters)
    ids = [case["id"] for case in failed]
    full = can_see_answers(user=user, release=run.release)
    steps = _first_failing_steps(ids)
    private = _answers(ids) if full else {}
    return {
        "run": run.id,
        "run_name": run.name,
        "release": run.release.name,
        "answers_visible": full,
        "filters": {k: v for k, v in vars(filters).items() if v},
        "failures": [
            {
                "trajectory_id": case["id"],
                "case_id": case["case_id"],
                "category": case["category"],
                "level": case["level"],
                "trial": case["trial"],
                "ended": case["ended"],
                "reasons": case["reasons"],
                "reason_labels": case["reason_labels"],
                "first_failing_step": steps.get(case["id"]),
                "replay_url": replay_url(case["id"]),
                **private.get(case["id"], {"final_answer": None, "explanations": None}),
            }
            for case in failed
        ],
    }


def _first_failing_steps(ids: list[int]) -> dict[int, dict]:
    """Per trajectory, its first step whose observation is an error: {number (1-based), tool, error_kind}.

    One query over the candidates: observations that are an object with an "error" key, and those some
    recorders stored as JSON text (parsed here, as the replay parses them).
    """
    kind = Func(F("observation"), function="jsonb_typeof", output_field=CharField())
    steps = (
        Step.objects.filter(trajectory_id__in=ids)
        .annotate(kind=kind)
        .filter(Q(observation__has_key="error") | Q(kind="string"))
        .order_by("trajectory_id", "index")
        .values_list("trajectory_id", "index", "tool", "error_kind", "observation")
    )
    out: dict[int, dict] = {}
    for trajectory_id, index, tool, error_kind, observation in steps:
        observation = parsed(observation)
        if trajectory_id not in out and isinstance(observation, dict) and "error" in observation:
            out[trajectory_id] = {"number": index + 1, "tool": tool, "error_kind": error_kind}
    return out


def _answers(ids: list[int]) -> dict[int, dict]:
    rows = Trajectory.objects.filter(id__in=ids).values_list("id", "final_answer", "scores")
    return {i: {"final_answer": answer, "explanations": _explanations(scores)} for i, answer, scores in rows}


def _explanations(scores: Any) -> dict[str, str]:
    """Each metric that scored below 1 (and a scoring error) with its explanation."""
    out = {}
    for name, result in (scores or {}).items() if isinstance(scores, dict) else ():
        if not isinstance(result, dict) or not result.get("explanation"):
            continue
        value = result.get("value")
        if name == "error" or (isinstance(value, int | float) and value < 1):
            out[name] = str(result["explanation"])
    return out


FAILURE_COLUMNS = (
    "trajectory_id",
    "case_id",
    "category",
    "level",
    "trial",
    "ended",
    "reasons",
    "reason_labels",
    "first_failing_step",
    "first_failing_tool",
    "first_failing_error_kind",
    "replay_url",
    "final_answer",
    "explanations",
)


def failures_csv(document: dict) -> str:
    """The failed cases of a ``failures_document`` as CSV (lists joined with '; ', objects as JSON)."""
    return csv_text(FAILURE_COLUMNS, (_failure_line(row) for row in document["failures"]))


def _failure_line(row: dict) -> list:
    step = row["first_failing_step"] or {}
    values = {
        **row,
        "reasons": "; ".join(row["reasons"]),
        "reason_labels": "; ".join(row["reason_labels"]),
        "first_failing_step": step.get("number"),
        "first_failing_tool": step.get("tool"),
        "first_failing_error_kind": step.get("error_kind"),
    }
    return [values[column] for column in FAILURE_COLUMNS]
