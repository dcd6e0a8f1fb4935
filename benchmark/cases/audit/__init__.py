"""The independent verifier: a gold answer must be right against the whole city.

Each case states what its question asks as a query (``uniqueness["query"]``: the place nouns,
implicit needs, conditions and places named, in the question's own terms). The verifier
solves that query from scratch: its own SQL over the tables, every place a reader would
accept for a noun (:mod:`benchmark.cases.lexicon`), every holder of a need's facts
(:mod:`benchmark.cases.needs`), ellipsoidal distances and its own shortest paths. It never
calls the data engine or a tool, so a shortcut the engine took (a capped search, a candidate
set limited to one sub-type, a filter matching the wrong text) shows up as a failure. The
gold must win by the margins in :mod:`.margins`, stated rules must bind, and the question
must say everything the query holds (names, nouns, numbers, times, travel mode). An L2 case must be
solvable by reading within the agent's tool budget (:mod:`.reading`).

``audit_case(doc)`` returns the failures, one sentence each (empty when the case holds);
``case_lookalikes(doc)`` the look-alikes of each implicit-need gold of an L2 case (the places a
solver without notes cannot tell apart from it), found by the same solvers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benchmark.cases.needs import BANKS, NEEDS, PUBLIC

from . import lookups, plans, search
from .common import Reject
from .evidence import Lookalikes, recording_lookalikes
from .reading import TOOL_BUDGET, reading_path
from .wording import wording_failures
from .world import AuditWorld, audit_world

SOLVERS: dict[str, Callable] = {
    "attribute": lookups.attribute,
    "compare": lookups.compare,
    "open_on_arrival": lookups.open_on_arrival,
    "open_choice": lookups.open_choice,
    "closer": lookups.closer,
    "budget": lookups.budget,
    "need_choice": lookups.need_choice,
    "find": search.find,
    "route": plans.route,
    "detour": plans.detour,
    "trip": plans.trip,
}


def audit_case(doc, *, world: AuditWorld | None = None) -> list[str]:
    """Why the case's gold answer is not the one right answer against the whole city (empty if it is)."""
    query = (doc.uniqueness or {}).get("query")
    if not isinstance(query, dict) or query.get("kind") not in SOLVERS:
        return ["the case states no query the independent verifier can solve (uniqueness.query)"]
    try:
        world = world or audit_world(doc.city_name)
    except LookupError as exc:
        return [str(exc)]
    if world.city_version != doc.city_version:
        return [f"the case was written for city version {doc.city_version[:12]}, not {world.city_version[:12]}"]
    failures = []
    with recording_lookalikes() as found:
        try:
            SOLVERS[query["kind"]](world, query, doc.answer if isinstance(doc.answer, dict) else {})
        except (Reject, LookupError) as exc:
            failures.append(f"independent check: {exc}")
    if not failures:
        failures += _budget_failures(world, query, found)
    failures += wording_failures(world, doc.question, query)
    return failures + bank_failures(query, (getattr(doc, "provenance", None) or {}).get("split") or PUBLIC)


def bank_failures(query: dict, split: str) -> list[str]:
    """A need the release's bank does not hold: a public release asks only for public needs, a hidden one only
    for hidden needs (:mod:`benchmark.cases.needs`), so a hidden release never asks for a need whose holders a
    public gold or evidence card has shown."""
    if split not in BANKS:
        return [f"the case's split is {split!r}; allowed: {', '.join(BANKS)}"]
    parts = [query, query.get("stop") or {}, *(query.get("implied") or [])]
    asked = [p["need"] for p in parts if isinstance(p, dict) and isinstance(p.get("need"), str)]
    return [
        f"the need {key} is {'not a need' if key not in NEEDS else 'a ' + NEEDS[key].bank + ' need'}: "
        f"a {split} release asks only for {split} needs"
        for key in asked
        if key not in NEEDS or NEEDS[key].bank != split
    ]


def _budget_failures(world: AuditWorld, query: dict, found: list[Lookalikes]) -> list[str]:
    """A reading path longer than the agent's tool budget (:mod:`.reading`): the case cannot be solved by
    reading the notes it turns on."""
    failures = []
    for checked in found:
        path = reading_path(world, query, checked)
        if path.problem:
            failures.append(f"independent check: not readable: {path.problem}")
        if path.length > TOOL_BUDGET:
            failures.append(
                f"independent check: over budget: reading the notes of the gold and the look-alikes it must be "
                f"told from takes {path.length} tool calls ({', '.join(f'{n} {t}' for t, n in path.counts().items())}),"
                f" more than the agent's {TOOL_BUDGET}"
            )
    return failures


@dataclass(frozen=True)
class CaseLookalikes:
    """The look-alikes the verifier found for a case's implicit-need golds, and why it stopped if it did."""

    found: tuple[Lookalikes, ...]
    failure: str  # the independent check's failure ("" when the case holds)

    @property
    def fewest(self) -> int | None:
        """The smallest number of look-alikes of any of the case's golds (None: the check never got there)."""
        return min((len(f.lookalikes) for f in self.found), default=None)


def case_lookalikes(doc, *, world: AuditWorld | None = None) -> CaseLookalikes:
    """Run the case's solver, recording the look-alikes of each implicit-need gold it checks (see
    :func:`.evidence.lookalikes_of`), whether or not the case then fails."""
    query = (doc.uniqueness or {}).get("query")
    if not isinstance(query, dict) or query.get("kind") not in SOLVERS:
        return CaseLookalikes((), "the case states no query the independent verifier can solve")
    try:
        world = world or audit_world(doc.city_name)
    except LookupError as exc:
        return CaseLookalikes((), str(exc))
    if world.city_version != doc.city_version:
        return CaseLookalikes(
            (), f"the case was written for city version {doc.city_version[:12]}, not {world.city_version[:12]}"
        )
    failure = ""
    with recording_lookalikes() as found:
        try:
            SOLVERS[query["kind"]](world, query, doc.answer if isinstance(doc.answer, dict) else {})
        except (Reject, LookupError) as exc:
            failure = str(exc)
    return CaseLookalikes(tuple(found), failure)


__all__ = ["audit_case", "audit_world", "case_lookalikes", "AuditWorld", "CaseLookalikes", "Reject", "SOLVERS"]
