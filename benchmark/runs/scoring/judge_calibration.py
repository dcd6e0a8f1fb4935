"""Judge calibration against curators' human scores (appendix B.2)."""

from __future__ import annotations

from benchmark.cases.selectors import case_document
from benchmark.runs.models import HumanScore
from judging.judges import CalibrationPair, JudgeConfig, calibration_stats, judge_score, recommend_ensemble
from judging.types import Trajectory

from .services import case_spec

ROLE_OF_METRIC = {"SC": "semantic_constraint", "RP": "reasoning_purity"}


def judges_calibrate(*, judges: list[JudgeConfig], metric: str, cache=None, k: int = 3) -> dict:
    """Score every human-scored answer of ``metric`` with each judge; agreement and the recommended ensemble.

    Returns {"metric", "pairs", "failures", "stats": {judge: JudgeAgreement}, "recommended": [names]}.
    """
    if metric not in ROLE_OF_METRIC:
        raise ValueError(f"metric must be one of {', '.join(ROLE_OF_METRIC)}, got {metric!r}")
    pairs, failures = [], []
    for human in HumanScore.objects.filter(metric=metric).select_related("case").order_by("id"):
        document = case_document(human.case)
        trajectory = Trajectory.model_validate(human.trajectory) if human.trajectory else None
        for judge in judges:
            verdict = judge_score(
                ROLE_OF_METRIC[metric],
                judge,
                case_spec(document),
                human.answer,
                trajectory,
                cache=cache,
                tools_city=document.city_name,
            )
            if verdict.score is None:
                failures.append({"judge": judge.name, "case_id": document.case_id, "failure": verdict.failure})
            else:
                pairs.append(CalibrationPair(judge.name, document.category, human.score, verdict.score))
    stats = calibration_stats(pairs)
    return {
        "metric": metric,
        "pairs": len(pairs),
        "failures": failures,
        "stats": stats,
        "recommended": recommend_ensemble(stats, k=k),
    }


def calibration_report(result: dict) -> str:
    lines = [
        f"Judge agreement with human {result['metric']} scores ({result['pairs']} pairs)",
        f"{'judge':<24} {'category':<18} {'n':>4} {'MAE':>7} {'Pearson r':>10}",
    ]
    for judge, agreement in result["stats"].items():
        rows = [("overall", agreement.overall), *agreement.by_category.items()]
        for category, a in rows:
            mae = f"{a.mae:.3f}" if a.mae is not None else "-"
            r = f"{a.pearson:.3f}" if a.pearson is not None else "-"
            lines.append(f"{judge:<24} {category:<18} {a.n:>4} {mae:>7} {r:>10}")
    for failure in result["failures"]:
        lines.append(f"failed: {failure['judge']} on {failure['case_id']}: {failure['failure']}")
    lines.append("Recommended ensemble: " + (", ".join(result["recommended"]) or "none (no scored pairs)"))
    return "\n".join(lines)
