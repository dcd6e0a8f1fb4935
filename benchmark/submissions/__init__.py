"""Model submissions: a user's endpoint, a smoke test on 3 cases, then the full run.

``services`` holds the writes (``submission_create``, ``submission_smoke_finished``) and the
selectors the pages use; ``smoke`` reads a smoke run's report.
"""
from .services import (
    DEFAULT_SUBMISSIONS_PER_DAY,
    SMOKE_CASES,
    SubmissionLimitReached,
    smoke_case_ids,
    submission_create,
    submission_default_release,
    submission_limit_check,
    submission_smoke_finished,
    submissions_of,
    submissions_per_day,
)
from .smoke import SmokeProblem, SmokeReport, agent_tool_names, full_run_of, looks_like_tool_call, smoke_report

__all__ = [
    "DEFAULT_SUBMISSIONS_PER_DAY", "SMOKE_CASES", "SmokeProblem", "SmokeReport", "SubmissionLimitReached",
    "agent_tool_names", "full_run_of", "looks_like_tool_call", "smoke_case_ids", "smoke_report", "submission_create",
    "submission_default_release", "submission_limit_check", "submission_smoke_finished", "submissions_of",
    "submissions_per_day",
]
