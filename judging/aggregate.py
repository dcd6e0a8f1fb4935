"""Aggregates of a run: the paper's table 2 (PR@0.9 per cell) and table 3 (metrics per level),
the same metrics per task category, with bootstrap 95% intervals, and a paired comparison of two
runs on the same release.

Conventions (also in docs/metrics.md): a rate is a percentage of scored rows, one row per
(case, trial); "overall" is the pass rate over all rows of the run (micro average, the mean
over trials), and ``macro`` is the mean of the cells' rates; a metric's level average uses
only the rows where it applies. Intervals are percentile bootstrap intervals that resample
cases with replacement, each drawn case bringing all its trials (a cluster bootstrap: the
trials of one case are not independent evidence). They are seeded and the rows are put in
(case_id, trial) order first, so the same scores always give the same interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from kernel.vocabulary import CELLS, Category, Level, cell_key

TABLE3_METRICS = ("IG", "TE", "RP", "A", "PIoU", "RD_distance", "RD_time", "OC", "SC")
BOOTSTRAP_SAMPLES = 2000


@dataclass(frozen=True)
class CaseScore:
    """One trial of one case in a run."""

    case_id: str
    category: str
    level: str
    passed: bool
    metrics: dict[str, float | None] = field(default_factory=dict)
    tokens: int = 0
    trial: int = 0


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def to_dict(self) -> dict:
        return {"value": round(self.value, 2), "low": round(self.low, 2), "high": round(self.high, 2)}


def bootstrap(values: Sequence[float], *, seed: int = 0, samples: int = BOOTSTRAP_SAMPLES) -> Interval:
    """Mean of ``values`` with a percentile bootstrap 95% interval (each value resampled on its own)."""
    return cluster_bootstrap([[v] for v in values], seed=seed, samples=samples)


def cluster_bootstrap(
    clusters: Sequence[Sequence[float]], *, seed: int = 0, samples: int = BOOTSTRAP_SAMPLES
) -> Interval:
    """Pooled mean of all values with a percentile bootstrap 95% interval that resamples whole clusters.

    Each resample draws ``len(clusters)`` clusters with replacement and takes the pooled mean of
    the values they bring. The draws come from numpy's PCG64 generator seeded with ``seed``,
    vectorised in blocks (a 667-case run takes milliseconds), so the same clusters in the same
    order always give the same interval.

    Raises:
        ValueError: no cluster, or a cluster without values.
    """
    if not clusters or not all(clusters):
        raise ValueError("no values to aggregate")
    sums = np.array([math.fsum(c) for c in clusters], dtype=np.float64)
    sizes = np.array([len(c) for c in clusters], dtype=np.float64)
    rng, n = np.random.default_rng(seed), len(clusters)
    block = max(1, min(samples, 2_000_000 // n))  # at most ~16 MB of indices at a time
    means = []
    for start in range(0, samples, block):
        drawn = rng.integers(0, n, size=(min(block, samples - start), n))
        means.append(sums[drawn].sum(axis=1) / sizes[drawn].sum(axis=1))
    ordered = np.sort(np.concatenate(means))
    return Interval(
        float(sums.sum() / sizes.sum()), float(ordered[int(0.025 * samples)]), float(ordered[int(0.975 * samples) - 1])
    )


def trials_by_case(scores: Sequence[CaseScore]) -> dict[str, list[CaseScore]]:
    """The rows grouped by case in case_id order, each case's trials in trial order, whatever
    order the rows came in."""
    out: dict[str, list[CaseScore]] = {}
    for s in sorted(scores, key=lambda s: (s.case_id, s.trial)):
        out.setdefault(s.case_id, []).append(s)
    return out


def trials_summary(scores: Sequence[CaseScore]) -> dict:
    """Over several trials: the mean pass rate over trials (pooled, in %), pass^k (the % of cases
    whose every trial passed, k being that case's number of scored trials), the number of cases,
    and ``trials`` / ``trials_min``: the largest and smallest k. None values when no row."""
    cases = trials_by_case(scores)
    if not cases:
        return {"mean_over_trials": None, "pass_hat_k": None, "trials": None, "trials_min": None, "cases": 0}
    ks = [len(trials) for trials in cases.values()]
    return {
        "mean_over_trials": round(100 * sum(s.passed for s in scores) / len(scores), 1),
        "pass_hat_k": round(100 * sum(_all_passed(t) for t in cases.values()) / len(cases), 1),
        "trials": max(ks),
        "trials_min": min(ks),
        "cases": len(cases),
    }


def _all_passed(trials: Sequence[CaseScore]) -> bool:
    return all(s.passed for s in trials)


def has_several_trials(scores: Sequence[CaseScore]) -> bool:
    """Whether some case of ``scores`` has more than one trial."""
    return len({s.case_id for s in scores}) < len(scores)


def table2(scores: Sequence[CaseScore], *, seed: int = 0) -> dict:
    """PR in % per cell (with n rows), the overall pass rate with its 95% interval, the mean of the
    cells, and the average tokens per row. When a case has several trials, also per cell and
    overall the mean over trials, pass^k (overall with its interval), ``trials`` and ``cases``."""
    cells: dict[str, dict] = {}
    for category, level in CELLS:
        passed = [s.passed for s in scores if (s.category, s.level) == (category, level)]
        cells[cell_key(category, level)] = (
            {"pr": round(100 * sum(passed) / len(passed), 1), "n": len(passed)} if passed else {"pr": None, "n": 0}
        )
    if not scores:
        return {"cells": cells, "overall": None, "macro": None, "avg_tokens": None, "n": 0}
    cases = trials_by_case(scores)
    overall = cluster_bootstrap([[100.0 * s.passed for s in trials] for trials in cases.values()], seed=seed)
    rated = [c["pr"] for c in cells.values() if c["pr"] is not None]
    out = {
        "cells": cells,
        "overall": overall.to_dict(),
        "macro": round(sum(rated) / len(rated), 1),
        "avg_tokens": round(sum(s.tokens for s in scores) / len(scores), 1),
        "n": len(scores),
    }
    if has_several_trials(scores):
        for key, cell in cells.items():
            cell.update(_trials_cell(scores, key))
        out.update(_trials_overall(scores, overall, seed=seed))
    return out


def _trials_cell(scores: Sequence[CaseScore], key: str) -> dict:
    """A table 2 cell's additions for a run with several trials per case."""
    summary = trials_summary([s for s in scores if cell_key(s.category, s.level) == key])
    return {name: summary[name] for name in ("mean_over_trials", "pass_hat_k", "trials")}


def _trials_overall(scores: Sequence[CaseScore], overall: Interval, *, seed: int) -> dict:
    """Table 2's overall additions for a run with several trials per case: pass^k gets an interval
    over cases (one value per case: did every trial pass)."""
    summary = trials_summary(scores)
    every_trial = [100.0 * _all_passed(t) for t in trials_by_case(scores).values()]
    return {
        "mean_over_trials": overall.to_dict(),
        "pass_hat_k": bootstrap(every_trial, seed=seed).to_dict(),
        "trials": summary["trials"],
        "trials_min": summary["trials_min"],
        "cases": summary["cases"],
    }


def table3(scores: Sequence[CaseScore]) -> dict:
    """Each metric averaged per level, in % (None where the metric applies to no case), plus PR@0.9."""
    return {level.value: _metric_means([s for s in scores if s.level == level]) for level in Level}


def table_categories(scores: Sequence[CaseScore]) -> dict:
    """Table 3's row per task category instead of per level, with ``n``, the category's scored rows."""
    out = {}
    for category in Category:
        rows = [s for s in scores if s.category == category]
        out[category.value] = {"n": len(rows), **_metric_means(rows)}
    return out


def _metric_means(rows: Sequence[CaseScore]) -> dict:
    """Each TABLE3_METRICS mean in % over the rows where it applies, then PR@0.9 and the mean tokens
    (None where no row has a value)."""
    out = {}
    for name in TABLE3_METRICS:
        values = [value for s in rows if (value := s.metrics.get(name)) is not None]
        out[name] = round(100 * sum(values) / len(values), 1) if values else None
    out["PR"] = round(100 * sum(s.passed for s in rows) / len(rows), 1) if rows else None
    out["tokens"] = round(sum(s.tokens for s in rows) / len(rows), 1) if rows else None
    return out


def case_pass_rates(scores: Sequence[CaseScore]) -> dict[str, float]:
    """Each case's pass rate over its trials, in %, in case_id order."""
    return {
        case: 100.0 * sum(s.passed for s in trials) / len(trials) for case, trials in trials_by_case(scores).items()
    }


def paired_comparison(a: Sequence[CaseScore], b: Sequence[CaseScore], *, seed: int = 0) -> dict:
    """Run A minus run B, case by case, on the cases both scored.

    Each case's pass rate over its trials in A minus that in B (points); the difference is the
    mean over the shared cases, with a 95% interval from resampling those cases. ``a`` and ``b``
    are each run's mean pass rate over the shared cases (%), ``won`` lists the cases where A's
    rate is higher, ``lost`` those where B's is (case_ids, sorted).

    Raises:
        ValueError: the runs have no case in common.
    """
    rate_a, rate_b = case_pass_rates(a), case_pass_rates(b)
    shared = [c for c in rate_a if c in rate_b]
    if not shared:
        raise ValueError("the two runs have no case in common")
    diffs = [rate_a[c] - rate_b[c] for c in shared]
    return {
        "n": len(shared),
        "a": round(math.fsum(rate_a[c] for c in shared) / len(shared), 2),
        "b": round(math.fsum(rate_b[c] for c in shared) / len(shared), 2),
        "difference": bootstrap(diffs, seed=seed).to_dict(),
        "won": [c for c in shared if rate_a[c] > rate_b[c]],
        "lost": [c for c in shared if rate_b[c] > rate_a[c]],
    }


def rank_ranges(intervals: dict[str, Interval]) -> dict[str, tuple[int, int]]:
    """Honest ranks: a run's best rank counts the runs whose interval lies wholly above its own,
    its worst rank the runs whose interval is not wholly below it."""
    out = {}
    for name, mine in intervals.items():
        better = sum(1 for other, iv in intervals.items() if other != name and iv.low > mine.high)
        not_worse = sum(1 for other, iv in intervals.items() if other != name and iv.high >= mine.low)
        out[name] = (better + 1, not_worse + 1)
    return out
