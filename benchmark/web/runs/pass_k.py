"""The run page's pass^k curve: pass^k for k = 1 .. trials (``judging.pass_k``) over the run's scored trials.

It reads the rows the run page has already loaded (``report.run_cases``: one per trajectory), so
it costs no query.
"""

from __future__ import annotations

from benchmark.runs.models import Trajectory
from judging.aggregate import CaseScore
from judging.pass_k import pass_hat_k_curve


def pass_k_rows(cases: list[dict]) -> list[dict]:
    """[{k, value (in %), text}] for k = 1 .. the fewest trials of a case; [] with one trial per case."""
    scores = [
        CaseScore(
            case_id=c["case_id"],
            category=c["category"],
            level=c["level"],
            passed=c["passed"] is True,
            trial=c["trial"],
        )
        for c in cases
        if c["status"] == Trajectory.DONE
    ]
    return [{"k": k, "value": value, "text": f"{value:.1f}"} for k, value in pass_hat_k_curve(scores).items()]
