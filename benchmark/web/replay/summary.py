"""Why a replayed case failed, in one block above the map: reasons, first failing step, answer vs gold.

``failure_summary`` is read-only and pure over what ``replay_payload`` already loaded (no query):

- **reasons**: ``failures.failure_reasons`` over the stored scores, as the run page lists them.
- **first failing step**: the first tool call that returned an error (its observation is an error;
  ``truncated`` and ``empty_result`` also label calls that worked, and those do not count). A
  trajectory can go wrong without an error; then there is no such step, and the summary says so
  rather than guessing.
- **gold never seen** (curators only): reference places that no observation of any step held,
  so the agent could not have picked them from what it saw.
- **diff** (curators only): the reference's places against the answer's, by name and place_id:
  ``missing`` (in the reference, not in the answer), ``extra`` (in the answer, not in the reference),
  ``matched``; and, for a direct value, both values when they differ (``wrong_value``).

On a hidden release a viewer who may not see answers gets only the reasons and the first failing
step's index, tool and error kind (``answers_visible`` false): no place, value or name of either answer.
"""

from __future__ import annotations

from typing import Any

from benchmark.runs.models import Trajectory
from benchmark.web.failures import REASON_LABELS, REASONS, failure_reasons
from benchmark.web.replay.steps import Places, mentioned_place_ids, parsed
from judging.answers import PredictedAnswer

_RULES = {r.code: r.rule for r in REASONS}


def failure_summary(
    *,
    trajectory,
    category: str,
    steps: list,
    observations: list | None = None,
    answer: PredictedAnswer | None = None,
    reference: PredictedAnswer | None = None,
    places: Places | None = None,
) -> dict | None:
    """The failure summary of a finished trajectory that did not pass; None when it passed or still runs.

    Args:
        trajectory: the trajectory row (ended, passed, status, scores).
        category: the case's category (from the frozen snapshot).
        steps: its steps in order.
        observations: the steps' parsed observations; None when the viewer may not see answers.
        answer: the agent's answer, read as the metrics read it; None when withheld.
        reference: the reference answer, read the same way; None when withheld.
        places: the places of the city the trajectory mentions (for names).
    """
    if trajectory.status != Trajectory.DONE or trajectory.passed is True:
        return None
    codes = failure_reasons(
        ended=trajectory.ended, passed=trajectory.passed, category=category, scores=trajectory.scores or {}
    )
    summary: dict[str, Any] = {
        "reasons": [
            {"code": c, "label": REASON_LABELS.get(c, c), "rule": _RULES.get(c, "no rule names why")} for c in codes
        ],
        "first_failing_step": _first_failing_step(steps),
        "answers_visible": False,
    }
    if answer is None or reference is None or observations is None:
        return summary
    places = places or Places()
    # submit_answer echoes the answer back: what it "observed" is not something the agent found
    seen = {pid for s, o in zip(steps, observations) if s.tool != "submit_answer" for pid in mentioned_place_ids(o)}
    return {
        **summary,
        "answers_visible": True,
        "diff": answer_diff(answer=answer, reference=reference, places=places),
        "gold_never_seen": [_named(pid, places) for pid in reference.place_ids if pid not in seen],
    }


def answer_diff(*, answer: PredictedAnswer, reference: PredictedAnswer, places: Places) -> dict:
    """The reference's places against the answer's, each as {place_id, name}, in the reference's order."""
    ours, gold = answer.place_ids, reference.place_ids
    wrong_value = None
    if reference.has_value and (not answer.has_value or answer.value != reference.value):
        wrong_value = {"answer": answer.value if answer.has_value else None, "reference": reference.value}
    return {
        "missing": [_named(pid, places) for pid in gold if pid not in ours],
        "extra": [_named(pid, places) for pid in ours if pid not in gold],
        "matched": [_named(pid, places) for pid in gold if pid in ours],
        "wrong_value": wrong_value,
    }


def _first_failing_step(steps: list) -> dict | None:
    """The first call whose observation is an error; truncated and empty results of a call that worked don't count."""
    for position, step in enumerate(steps):
        observation = parsed(step.observation)
        if isinstance(observation, dict) and "error" in observation:
            return {"position": position, "number": position + 1, "tool": step.tool, "error_kind": step.error_kind}
    return None


def _named(place_id: str, places: Places) -> dict:
    point = places.get(place_id)
    return {"place_id": place_id, "name": point.name if point else "", "on_map": point is not None}
