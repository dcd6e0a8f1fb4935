"""The judge roles: each binds a metric (SC, RP) to a versioned prompt template file.

A role's renderer turns (case, answer, trajectory) into the template's variables; it is
the only place that decides what a judge sees. Whatever came from the agent, its tools or
an upload goes through :func:`~judging.judges.prompting.encode_untrusted` and
:func:`~judging.judges.prompting.untrusted_block`; only the case (trusted) is shown as is.
Register a new role (or a new prompt version) with :func:`judge_role`; names are stored with every verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judging.types import CaseSpec, Trajectory
from kernel.registry import Registry

from .prompting import encode_untrusted, load_template, show, trajectory_text, untrusted_block

Renderer = Callable[[CaseSpec, Any, "Trajectory | None"], dict[str, str]]


@dataclass(frozen=True)
class JudgeRole:
    """A named judging task.

    Attributes:
        name: registry name (``"semantic_constraint"``).
        metric: the metric it produces (``"SC"``).
        prompt_file: template file under judging/prompts/, versioned in its name.
        uses_trajectory: whether the trajectory is shown (and so part of the cache key).
        render: (case, answer, trajectory) -> template variables.
    """

    name: str
    metric: str
    prompt_file: str
    uses_trajectory: bool
    render: Renderer

    @property
    def prompt_version(self) -> str:
        return Path(self.prompt_file).stem  # "semantic_constraint.v1"

    def messages(self, case: CaseSpec, answer: Any, trajectory: Trajectory | None, *, tools_note: str) -> list[dict]:
        """The system and user messages for one judgment."""
        system, user = load_template(self.prompt_file)
        variables = {
            "city": case.city_name or "a city",
            "tools_note": tools_note,
            **self.render(case, answer, trajectory),
        }
        return [
            {"role": "system", "content": system.substitute(variables)},
            {"role": "user", "content": user.substitute(variables)},
        ]


ROLES: Registry[JudgeRole] = Registry("judge role")


def judge_role(name: str, *, metric: str, prompt_file: str, uses_trajectory: bool) -> Callable[[Renderer], Renderer]:
    """Register the decorated renderer as judge role ``name``; duplicates are rejected."""

    def register(render: Renderer) -> Renderer:
        ROLES.check_free(name)
        load_template(prompt_file)  # fail at import on a missing or malformed file
        ROLES.add(name, JudgeRole(name, metric, prompt_file, uses_trajectory, render))
        return render

    return register


def get_role(name: str) -> JudgeRole:
    """The judge role called ``name``; the KeyError (NotRegistered) names the registered ones."""
    return ROLES.get(name)


def roles() -> list[JudgeRole]:
    """Every judge role, in registration order."""
    return list(ROLES)


@judge_role("semantic_constraint", metric="SC", prompt_file="semantic_constraint.v1.txt", uses_trajectory=False)
def render_semantic_constraint(case: CaseSpec, answer: Any, trajectory: Trajectory | None) -> dict[str, str]:
    """Question, reference answer, rubric (the case's constraints) and the agent's answer."""
    nonce, block = untrusted_block(encode_untrusted(answer, indent=1))
    rubric = show(case.constraints) if case.constraints else "(no explicit constraints beyond the question)"
    return {
        "question": case.question,
        "reference": show(case.answer),
        "rubric": rubric,
        "answer_nonce": nonce,
        "answer_block": block,
    }


@judge_role("reasoning_purity", metric="RP", prompt_file="reasoning_purity.v1.txt", uses_trajectory=True)
def render_reasoning_purity(case: CaseSpec, answer: Any, trajectory: Trajectory | None) -> dict[str, str]:
    """Question, the tool calls with their (clipped) observations, and the agent's answer."""
    answer_nonce, answer_block = untrusted_block(encode_untrusted(answer, indent=1))
    steps = trajectory.steps if trajectory is not None else []
    trajectory_nonce, trajectory_block = untrusted_block(trajectory_text(steps))
    return {
        "question": case.question,
        "answer_nonce": answer_nonce,
        "answer_block": answer_block,
        "trajectory_nonce": trajectory_nonce,
        "trajectory_block": trajectory_block,
    }
