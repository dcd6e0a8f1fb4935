"""LLM judges for the metrics rules cannot settle: SC and RP (paper section 3.2, appendix B.2).

A judge role binds a metric to a versioned prompt template (judging/prompts/); a
JudgeConfig names a model reached through litellm; ensemble_score averages the judges.
Nothing here stores anything: callers pass a JudgeCache. See docs/judges.md.
"""
from .cache import InMemoryJudgeCache, JudgeCache, cache_key
from .calibration import Agreement, CalibrationPair, JudgeAgreement, calibration_stats, recommend_ensemble
from .config import JudgeConfig, configured_judges
from .ensemble import ensemble_score
from .injection import REDACTION, redact, redact_text
from .roles import JudgeRole, get_role, judge_role, roles
from .scoring import JudgeVerdict, judge_score, parse_verdict, verification_tools

__all__ = [
    "Agreement", "CalibrationPair", "InMemoryJudgeCache", "JudgeAgreement", "JudgeCache", "JudgeConfig", "JudgeRole",
    "JudgeVerdict", "REDACTION", "cache_key", "calibration_stats", "configured_judges", "ensemble_score", "get_role",
    "judge_role", "judge_score", "parse_verdict", "recommend_ensemble", "redact", "redact_text", "roles",
    "verification_tools",
]
