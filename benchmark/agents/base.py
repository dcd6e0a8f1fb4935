"""The agent interface: what an agent gets for one (case, trial) and what it gives back.

An agent is an async function ``agent(task) -> AgentOutcome`` registered by name. It sees
the question (never the reference answer, except the ``reference`` agent, whose job is to
prove that cases and scoring agree), reaches the world only through ``task.tools`` (the
agent toolset over MCP; every call is recorded) and, when it is a model, asks ``task.llm``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from benchmark.agents.config import RunConfig
from benchmark.cases.document import CaseDocument
from kernel.registry import Registry
from kernel.vocabulary import Ending


@dataclass
class AgentTask:
    question: str
    case: CaseDocument  # only the reference agent may read more than the question
    trial: int
    config: RunConfig
    tools: Any  # benchmark.agents.toolbox.Toolbox
    llm: Any = None  # benchmark.endpoints.llm.LLMClient for model agents


@dataclass
class AgentOutcome:
    final_answer: Any = None
    ended: Ending = Ending.NO_SUBMISSION
    error: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    notes: dict = field(default_factory=dict)


AgentFunc = Callable[[AgentTask], Awaitable[AgentOutcome]]
AGENTS: Registry[AgentFunc] = Registry("agent")  # the names are stored on runs (EvaluationRun.agent)


def agent(name: str) -> Callable[[AgentFunc], AgentFunc]:
    """Register an agent under ``name``; duplicates are rejected."""
    return AGENTS.register(name)
