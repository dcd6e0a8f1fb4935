"""Agreement of candidate judges with human scores (appendix B.2), as pure arithmetic.

Input: (judge model, category, human score, judge score) records from a calibration subset.
Output: mean absolute error and Pearson correlation per judge, per category and overall;
:func:`recommend_ensemble` then picks the judges closest to the humans.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

ROUND = 9  # compare errors at this precision, so float noise does not break ties


@dataclass(frozen=True)
class CalibrationPair:
    judge: str
    category: str
    human: float
    score: float


@dataclass(frozen=True)
class Agreement:
    """n pairs, mean absolute error, Pearson r (None when undefined: n < 2 or a constant side)."""

    n: int
    mae: float | None
    pearson: float | None


@dataclass(frozen=True)
class JudgeAgreement:
    judge: str
    overall: Agreement
    by_category: dict[str, Agreement] = field(default_factory=dict)


def agreement(pairs: Sequence[tuple[float, float]]) -> Agreement:
    """Agreement of (human, judge) score pairs."""
    if not pairs:
        return Agreement(0, None, None)
    mae = sum(abs(h - j) for h, j in pairs) / len(pairs)
    return Agreement(len(pairs), round(mae, ROUND), pearson([h for h, _ in pairs], [j for _, j in pairs]))


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson correlation; None for fewer than two pairs or when either side is constant."""
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-15 or syy <= 1e-15:
        return None
    return round(sxy / math.sqrt(sxx * syy), ROUND)


def calibration_stats(records: Iterable[CalibrationPair | tuple[str, str, float, float]]) -> dict[str, JudgeAgreement]:
    """Per judge: agreement overall and per category, judges in name order."""
    grouped: dict[str, dict[str, list[tuple[float, float]]]] = defaultdict(lambda: defaultdict(list))
    for record in records:
        pair = record if isinstance(record, CalibrationPair) else CalibrationPair(*record)
        grouped[pair.judge][pair.category].append((float(pair.human), float(pair.score)))
    stats = {}
    for judge in sorted(grouped):
        categories = grouped[judge]
        everything = [pair for category in sorted(categories) for pair in categories[category]]
        stats[judge] = JudgeAgreement(
            judge, agreement(everything), {category: agreement(categories[category]) for category in sorted(categories)}
        )
    return stats


def recommend_ensemble(stats: dict[str, JudgeAgreement], k: int = 3) -> list[str]:
    """The ``k`` judges with the lowest overall MAE; ties go to the higher correlation
    (an undefined correlation ranks last), then to the name."""

    def rank(item: JudgeAgreement):
        r = item.overall.pearson
        mae = item.overall.mae if item.overall.mae is not None else math.inf
        return (mae, r is None, -(r or 0.0), item.judge)

    return [item.judge for item in sorted(stats.values(), key=rank)[:k]]
