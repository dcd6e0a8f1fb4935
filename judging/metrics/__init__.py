"""Metrics of section 3.2 (eq. 1 to 6, SC and RP), their registry, applicability matrix and pass rule.

Importing the package registers every metric. SC and RP are judge metrics: registered with the
judge role that scores them when judges are configured, and with the rule check
(``constraints``) or the 'fetched before cited' check (``purity``) that scores them otherwise.
"""

from . import attribute, constraints, efficiency, information, places, purity, routing  # noqa: F401  (registers the metrics)
from .applicability import APPLICABILITY, applicability_markdown, applicable_metrics, applies
from .attribute import attribute_accuracy
from .constraints import ConstraintWorld, constraint_checks, semantic_constraint, semantic_constraint_rules
from .efficiency import token_usage, tool_efficiency
from .information import information_grounding, required_evidence
from .passing import OUTCOME_METRICS, pass_verdict, passes
from .places import order_consistency, place_set_iou
from .purity import reasoning_purity
from .registry import METRICS, MetricSpec, get_metric, metric, registered_metrics
from .routing import routing_deviation_distance, routing_deviation_time
from .world import World

__all__ = [
    "APPLICABILITY",
    "METRICS",
    "OUTCOME_METRICS",
    "ConstraintWorld",
    "MetricSpec",
    "World",
    "applicability_markdown",
    "applicable_metrics",
    "applies",
    "attribute_accuracy",
    "constraint_checks",
    "get_metric",
    "information_grounding",
    "metric",
    "order_consistency",
    "pass_verdict",
    "passes",
    "place_set_iou",
    "reasoning_purity",
    "registered_metrics",
    "required_evidence",
    "routing_deviation_distance",
    "routing_deviation_time",
    "semantic_constraint",
    "semantic_constraint_rules",
    "token_usage",
    "tool_efficiency",
]
