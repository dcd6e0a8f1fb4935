"""One case attempt's conversation with the tools: every call goes through the gateway and is kept.

``engine()`` uses the Data Engine Toolset (what the generator decides with: the case's
engine path); ``agent()`` uses the Standard Agent Toolset (the reference path an agent
can follow to the same answer). A failed call discards the attempt.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from benchmark.cases.document import ToolStep, observation_digest
from benchmark.cases.rank_rules import RankQuota
from environment.tools.context import ToolContext
from environment.tools.gateway import call_tool

from .question_phrasing import Phrasebook, check_bank, fill


class Discard(Exception):
    """This attempt cannot make a valid case; the message says why (counted in the summary)."""


@dataclass
class EngineSession:
    context: ToolContext
    engine_path: list[ToolStep] = field(default_factory=list)
    reference_path: list[ToolStep] = field(default_factory=list)
    phrasebook: Phrasebook = field(default_factory=Phrasebook)
    memo: dict = field(default_factory=dict)  # facts about the city a run looks up once (shared by its attempts)
    rank_quota: RankQuota | None = None  # an L2 cell's ranks of the gold so far (benchmark.cases.rank_rules)
    skeletons: list[str] = field(default_factory=list)  # the skeleton ids this attempt's question used
    variants: list[str] = field(default_factory=list)  # the recipe variants this attempt wrote

    @property
    def bank(self) -> str:
        """The wording bank of the release being written: "public" or "hidden"."""
        return self.phrasebook.split

    def variant(self, rng: random.Random, name: str, weights: dict[str, float]) -> str:
        """Which variant of a recipe this attempt writes (balanced over kept cases, see Phrasebook.variant)."""
        chosen = self.phrasebook.variant(rng, name, weights)
        self.variants.append(f"variant:{name}:{chosen}")
        return chosen

    def say(self, rng: random.Random, bank: str, skeletons: tuple[str, ...], **slots: Any) -> str:
        """A question sentence from the least-used skeleton of ``bank``, filled with ``slots``."""
        check_bank(bank, skeletons, slots)
        skeleton_id, template = self.phrasebook.pick(rng, bank, skeletons)
        self.skeletons.append(skeleton_id)
        return fill(template, **slots)

    @contextmanager
    def trying(self):
        """A try inside an attempt: on Discard, forget the agent calls and skeletons it added (the engine path,
        a log of what the engine did, keeps its calls)."""
        marks = len(self.reference_path), len(self.skeletons), len(self.variants)
        try:
            yield
        except Discard:
            del self.reference_path[marks[0] :]
            del self.skeletons[marks[1] :]
            del self.variants[marks[2] :]
            raise

    def engine(self, tool: str, **arguments: Any) -> dict:
        return self._call("engine", tool, arguments, self.engine_path)

    def agent(self, tool: str, **arguments: Any) -> dict:
        return self._call("agent", tool, arguments, self.reference_path)

    def _call(self, toolset: str, tool: str, arguments: dict, path: list[ToolStep]) -> dict:
        call = call_tool(toolset, tool, arguments, context=self.context)
        if call.error is not None:  # not call.ok
            raise Discard(f"{toolset}.{tool} failed: {call.error['message']}")
        path.append(ToolStep(tool=tool, arguments=arguments, observation_sha256=observation_digest(call.result)))
        return call.result
