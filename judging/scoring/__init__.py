"""Score one case: every applicable metric of the matrix, plus the per-case pass verdict.

``score_answer`` is the one entry point every path uses (runs, replays, re-scores, ``score``,
uploaded runs): it reads the answer once, scores every registered metric that applies (a
judge metric, SC or RP, from the judges when they are configured and score, else from its
rule check) and adds the 'fetched before cited' flags. It keeps no state between calls; the
world it is given must be safe to share between threads
(``benchmark.runs.scoring.world.CityWorld`` is).

It is a folder of its own because it stands above the metrics and the judges it calls, which
import only the modules beside this folder (no cycle between folders, tests/test_architecture.py).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from judging.answers import PredictedAnswer, ResolveName, normalise_answer
from judging.grounding import fetched_before_cited
from judging.judges import JudgePanel
from judging.metrics import ConstraintWorld, MetricSpec, applies, get_metric, pass_verdict, registered_metrics
from judging.metrics.applicability import all_result_names, applicable_metrics
from judging.metrics.passing import DEFAULT_ALPHA
from judging.types import CaseSpec, MetricResult, Trajectory


def score_answer(
    case: CaseSpec,
    answer: Any,
    trajectory: Trajectory | None,
    *,
    world: ConstraintWorld,
    resolve_name: ResolveName | None,
    judges: list | None = None,
    cache=None,
    tools_city: str | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> dict[str, MetricResult]:
    """Every metric of the case's cell, the pass verdict, and the 'fetched before cited' flags (``grounding``).

    SC and RP come from the judge ensemble (``judges``, a list of JudgeConfig) when at least one
    judge scores; otherwise from the rule checks (SC) and the grounding check (RP). Each result's
    ``source`` says which; a fallback after every judge failed keeps the judges' failures in its
    details. An answer that cannot be read (too deep, too large, a non-finite number) is scored as
    invalid: every outcome metric 0 with the reason, never an exception.
    """
    predicted = normalise_answer(answer, resolve_name=resolve_name)
    panel = JudgePanel(judges, cache=cache, tools_city=tools_city) if judges else None
    results = score_case(
        case, answer, trajectory, world=world, resolve_name=resolve_name, judges=panel, alpha=alpha, predicted=predicted
    )
    flags, checked = fetched_before_cited(predicted, trajectory)
    results["grounding"] = MetricResult(
        "grounding",
        None,
        f"{len(flags)} of {checked} cited items were never fetched"
        if flags
        else f"all {checked} cited items were fetched before being cited",
        {"flags": flags, "checked": checked, "problems": list(predicted.problems)},
        source="grounding",
    )
    return results


def score_case(
    case: CaseSpec,
    answer: Any,
    trajectory: Trajectory | None,
    *,
    world: ConstraintWorld,
    resolve_name: ResolveName | None,
    judges: JudgePanel | None = None,
    extra: dict[str, MetricResult] | None = None,
    alpha: float = DEFAULT_ALPHA,
    predicted: PredictedAnswer | None = None,
) -> dict[str, MetricResult]:
    """Run every registered metric that applies to the case's cell and decide whether the case passes.

    Args:
        case: the case being scored.
        answer: what the agent passed to submit_answer (None when it never submitted).
        trajectory: the agent's tool calls, or None when there is none.
        world: place facts, distances and legs for the rule checks.
        resolve_name: maps a place name to its place_id, for answers that name places only.
        judges: the judges of the judge metrics (SC, RP); without them, or for an answer that
            cannot be read, a judge metric comes from its rule check.
        extra: results of judge metrics made elsewhere; they stand in for judging them.
        alpha: the Pass Rate threshold for SC.
        predicted: the answer already read by ``normalise_answer`` (``score_answer`` reads it once).

    Returns:
        A result for every metric name of the applicability matrix (value None where it does not
        apply), and ``pass_rate``.

    Raises:
        ValueError: when ``extra`` names a rule metric or one outside the matrix.
    """
    extra = dict(extra or {})
    clash = sorted(set(extra) & {spec.name for spec in registered_metrics() if spec.judge is None})
    if clash:
        raise ValueError(f"extra results may not replace rule metrics: {', '.join(clash)}")
    unknown = sorted(set(extra) - set(all_result_names()))
    if unknown:
        raise ValueError(f"extra results must be metrics of the applicability matrix, not {', '.join(unknown)}")
    predicted = predicted if predicted is not None else normalise_answer(answer, resolve_name=resolve_name)
    results: dict[str, MetricResult] = {}
    for name in all_result_names():
        results[name] = _one(name, case, answer, predicted, trajectory, world, judges, extra)
    verdict = pass_verdict(results, alpha, applicable=applicable_metrics(case.category, case.level))
    details = {**verdict.details, "answer_problems": list(predicted.problems)}
    results["pass_rate"] = MetricResult(verdict.name, verdict.value, verdict.explanation, details, verdict.source)
    return results


def _one(
    name: str,
    case: CaseSpec,
    answer: Any,
    predicted: PredictedAnswer,
    trajectory: Trajectory | None,
    world: ConstraintWorld,
    judges: JudgePanel | None,
    extra: dict[str, MetricResult],
) -> MetricResult:
    if not applies(name, case.category, case.level):
        ignored = " (a result was given and ignored)" if name in extra else ""
        return MetricResult(name, None, f"{name} does not apply to {case.category} {case.level}{ignored}")
    if name in extra:
        return extra[name]
    spec = get_metric(name)
    if spec.judge is None or judges is None or predicted.invalid:
        return spec.func(case, predicted, trajectory, world=world)
    return _judged(spec, judges, case, answer, predicted, trajectory, world)


def _judged(
    spec: MetricSpec,
    judges: JudgePanel,
    case: CaseSpec,
    answer: Any,
    predicted: PredictedAnswer,
    trajectory: Trajectory | None,
    world: ConstraintWorld,
) -> MetricResult:
    """A judge metric from the judges; from its rule check, with the judges' failures, when none scored."""
    assert spec.judge is not None  # called for judge metrics only
    judged = judges.score(spec.judge, case, answer, trajectory)
    if judged.value is not None:
        return judged
    rule = spec.func(case, predicted, trajectory, world=world)
    return replace(
        rule,
        explanation=f"{rule.explanation} (judges failed: {judged.explanation})",
        details={**rule.details, "judges": judged.details},
    )
