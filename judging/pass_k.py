"""pass^k over several trials per case (tau-bench): the chance that k independent trials of a case all pass.

For a case with ``n`` scored trials of which ``c`` passed, the unbiased estimate of that chance is
C(c, k) / C(n, k) (drawing k of its n trials without replacement, all passing); pass^k of a run is
the mean of the cases' estimates. pass^1 is the mean pass rate over cases; pass^k falls as k grows
unless every case is all-or-nothing. k runs from 1 to the smallest number of trials any case has:
beyond it the estimate is not defined for that case.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

from judging.aggregate import CaseScore, trials_by_case


def case_pass_hat_k(*, passed: int, trials: int, k: int) -> float:
    """C(passed, k) / C(trials, k): the chance that k of the case's trials, drawn without replacement, all pass.

    Raises:
        ValueError: k outside 1..trials, or passed outside 0..trials.
    """
    if not 1 <= k <= trials:
        raise ValueError(f"k must be between 1 and the number of trials ({trials}); got {k}")
    if not 0 <= passed <= trials:
        raise ValueError(f"passed must be between 0 and {trials}; got {passed}")
    return comb(passed, k) / comb(trials, k)


def pass_hat_k_curve(scores: Sequence[CaseScore]) -> dict[int, float]:
    """pass^k in % for k = 1 .. the fewest trials of any case, each the mean over cases of
    ``case_pass_hat_k``; {} when no case has more than one trial (pass^1 alone is the pass rate)."""
    cases = trials_by_case(scores)
    if not cases:
        return {}
    counts = [(sum(s.passed for s in trials), len(trials)) for trials in cases.values()]
    k_max = min(n for _, n in counts)
    if k_max < 2:
        return {}
    return {
        k: 100.0 * sum(case_pass_hat_k(passed=c, trials=n, k=k) for c, n in counts) / len(counts)
        for k in range(1, k_max + 1)
    }
