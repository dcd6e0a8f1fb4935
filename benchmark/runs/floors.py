"""The floor probe the data engine plays on each L2 draft: every no-model floor agent, as an evaluation runs it.

Registered into ``benchmark.cases.floors.FLOOR_PROBES`` when the runs app is ready. Each floor agent
(the ``skeptic`` and the ``rank-...`` agents of :mod:`.agents.skeptic`) answers the question through
the agent toolset with the default tool budget, exactly as ``evaluate`` would run it, and the probe
returns the place ids its submitted answer names (the place, or the route's stops), so the engine can
tell whether it picked the gold.
"""

from __future__ import annotations

import asyncio

from benchmark.agents.base import AgentTask
from benchmark.agents.catalog import get_agent
from benchmark.agents.config import RunConfig
from benchmark.agents.skeptic import RULES
from benchmark.agents.toolbox import Toolbox
from benchmark.cases.document import CaseDocument
from benchmark.cases.floors import FLOOR_PROBES

FLOOR_AGENTS = ("skeptic", *RULES)


def answer_places(answer) -> frozenset[str]:
    """The place ids an answer names: its top-level place and its route's waypoints."""
    if not isinstance(answer, dict):
        return frozenset()
    ids = {answer.get("place_id")} | {w.get("place_id") for w in answer.get("waypoints") or [] if isinstance(w, dict)}
    return frozenset(i for i in ids if isinstance(i, str) and i)


async def _play(document: CaseDocument) -> dict[str, frozenset[str]]:
    picks = {}
    config = RunConfig()
    for name in FLOOR_AGENTS:
        async with Toolbox(city=document.city_name, budget=config.tool_budget) as tools:
            task = AgentTask(question=document.question, case=document, trial=0, config=config, tools=tools)
            outcome = await get_agent(name)(task)
        picks[name] = answer_places(outcome.final_answer)
    return picks


@FLOOR_PROBES.register("no-model agents")
def floor_probe(document: CaseDocument) -> dict[str, frozenset[str]]:
    """Each floor agent's answer to the case's question: agent name -> the place ids it names."""
    return asyncio.run(_play(document))
