"""Agents: a registry of ways to answer a case through the agent toolset (reference, heuristic, litellm).

Each agent module registers itself with ``base.agent``; importing this package imports them all.
"""
from . import external, heuristic, litellm_agent, reference  # noqa: F401  (importing registers them)
from .base import AGENTS, AgentFunc, AgentOutcome, AgentTask, RunConfig, agent


def get_agent(name: str) -> AgentFunc:
    """The agent registered as ``name``; a ValueError lists the registered ones."""
    try:
        return AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; registered: {', '.join(sorted(AGENTS))}") from None


__all__ = ["AGENTS", "AgentOutcome", "AgentTask", "RunConfig", "agent", "get_agent"]
