"""The metric registry: every metric registers here by name (duplicates are rejected).

A registered metric is a pure function ``(case, predicted, trajectory, *, world) -> MetricResult``.
A judge metric (SC, RP) names the judge role that scores it when judges are configured; its
function is the rule check that scores it otherwise. The name is what rows store, so a score
can be traced back to the function that made it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from kernel.registry import Registry

Kind = Literal["outcome", "process"]


@dataclass(frozen=True)
class MetricSpec:
    """A registered metric: its name, function, kind (outcome or process), one-line summary and judge role.

    ``judge`` is the name of the judge role (``judging.judges.roles``) that scores the metric when
    judges are configured, or None for a metric that rules alone decide.
    """

    name: str
    func: Callable
    kind: Kind
    summary: str
    judge: str | None = None


METRICS: Registry[MetricSpec] = Registry("metric")


def metric(name: str, *, kind: Kind, judge: str | None = None) -> Callable[[Callable], Callable]:
    """Register a metric function under ``name``.

    Args:
        name: the metric's name, e.g. ``"PIoU"``; it must not be registered already.
        kind: ``"outcome"`` (scores the answer) or ``"process"`` (scores the trajectory).
        judge: the judge role that scores it when judges are configured (the function then
            scores it when they are not, or when every judge failed).

    Raises:
        ValueError: when ``name`` is already registered.
    """

    def register(func: Callable) -> Callable:
        summary = (func.__doc__ or "").strip().splitlines()[0] if func.__doc__ else ""
        METRICS.add(name, MetricSpec(name=name, func=func, kind=kind, summary=summary, judge=judge))
        return func

    return register


def get_metric(name: str) -> MetricSpec:
    """The registered metric called ``name``; the KeyError (NotRegistered) names the known ones."""
    return METRICS.get(name)


def registered_metrics() -> list[MetricSpec]:
    """Every registered metric, in registration order."""
    return list(METRICS)
