"""No-model floors a skeptic would write: the ``skeptic`` agent and the rank-rule agents (``rank-...``).

Both read only ``task.question`` and call only the agent toolset, cold, case by case, within the
tool budget, deterministically (same question, same calls).

``skeptic`` is the strongest honest no-model agent we could write for a question that asks for a
place meeting an implied need (:mod:`.ask`): it gathers the places the toolset shows for the
question's shape (:mod:`.plan`), looks the want's words up in a table built from the city's
whole visible tag vocabulary and filters the same search by the tags they hit (:mod:`.tags`),
then runs a keyword vote over ``search_notes`` that reads the notes and counts negated, ended and
past-tense sentences against a place and questions, hearsay, adverts and comparisons not at all
(:mod:`.vote`); it answers with the winner, checked open on arrival or over the stay, and on a
trip with the cheapest visit order found by trying every order that keeps the rule. Any other
question goes to the heuristic agent's recipes (:mod:`..heuristic.shapes`).

The rank-rule agents gather the same candidates and pick by one fixed rule that reads no note
(nearest, best-rated, cheapest, first result, most keyword hits, and each one's opposite): a
release whose golds avoid, or seek, the visibly best place is caught by one of them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..base import AgentOutcome, AgentTask, agent
from ..heuristic import Run, follow_shapes, play
from ..heuristic.reading import Reading, find_names
from .ask import Ask, read_ask, read_trip
from .plan import answer_place, answer_route, calls_to_answer, candidates
from .vote import Tally, keyword_vote, ranked

# A pick: (run, ask, candidates, ids with a want tag) -> (candidates in order of preference, note ids to cite)
Pick = Callable[[Run, Ask, list[dict], set[str]], Awaitable[tuple[list[dict], dict[str, list[str]]]]]


async def _vote_pick(run: Run, ask: Ask, places: list[dict], tagged: set[str]) -> tuple[list[dict], dict]:
    tallies = await keyword_vote(run, places, ask.words, reserve=calls_to_answer(ask))
    for pid in tagged:
        if pid in tallies:
            tallies[pid].votes += 1
    return ranked(places, tallies), {pid: t.notes for pid, t in tallies.items() if t.notes}


def _by(key: Callable[[dict], float | None], *, high: bool) -> Pick:
    """A pick by a visible number; places without it go last, ties keep the tool's order."""

    async def pick(run: Run, ask: Ask, places: list[dict], tagged: set[str]) -> tuple[list[dict], dict]:
        have = [(value, p) for p in places if (value := key(p)) is not None]
        have.sort(key=lambda vp: -vp[0] if high else vp[0])  # stable: ties keep the tool's order
        return [p for _, p in have] + [p for p in places if key(p) is None], {}

    return pick


def _order(*, reverse: bool) -> Pick:
    async def pick(run: Run, ask: Ask, places: list[dict], tagged: set[str]) -> tuple[list[dict], dict]:
        return (list(reversed(places)) if reverse else list(places)), {}

    return pick


def _hits(*, most: bool) -> Pick:
    """By how many notes name the place and use a want word (one search_notes each; no note is read)."""

    async def pick(run: Run, ask: Ask, places: list[dict], tagged: set[str]) -> tuple[list[dict], dict]:
        left = run.tools.budget - run.tools.used - calls_to_answer(ask)
        tallies = await keyword_vote(run, places[: max(1, left)], ask.words, reserve=calls_to_answer(ask), read=False)
        searched = [p for p in places if p["place_id"] in tallies and tallies[p["place_id"]].searched]
        searched.sort(key=lambda p: -_hit(tallies, p) if most else _hit(tallies, p))
        return searched + [p for p in places if p not in searched], {}

    return pick


def _hit(tallies: dict[str, Tally], place: dict) -> int:
    return tallies[place["place_id"]].hits


def _distance(place: dict) -> float | None:
    return place.get("distance_m")


RULES: dict[str, tuple[Pick, str]] = {
    "rank-nearest": (_by(_distance, high=False), "The nearest candidate."),
    "rank-farthest": (_by(_distance, high=True), "The farthest candidate."),
    "rank-best-rated": (_by(lambda p: p.get("rating"), high=True), "The best-rated candidate."),
    "rank-worst-rated": (_by(lambda p: p.get("rating"), high=False), "The worst-rated candidate."),
    "rank-cheapest": (_by(lambda p: p.get("cost"), high=False), "The cheapest candidate."),
    "rank-dearest": (_by(lambda p: p.get("cost"), high=True), "The dearest candidate."),
    "rank-first-result": (_order(reverse=False), "The first candidate the tool listed."),
    "rank-last-result": (_order(reverse=True), "The last candidate the tool listed."),
    "rank-most-hits": (_hits(most=True), "The candidate with the most keyword hits in the notes."),
    "rank-fewest-hits": (_hits(most=False), "The candidate with the fewest keyword hits in the notes."),
}


async def _solve(run: Run, ask: Ask, pick: Pick, reason: str) -> None:
    places, tagged = await candidates(run, ask)
    if not places:
        return
    preference, cite = await pick(run, ask, places, tagged)
    if ask.shape in ("options", "nearby"):
        await answer_place(run, ask, preference, cite, reason)
    else:
        await answer_route(run, ask, preference, cite, reason)


def _solver(pick: Pick, reason: str) -> Callable[[Run, str], Awaitable[None]]:
    async def solve(run: Run, question: str) -> None:
        reading = Reading(question, await find_names(run, question))
        ask = read_ask(reading)
        if not ask.shape:
            trip = read_trip(reading)
            if trip.shape:  # named stops, no want: every order that keeps the rules, open on arrival
                run.shape = "named-trip"
                await answer_route(run, trip, [], {}, "")
            else:
                await follow_shapes(run, reading)
            return
        run.shape = f"want-{ask.shape}"
        await _solve(run, ask, pick, reason)

    return solve


@agent("skeptic")
async def skeptic_agent(task: AgentTask) -> AgentOutcome:
    return await play(task, _solver(_vote_pick, "The notes' keyword vote favours it."))


def _rank_agent(name: str, pick: Pick, reason: str) -> None:
    async def rank_agent(task: AgentTask) -> AgentOutcome:
        return await play(task, _solver(pick, reason))

    rank_agent.__name__ = name.replace("-", "_")
    agent(name)(rank_agent)


for _name, (_pick, _reason) in RULES.items():
    _rank_agent(_name, _pick, _reason)
