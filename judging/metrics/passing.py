"""The per-case pass rule behind Pass Rate (PR@alpha).

The paper: a case passes when its SC exceeds alpha and all other calculable outcome metrics
are 1. Process metrics (IG, TE, RP, tokens) do not count. A metric that applies but gave None
(e.g. PIoU for a reference without places) is not calculable and is skipped; a metric that
applies but is absent from the results, or an SC of None, is missing: the verdict is then
undecided (None) unless something already failed. An SC marked ``calculable: False`` (the
case has no machine-checkable constraint and no judge scored it) is skipped like PIoU.
"""

from __future__ import annotations

from collections.abc import Iterable

from judging.types import MetricResult

OUTCOME_METRICS = ("A", "PIoU", "RD_distance", "RD_time", "OC")
DEFAULT_ALPHA = 0.9
_ONE = 1 - 1e-9  # "equals 1" allowing for float rounding only


def pass_verdict(
    results: dict[str, MetricResult], alpha: float = DEFAULT_ALPHA, *, applicable: Iterable[str] | None = None
) -> MetricResult:
    """The case's pass as a MetricResult named ``pass_rate``: 1 passed, 0 failed, None undecided.

    Args:
        results: metric results by name.
        alpha: SC must be strictly greater than this.
        applicable: the metric names that apply to the case's cell; by default the names in
            ``results`` with a value.
    """
    names = set(applicable) if applicable is not None else {n for n, r in results.items() if r.applicable}
    failed: dict[str, float] = {}
    missing: list[str] = []
    for name in (*OUTCOME_METRICS, "SC"):
        result = results.get(name)
        if name not in names:
            continue
        if name == "SC" and result is not None and result.value is None and result.details.get("calculable") is False:
            continue  # nothing machine-checkable and no judge: not calculable, like PIoU without places
        if result is None or (name == "SC" and result.value is None):
            missing.append(name)
        elif result.value is not None and not _holds(name, result.value, alpha):
            failed[name] = result.value
    details = {
        "alpha": alpha,
        "failed": failed,
        "missing": missing,
        "checked": {n: results[n].value for n in (*OUTCOME_METRICS, "SC") if n in names and n in results},
    }
    if failed:
        parts = [
            f"SC {_show(v)} is not above {alpha}" if n == "SC" else f"{n} is {_show(v)}, not 1"
            for n, v in failed.items()
        ]
        return MetricResult("pass_rate", 0.0, "fails: " + "; ".join(parts), details)
    if missing:
        return MetricResult("pass_rate", None, f"undecided: {', '.join(missing)} applies but was not scored", details)
    return MetricResult(
        "pass_rate",
        1.0,
        "passes: every applicable outcome metric is 1" + (f" and SC exceeds {alpha}" if "SC" in names else ""),
        details,
    )


def passes(
    results: dict[str, MetricResult], alpha: float = DEFAULT_ALPHA, *, applicable: Iterable[str] | None = None
) -> tuple[bool, str]:
    """Whether the case passes at ``alpha``, and why (an undecided case does not pass)."""
    verdict = pass_verdict(results, alpha, applicable=applicable)
    return verdict.value == 1.0, verdict.explanation


def _holds(name: str, value: float, alpha: float) -> bool:
    return value > alpha if name == "SC" else value >= _ONE


def _show(value: float) -> str:
    short = f"{value:.4g}"
    return repr(value) if short == "1" else short
