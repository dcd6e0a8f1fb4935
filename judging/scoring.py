"""Score one case: every applicable metric of the matrix, plus the per-case pass verdict."""
from __future__ import annotations

from typing import Any

from judging.answers import ResolveName, normalise_answer
from judging.metrics import World, applies, get_metric, pass_verdict, registered_metrics
from judging.metrics.applicability import all_result_names, applicable_metrics
from judging.metrics.passing import DEFAULT_ALPHA
from judging.types import CaseSpec, MetricResult, Trajectory


def score_case(
    case: CaseSpec,
    answer: Any,
    trajectory: Trajectory | None,
    *,
    world: World,
    resolve_name: ResolveName | None,
    extra: dict[str, MetricResult] | None = None,
    alpha: float = DEFAULT_ALPHA,
) -> dict[str, MetricResult]:
    """Run every metric that applies to the case's cell and decide whether the case passes.

    Args:
        case: the case being scored.
        answer: what the agent passed to submit_answer (None when it never submitted).
        trajectory: the agent's tool calls, or None when there is none.
        world: place facts and distances for Attribute Accuracy.
        resolve_name: maps a place name to its place_id, for answers that name places only.
        extra: results computed elsewhere (the judges' SC and RP); they must not shadow a registered metric.
        alpha: the Pass Rate threshold for SC.

    Returns:
        A result for every metric name of the applicability matrix (value None where it does not
        apply, or where a judge metric applies but was not given), and ``pass_rate``.

    Raises:
        ValueError: when ``extra`` names a registered metric or one outside the matrix.
    """
    extra = dict(extra or {})
    clash = sorted(set(extra) & {spec.name for spec in registered_metrics()})
    if clash:
        raise ValueError(f"extra results may not replace registered metrics: {', '.join(clash)}")
    unknown = sorted(set(extra) - set(all_result_names()))
    if unknown:
        raise ValueError(f"extra results must be metrics of the applicability matrix, not {', '.join(unknown)}")
    predicted = normalise_answer(answer, resolve_name=resolve_name)
    results: dict[str, MetricResult] = {}
    for name in all_result_names():
        results[name] = _one(name, case, predicted, trajectory, world, extra)
    verdict = pass_verdict(results, alpha, applicable=applicable_metrics(case.category, case.level))
    details = {**verdict.details, "answer_problems": list(predicted.problems)}
    results["pass_rate"] = MetricResult(verdict.name, verdict.value, verdict.explanation, details, verdict.source)
    return results


def _one(name: str, case: CaseSpec, predicted, trajectory, world, extra: dict[str, MetricResult]) -> MetricResult:
    cell = f"{case.category} {case.level}"
    if not applies(name, case.category, case.level):
        ignored = " (a result was given and ignored)" if name in extra else ""
        return MetricResult(name, None, f"{name} does not apply to {cell}{ignored}")
    if name in extra:
        return extra[name]
    try:
        spec = get_metric(name)
    except KeyError:
        return MetricResult(name, None, f"{name} applies to {cell} but no result was given",
                            {"applicable": True, "scored": False})
    return spec.func(case, predicted, trajectory, world=world)
