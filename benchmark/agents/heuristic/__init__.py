"""The heuristic agent: a no-model floor, not a contender.

It reads only ``task.question`` and the tools. It finds the places the question names by
searching its capitalised words (a place counts when its whole name appears in the
question), reads the travel mode, numbers, a weekday and time and a place noun with regular
expressions (:mod:`.reading`), then runs one fixed tool recipe for the kind of question it
recognises (:mod:`.shapes`). There is no reasoning and it never reads notes: implicit needs
get the first plausible place, stops are visited in the order they are named (no
optimisation), and opening hours get a crude check. It always ends with submit_answer, with
whatever partial answer it has. Deterministic: same question, same calls.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from kernel.vocabulary import Ending

from ..base import AgentOutcome, AgentTask, agent
from ..toolbox import BudgetExhausted
from .reading import Reading, find_names
from .shapes import SHAPES


class OutOfCalls(Exception):
    """Only the call reserved for submit_answer is left."""


class Run:
    """The agent's state for one question: its tools and the answer it has so far."""

    def __init__(self, tools):
        self.tools, self.answer, self.shape = tools, {}, "unrecognised"

    async def call(self, tool: str, **arguments) -> dict | None:
        if self.tools.used >= self.tools.budget - 1:
            raise OutOfCalls
        observation, is_error = await self.tools.call(tool, {k: v for k, v in arguments.items() if v is not None})
        return None if is_error else observation

    async def first_nearby(self, center, radius: float, types: list[str] | None, exclude, **filters) -> dict | None:
        found = await self.call(
            "nearby_search", center=center, radius_meters=min(radius, 1000), place_types=types, **filters
        )
        return next((r for r in (found or {}).get("results") or [] if r["place_id"] not in exclude), None)

    async def route(self, stops: list[dict], waypoints: list[dict], reading: Reading) -> None:
        """Route ``stops`` in the given order, leg by leg, and write the figure-9 answer."""
        vehicle, mode = reading.vehicle() or "driving", reading.mode()
        self.answer = {
            "start": _ref(stops[0], "User-specified origin."),
            "end": _ref(stops[-1], "User-specified destination."),
            "waypoints": waypoints,
            "optimal_order": [
                {"name": p["name"], "place_id": p["place_id"], "visit_order": i + 1} for i, p in enumerate(stops)
            ],
            "vehicle": vehicle,
            "mode": mode,
            "total_distance_m": 0.0,
            "total_time_s": 0.0,
        }
        for a, b in zip(stops, stops[1:]):
            leg = await self.call(
                "routing", start_place_id=a["place_id"], end_place_id=b["place_id"], vehicle=vehicle, mode=mode
            )
            for key in ("total_distance_m", "total_time_s"):
                self.answer[key] = round(self.answer[key] + (leg or {}).get(key, 0.0), 1)


def _ref(place: dict, reason: str) -> dict:
    return {"name": place["name"], "place_id": place["place_id"], "reason": reason}


async def play(task: AgentTask, solve: Callable[[Run, str], Awaitable[None]]) -> AgentOutcome:
    """Run ``solve(run, question)`` until it returns or the calls run out, then submit what there is.

    Shared by the no-model agents (this one and :mod:`..skeptic`): the last call of the budget is
    kept for submit_answer, and the outcome notes the recipe (``run.shape``) that answered.
    """
    run = Run(task.tools)
    with contextlib.suppress(OutOfCalls, BudgetExhausted):  # then submit what there is
        await solve(run, " ".join(task.question.split()))
    try:
        _, is_error = await task.tools.call("submit_answer", {"result": run.answer})
    except BudgetExhausted as exc:
        return AgentOutcome(
            final_answer=run.answer, ended=Ending.BUDGET_EXHAUSTED, error=str(exc), notes={"shape": run.shape}
        )
    return AgentOutcome(
        final_answer=task.tools.submitted if not is_error else run.answer,
        ended=Ending.INVALID_ANSWER if is_error else Ending.SUBMITTED,
        notes={"shape": run.shape},
    )


async def follow_shapes(run: Run, reading: Reading) -> None:
    """The first recipe of :data:`.shapes.SHAPES` that recognises the question answers it."""
    for shape in SHAPES:
        if await shape(run, reading):
            run.shape = shape.__name__.removesuffix("_shape")
            return


async def _solve(run: Run, question: str) -> None:
    await follow_shapes(run, Reading(question, await find_names(run, question)))


@agent("heuristic")
async def heuristic_agent(task: AgentTask) -> AgentOutcome:
    return await play(task, _solve)
