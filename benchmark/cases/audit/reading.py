"""Solvable in budget: a path of agent tool calls that reads the notes an L2 case turns on and reaches its gold.

For each implicit-need gold the verifier checked (:class:`.evidence.Lookalikes`), a careful solver
without luck does this with the agent toolset (tables 7 and 8):

1. **finds the options**: the calls that name the question's places and list its candidates
   (:func:`locating_calls`, one per named place plus one search for the candidates);
2. **searches the notes** of the places it must tell apart: the gold and every look-alike, or,
   when the question ranks (nearest, cheapest detour or plan), the look-alikes ranked at or above
   the gold, read best first until the gold: ``search_notes`` with the need's words AND the
   places' names, as many names per call as the keyword grammar allows and as few as keep the
   matches within one page of results;
3. **opens the notes** those searches list, newest first, place by place, until the evidence
   rule is settled there: two supports with no later denial (it holds), or a denial or end report
   that fewer than two supports follow (it does not); a place whose notes settle nothing is read
   to the end (``note_detail`` each);
4. **routes** what the answer states (a leg per leg of a plan) and **submits** it.

The matches are this verifier's own reading of the notes' visible text (a note names a place when
its title or text holds the full name, and matches when a sentence or comment holds a need word),
not the tool's full-text search, so the path is an estimate a reviewer can recount by hand. Given a
``search`` (the real ``search_notes``: a keyword to the note ids it lists), the same searches are
**replayed** through it (a search whose answer fills its page of 20 is asked again in two halves, and so on)
and the path opens, and the rule reads, only what the tool's answers list: a path an agent could
follow call by call (``lookalikes --replay``). A case
is not solvable by reading, and the verifier refuses it, when its path is longer than the agent's
budget, or when the rule applied to what the path can read (the items of the notes its searches
list) does not find the gold alone holding the need: a gold whose supports only notes calling it
by part of its name hold, or a look-alike whose denial lies in such a note.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from benchmark.cases.needs import need_of
from environment.build.corpus.vocab import ALL_SPECS
from environment.evidence import Item, fact_verdict
from environment.tools.keywords import MAX_TERMS
from environment.tools.notes import AGENT_CAP

from .evidence import Lookalikes, keyword_counts, need_pattern, need_words
from .world import NOW, AuditWorld

TOOL_BUDGET = 30  # the agent's default tool budget (benchmark.agents.config.DEFAULT_TOOL_BUDGET)
Search = Callable[[str], Sequence[str]]  # a search_notes keyword -> the note ids the tool lists for it
GOLD_UNREAD = "the notes its searches list do not show the gold holding the need under the rule"


@dataclass(frozen=True)
class ReadingPath:
    """The calls of one path, in order: (tool, a short description of its arguments)."""

    gold: str
    need: str
    calls: tuple[tuple[str, str], ...]
    problem: str = ""  # why what the path reads does not settle the gold under the rule ("" when it does)
    replayed: bool = False  # its searches' lists are the real search_notes answers
    listed: int = 0  # the distinct notes its searches list
    full_pages: int = 0  # its searches whose list fills a page (AGENT_CAP results)

    @property
    def length(self) -> int:
        return len(self.calls)

    @property
    def outcome(self) -> str:
        """What the rule finds from what the path reads: "settled" (the gold alone holds the need), "gold unread"
        or "rival holds" (a look-alike read before it holds it too)."""
        return "settled" if not self.problem else "gold unread" if self.problem == GOLD_UNREAD else "rival holds"

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for tool, _ in self.calls:
            out[tool] = out.get(tool, 0) + 1
        return out


def need_keyword_terms(need: str) -> tuple[str, ...]:
    """The evidence words of the facts meeting the need, as search terms (a phrase in double quotes)."""
    words = sorted({w for key in need_of(need).satisfied_by for w in ALL_SPECS[key].evidence})
    return tuple(f'"{w}"' if " " in w else w for w in words)


def places_to_read(found: Lookalikes) -> tuple[str, ...]:
    """The gold and the look-alikes a solver must rule out: all of them, or those ranked at or above the gold
    by the question's measure (read best first, it stops at the gold)."""
    if not found.measure:
        return (found.gold, *found.lookalikes)
    measure = dict(found.measure)
    cut = measure[found.gold]
    ahead = sorted((p for p in found.lookalikes if p in measure and measure[p] <= cut), key=lambda p: (measure[p], p))
    return (*ahead, found.gold)


def locating_calls(query: dict) -> list[tuple[str, str]]:
    """The calls that give the question's named places and its candidates their ids."""
    kind = query.get("kind")
    if kind == "need_choice":  # the options are named: the notes are searched by name, the gold looked up
        return [("place_search", "the chosen option")]
    named = [query.get(k) for k in ("center", "origin", "start", "end") if query.get(k)]
    named += list(query.get("stops") or [])
    calls = [("place_search", f"named place {p}") for p in dict.fromkeys(named)]
    return calls + [("nearby_search", "the candidates for the implied stop")]


def routing_calls(query: dict) -> list[tuple[str, str]]:
    """The legs the answer states: a plan's legs (trip, detour), one route for a nearest-by-route question."""
    kind = query.get("kind")
    if kind == "trip":
        stops = len(query.get("stops") or []) + len(query.get("implied") or []) + 2
        return [("routing", f"leg {i + 1}") for i in range(stops - 1 - (0 if query.get("end") else 1))]
    if kind == "detour":
        return [("routing", "start to the stop"), ("routing", "the stop to the end")]
    if kind == "find" and query.get("by") in ("route", "either"):
        return [("routing", "to the gold")]
    return []


def query_moment(query: dict) -> datetime | None:
    """The moment the question is asked at (its departure or opening time), None for now."""
    for key in ("open_at", "depart", "at", "now"):
        if query.get(key):
            return datetime.fromisoformat(query[key])
    return None


def reading_path(world: AuditWorld, query: dict, found: Lookalikes, search: Search | None = None) -> ReadingPath:
    """The path for one implicit-need gold (see the module's docstring); with ``search``, replayed through it."""
    at = query_moment(query)
    counts = keyword_counts(world)
    pattern = need_pattern(need_words(found.need))
    terms = need_keyword_terms(found.need)
    places = places_to_read(found)
    listed = {p: _matching_notes(counts, pattern, p) for p in places}
    calls = list(locating_calls(query))
    batches: list[list[str]] = []
    batch: list[str] = []
    seen: set[int] = set()
    for pid in places:
        room = MAX_TERMS - len(terms) - len(batch) - 1
        if batch and (room < 0 or len(seen | listed[pid]) > AGENT_CAP):
            batches.append(batch)
            batch, seen = [], set()
        batch.append(pid)
        seen |= listed[pid]
    if batch:
        batches.append(batch)
    if search is None:
        calls += [("search_notes", _describe(world, b, found.need)) for b in batches]
        readable = {world.notes[i].note_id for pid in places for i in listed[pid]}
        full = sum(1 for b in batches if len(set().union(*(listed[p] for p in b))) >= AGENT_CAP)
    else:  # replayed: a batch whose answer fills its page is asked again in two halves, and so on
        answers: list[list[str]] = []

        def ask(names: list[str]) -> None:
            keyword = _describe(world, names, found.need)
            calls.append(("search_notes", keyword))
            answers.append(list(search(keyword)))
            if len(answers[-1]) >= AGENT_CAP and len(names) > 1:
                ask(names[: len(names) // 2])
                ask(names[len(names) // 2 :])

        for b in batches:
            ask(b)
        readable = {note_id for answer in answers for note_id in answer}
        full = sum(1 for answer in answers if len(answer) >= AGENT_CAP)
        listed = {p: {i for i in counts.notes_naming(p) if world.notes[i].note_id in readable} for p in places}
    opened: set[str] = set()
    held = []
    for pid in places:
        notes, holds = notes_to_open(
            world, pid, found.need, {world.notes[i].note_id for i in listed[pid]}, readable, at
        )
        opened |= notes
        if holds:
            held.append(pid)
    calls += [("note_detail", note_id) for note_id in sorted(opened)]
    calls += routing_calls(query)
    calls.append(("submit_answer", "the answer"))
    problem = ""
    if found.gold not in held:
        problem = GOLD_UNREAD
    elif len(held) > 1:
        names = ", ".join(world.place(p).name for p in held if p != found.gold)
        problem = (
            f"the notes its searches list show {names} holding the need too (what undoes it is in a note that "
            "a search for the need's words and the place's name does not list)"
        )
    return ReadingPath(found.gold, found.need, tuple(calls), problem, search is not None, len(readable), full)


def notes_to_open(
    world: AuditWorld, place_id: str, need: str, listed: set[str], readable: set[str], at: datetime | None
) -> tuple[set[str], bool]:
    """The notes a solver opens for the place, newest first, until the evidence rule is settled there, and
    whether the rule finds the need held from what it can read. It reads the notes its searches list for the
    place (``listed``) and those of the ``readable`` notes (listed for any place it reads) that hold an item
    about the need there; it stops at two supports with no later denial (it holds), or at a denial or end
    report with fewer than two supports after it (it does not)."""
    items: dict[str, list[Item]] = {}
    keys = need_of(need).satisfied_by
    for key in keys:
        for item in world.evidence.get((place_id, key), []):
            note_id = item.ref.split("/")[0]
            if note_id in readable:  # what no search lists (or a hand-built item without a note) is not read
                items.setdefault(note_id, []).append(replace(item, ref=key))
    flat = [i for group in items.values() for i in group]
    newest = sorted(listed | set(items), key=lambda n: (_note_time(world, n, items), n), reverse=True)
    moment = (at or NOW).replace(tzinfo=None)
    opened: set[str] = set()
    read: dict[str, list[Item]] = {}
    for note_id in newest:
        opened.add(note_id)
        for item in items.get(note_id, []):
            read.setdefault(item.ref, []).append(item)
        verdicts = [fact_verdict(read.get(key, []), moment) for key in keys if any(key == i.ref for i in flat)]
        if any(v.holds for v in verdicts) or (verdicts and all(v.reset is not None for v in verdicts)):
            break
    holds = any(fact_verdict([i for i in flat if i.ref == key], moment).holds for key in keys)
    return opened, holds


def _note_time(world: AuditWorld, note_id: str, items: dict[str, list[Item]]) -> datetime:
    note = world.note(note_id)
    if note is not None and note.time is not None:
        return note.time.replace(tzinfo=None)
    return min((i.time for i in items.get(note_id, [])), default=datetime.min)


def _matching_notes(counts, pattern, place_id: str) -> set[int]:
    return {i for i in counts.notes_naming(place_id) if any(pattern.search(t) for t in counts.texts[i][1])}


def _describe(world: AuditWorld, batch: list[str], need: str) -> str:
    names = " OR ".join(f'"{world.place(p).name}"' for p in batch)
    return f"({' OR '.join(need_keyword_terms(need))}) AND ({names})"
