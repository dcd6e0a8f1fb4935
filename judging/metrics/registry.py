"""The metric registry: every deterministic metric registers here by name (duplicates are rejected).

A registered metric is a pure function ``(case, predicted, trajectory, *, world) -> MetricResult``.
The name is what rows store, so a score can be traced back to the function that made it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Kind = Literal["outcome", "process"]


@dataclass(frozen=True)
class MetricSpec:
    """A registered metric: its name, function, kind (outcome or process) and one-line summary."""

    name: str
    func: Callable
    kind: Kind
    summary: str


_REGISTRY: dict[str, MetricSpec] = {}


def metric(name: str, *, kind: Kind) -> Callable[[Callable], Callable]:
    """Register a metric function under ``name``.

    Args:
        name: the metric's name, e.g. ``"PIoU"``; it must not be registered already.
        kind: ``"outcome"`` (scores the answer) or ``"process"`` (scores the trajectory).

    Raises:
        ValueError: when ``name`` is already registered.
    """
    def register(func: Callable) -> Callable:
        if name in _REGISTRY:
            raise ValueError(f"metric {name!r} is already registered (by {_REGISTRY[name].func.__qualname__})")
        summary = (func.__doc__ or "").strip().splitlines()[0] if func.__doc__ else ""
        _REGISTRY[name] = MetricSpec(name=name, func=func, kind=kind, summary=summary)
        return func

    return register


def get_metric(name: str) -> MetricSpec:
    """The registered metric called ``name``; KeyError names the known ones."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"no metric {name!r}; registered: {', '.join(_REGISTRY)}") from None


def registered_metrics() -> list[MetricSpec]:
    """Every registered metric, in registration order."""
    return list(_REGISTRY.values())
