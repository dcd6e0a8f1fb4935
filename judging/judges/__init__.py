"""LLM judges for the metrics rules cannot settle: SC and RP (paper section 3.2, appendix B.2).

A judge role binds a metric to a versioned prompt template (judging/prompts/); a
JudgeConfig names a model and carries the model client that asks it (the platform's);
ensemble_score averages the judges, on the answer as given and on its copy with free text
removed, and keeps the lower mean.
Nothing here stores anything: callers pass a JudgeCache. See docs/judges.md.
"""

from .cache import InMemoryJudgeCache, JudgeCache, cache_key
from .calibration import Agreement, CalibrationPair, JudgeAgreement, calibration_stats, recommend_ensemble
from .config import JudgeConfig, configured_judges
from .ensemble import JudgePanel, ensemble_score
from .injection import instructions_in, trajectory_instructions
from .neutral import PLACEHOLDER, neutral_copy
from .roles import JudgeRole, get_role, judge_role, roles
from .scoring import JudgeVerdict, judge_score, parse_verdict, verification_tools

__all__ = [
    "Agreement",
    "CalibrationPair",
    "InMemoryJudgeCache",
    "JudgeAgreement",
    "JudgeCache",
    "JudgeConfig",
    "JudgePanel",
    "JudgeRole",
    "JudgeVerdict",
    "PLACEHOLDER",
    "cache_key",
    "calibration_stats",
    "configured_judges",
    "ensemble_score",
    "get_role",
    "instructions_in",
    "judge_role",
    "judge_score",
    "neutral_copy",
    "parse_verdict",
    "recommend_ensemble",
    "roles",
    "trajectory_instructions",
    "verification_tools",
]
