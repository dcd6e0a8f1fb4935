"""The reference agent: replays the case's reference tool path and submits its reference answer.

On every validated case it must score PR = 100% with IG = TE = 1: that proves the cases and
the scoring agree (and that the tools still give what the case was written from).
"""

from __future__ import annotations

from kernel.vocabulary import Ending

from .base import AgentOutcome, AgentTask, agent


@agent("reference")
async def reference_agent(task: AgentTask) -> AgentOutcome:
    for step in task.case.reference_path:
        _, is_error = await task.tools.call(step.tool, step.arguments)
        if is_error:
            return AgentOutcome(
                ended=Ending.INVALID_ANSWER,
                error=f"reference step {step.tool} failed",
                final_answer=task.tools.submitted,
            )
    if not task.tools.has_submitted:
        return AgentOutcome(ended=Ending.NO_SUBMISSION, error="the reference path has no submit_answer")
    return AgentOutcome(final_answer=task.tools.submitted, ended=Ending.SUBMITTED)
