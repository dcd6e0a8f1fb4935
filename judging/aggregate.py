"""Aggregates of a run: the paper's table 2 (PR@0.9 per cell) and table 3 (metrics per level),
with bootstrap 95% intervals, and a paired comparison of two runs on the same release.

Conventions (also in docs/metrics.md): a rate is a percentage of cases; "overall" is the
pass rate over all cases of the run (micro average), and ``macro`` is the mean of the
cells' rates; a metric's level average uses only the cases where it applies. Intervals
are percentile bootstrap intervals over cases (resampled with replacement, seeded, so the
same scores always give the same interval).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

CELL_ORDER = (
    ("place_perception", "L0"), ("place_perception", "L1"), ("place_perception", "L2"),
    ("nearby_discovery", "L0"), ("nearby_discovery", "L1"), ("nearby_discovery", "L2"),
    ("routing", "L0"), ("routing", "L1"), ("routing", "L2"),
    ("trip_design", "L1"), ("trip_design", "L2"),
)
TABLE3_METRICS = ("IG", "TE", "RP", "A", "PIoU", "RD_distance", "RD_time", "OC", "SC")
BOOTSTRAP_SAMPLES = 2000


@dataclass(frozen=True)
class CaseScore:
    """One case's outcome in a run (one trial)."""

    case_id: str
    category: str
    level: str
    passed: bool
    metrics: dict[str, float | None] = field(default_factory=dict)
    tokens: int = 0


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def to_dict(self) -> dict:
        return {"value": round(self.value, 2), "low": round(self.low, 2), "high": round(self.high, 2)}


def bootstrap(values: Sequence[float], *, seed: int = 0, samples: int = BOOTSTRAP_SAMPLES) -> Interval:
    """Mean of ``values`` with a percentile bootstrap 95% interval."""
    if not values:
        raise ValueError("no values to aggregate")
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(samples))
    return Interval(sum(values) / n, means[int(0.025 * samples)], means[int(0.975 * samples) - 1])


def table2(scores: Sequence[CaseScore], *, seed: int = 0) -> dict:
    """PR in % per cell (with n), the overall pass rate with its 95% interval, the mean of the
    cells, and the average tokens per case."""
    cells = {}
    for category, level in CELL_ORDER:
        passed = [s.passed for s in scores if (s.category, s.level) == (category, level)]
        cells[f"{category}/{level}"] = ({"pr": round(100 * sum(passed) / len(passed), 1), "n": len(passed)}
                                        if passed else {"pr": None, "n": 0})
    if not scores:
        return {"cells": cells, "overall": None, "macro": None, "avg_tokens": None, "n": 0}
    overall = bootstrap([100.0 * s.passed for s in scores], seed=seed)
    rated = [c["pr"] for c in cells.values() if c["pr"] is not None]
    return {
        "cells": cells,
        "overall": overall.to_dict(),
        "macro": round(sum(rated) / len(rated), 1),
        "avg_tokens": round(sum(s.tokens for s in scores) / len(scores), 1),
        "n": len(scores),
    }


def table3(scores: Sequence[CaseScore]) -> dict:
    """Each metric averaged per level, in % (None where the metric applies to no case), plus PR@0.9."""
    out = {}
    for level in ("L0", "L1", "L2"):
        at_level = [s for s in scores if s.level == level]
        row = {}
        for name in TABLE3_METRICS:
            values = [s.metrics[name] for s in at_level if s.metrics.get(name) is not None]
            row[name] = round(100 * sum(values) / len(values), 1) if values else None
        row["PR"] = round(100 * sum(s.passed for s in at_level) / len(at_level), 1) if at_level else None
        row["tokens"] = round(sum(s.tokens for s in at_level) / len(at_level), 1) if at_level else None
        out[level] = row
    return out


def paired_comparison(a: Sequence[CaseScore], b: Sequence[CaseScore], *, seed: int = 0) -> dict:
    """Run A minus run B on the cases both scored: PR difference (points) with a paired 95%
    interval, and the cases A passed and B failed (won) and the reverse (lost)."""
    by_case_b = {s.case_id: s for s in b}
    shared = sorted(s.case_id for s in a if s.case_id in by_case_b)
    if not shared:
        raise ValueError("the two runs have no case in common")
    by_case_a = {s.case_id: s for s in a}
    diffs = [100.0 * (by_case_a[c].passed - by_case_b[c].passed) for c in shared]
    return {
        "n": len(shared),
        "difference": bootstrap(diffs, seed=seed).to_dict(),
        "won": [c for c in shared if by_case_a[c].passed and not by_case_b[c].passed],
        "lost": [c for c in shared if by_case_b[c].passed and not by_case_a[c].passed],
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
