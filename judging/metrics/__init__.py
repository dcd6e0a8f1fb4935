"""Deterministic metrics of section 3.2 (eq. 1 to 6), their registry, applicability matrix and pass rule.

Importing the package registers every metric. SC and RP are judge metrics written elsewhere;
they appear in the applicability matrix and the pass rule only.
"""
from . import attribute, efficiency, information, places, routing  # noqa: F401  (registers the metrics)
from .applicability import APPLICABILITY, CELLS, applicability_markdown, applicable_metrics, applies
from .attribute import attribute_accuracy
from .efficiency import token_usage, tool_efficiency
from .information import information_grounding, required_evidence
from .passing import OUTCOME_METRICS, pass_verdict, passes
from .places import order_consistency, place_set_iou
from .registry import MetricSpec, get_metric, metric, registered_metrics
from .routing import routing_deviation_distance, routing_deviation_time
from .world import World

__all__ = [
    "APPLICABILITY", "CELLS", "OUTCOME_METRICS", "MetricSpec", "World", "applicability_markdown",
    "applicable_metrics", "applies", "attribute_accuracy", "get_metric", "information_grounding", "metric",
    "order_consistency", "pass_verdict", "passes", "place_set_iou", "registered_metrics", "required_evidence",
    "routing_deviation_distance", "routing_deviation_time", "token_usage", "tool_efficiency",
]
