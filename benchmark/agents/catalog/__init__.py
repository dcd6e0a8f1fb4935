"""Every agent a run can name (``AGENTS``): each agent module registers itself with ``base.agent``, and
importing this package imports them all.

It is a folder of its own because it stands above the agents it imports, which import only the modules
beside this folder (no cycle between folders, tests/test_architecture.py).
"""

from benchmark.agents import heuristic, litellm_agent, reference, self_driven, skeptic  # noqa: F401  (importing registers them)
from benchmark.agents.base import AGENTS, AgentFunc, AgentOutcome, AgentTask, RunConfig, agent
from kernel.registry import NotRegistered


def get_agent(name: str) -> AgentFunc:
    """The agent registered as ``name``; a ValueError lists the registered ones."""
    try:
        return AGENTS.get(name)
    except NotRegistered:
        raise ValueError(f"unknown agent {name!r}; registered: {', '.join(sorted(AGENTS.names()))}") from None


__all__ = ["AGENTS", "AgentOutcome", "AgentTask", "RunConfig", "agent", "get_agent"]
