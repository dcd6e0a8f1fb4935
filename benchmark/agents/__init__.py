"""Agents: a registry of ways to answer a case through the agent toolset (reference, heuristic, litellm)."""
from .base import AGENTS, AgentOutcome, AgentTask, RunConfig, agent, get_agent

__all__ = ["AGENTS", "AgentOutcome", "AgentTask", "RunConfig", "agent", "get_agent"]
