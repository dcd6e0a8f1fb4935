"""Agents: a registry of ways to answer a case through the agent toolset (reference, heuristic, litellm).

Each agent module registers itself with ``base.agent``; importing this package imports them all.
"""

from environment.registry_base import NotRegistered

from . import heuristic, litellm_agent, reference, self_driven, skeptic  # noqa: F401  (importing registers them)
from .base import AGENTS, AgentFunc, AgentOutcome, AgentTask, RunConfig, agent


def get_agent(name: str) -> AgentFunc:
    """The agent registered as ``name``; a ValueError lists the registered ones."""
    try:
        return AGENTS.get(name)
    except NotRegistered:
        raise ValueError(f"unknown agent {name!r}; registered: {', '.join(sorted(AGENTS.names()))}") from None


__all__ = ["AGENTS", "AgentOutcome", "AgentTask", "RunConfig", "agent", "get_agent"]
