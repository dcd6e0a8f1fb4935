"""A finished trajectory as PostgreSQL can store it, whatever the agent or the model produced.

``trajectory_finish`` stores every trajectory (built-in agents, external agents, uploads) in one
transaction; one value PostgreSQL refuses (a NUL in a model's text, NaN in an answer, a token
count past an integer) would fail it, and the case would be retried until it counted as a dead
worker's, its steps lost. So what is stored is repaired first (``kernel.inputs.storable``):
NUL becomes U+FFFD, a model's text of one turn is cut at ``MODEL_TEXT_CHARS``, and so on. What
had to change is named, field by field, in the trajectory's error.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmark.agents.toolbox import StepRecord
from environment.tools.gateway import stored_name
from kernel.inputs import MODEL_TEXT_CHARS, RECORDING, TOOL_ARGUMENTS, clean_text, storable

log = logging.getLogger(__name__)
MAX_COUNT = 2**31 - 1  # a PositiveIntegerField
ERROR_CHARS = 5000


@dataclass(frozen=True)
class StorableTrajectory:
    steps: list[StepRecord]
    final_answer: Any
    error: str
    model_calls: list[dict]


def trajectory_storable(
    *, steps: Sequence[StepRecord], final_answer: Any, error: str, model_calls: Sequence[dict]
) -> StorableTrajectory:
    """Steps, answer, error and model calls as they can be stored; any change is noted in ``error``."""
    notes: list[str] = []
    kept = [_step(step, notes) for step in steps]
    answer, answer_notes = storable(final_answer, field="final_answer", limits=TOOL_ARGUMENTS)
    notes += answer_notes
    calls = [_model_call(call) for call in model_calls]
    error = clean_text(error or "", field="error")[0]
    if notes:  # the note goes last, and is kept even when the error fills the field
        note = ("stored with changes (PostgreSQL cannot hold the value as given): " + "; ".join(notes))[:1000]
        error = f"{error[: ERROR_CHARS - len(note) - 1]}\n{note}" if error else note
    return StorableTrajectory(kept, answer, error[:ERROR_CHARS], calls)


def count(value: Any) -> int:
    """A token count as a PositiveIntegerField holds it."""
    return min(max(int(value or 0), 0), MAX_COUNT)


def _step(step: StepRecord, notes: list[str]) -> StepRecord:
    at = f"steps[{step.index}]"
    arguments, argument_notes = storable(step.arguments, field=f"{at}.arguments", limits=TOOL_ARGUMENTS)
    observation, observation_notes = storable(step.observation, field=f"{at}.observation", limits=RECORDING)
    text, text_notes = clean_text(step.model_text or "", field=f"{at}.model_text", max_chars=MODEL_TEXT_CHARS)
    notes += [*argument_notes, *observation_notes, *text_notes]
    return dataclasses.replace(
        step,
        tool=stored_name(step.tool),
        arguments=arguments,
        observation=observation,
        model_text=text,
        input_tokens=count(step.input_tokens),
        output_tokens=count(step.output_tokens),
    )


def _model_call(call: dict) -> dict:
    request, request_notes = storable(call.get("request"), field="request", limits=RECORDING)
    response, response_notes = storable(call.get("response"), field="response", limits=RECORDING)
    error = clean_text(call.get("error") or "", field="error")[0]
    if request_notes or response_notes:  # the steps' notes name what the agent saw; this is the recording
        log.warning(
            "model call %s recorded with changes: %s", call.get("sequence"), "; ".join(request_notes + response_notes)
        )
    return {**call, "request": request, "response": response, "error": error}
