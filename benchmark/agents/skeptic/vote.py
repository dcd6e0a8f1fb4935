"""The skeptic's keyword vote over search_notes: which candidate do the notes say meets the want?

The want's words are expanded with :data:`SYNONYMS`, groups of everyday near-synonyms such as a
skeptic writes after reading the public notes (the themes people post about: quiet, big, fresh,
views, music ...); it is not the corpus generator's vocabulary, and it never sees a hidden label.
A few candidates (named options) get one ``search_notes`` each, ``"Name" AND (w1 OR w2 ...)``, whose
``total_matched`` is the candidate's *hits*; many candidates (a nearby or route search) are asked
about in groups of ten names. The notes found are read with ``note_detail`` while the budget lasts,
and every clause holding a want word votes for the place it speaks of (a sentence naming a
candidate is about it; the rest of a note and its comments are about the place the note names):
+1, or -1 when it holds a negation or a word saying the thing ended or is past ("no longer",
"used to", "gone", "took out" ...), and nothing when its sentence is a question, hearsay, an advert
or a comparison that credits another place (a promoted post is skipped whole). A place's score is
its votes, then its hits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..heuristic.reading import fold
from .ask import stem

SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "quiet calm hushed silent peaceful peace tranquil study studying concentrate focus revise",
        "big huge enormous giant massive oversized gigantic colossal large",
        "fresh warm baked baking oven ovens bakery pastry pastries croissant",
        "cinnamon cardamom bun buns korvapuusti swirl",
        "portion portions generous filling hearty",
        "soup salmon fish chowder",
        "repair repairs fix fixed mend while wait",
        "group groups party parties table tables seats seating space room",
        "staff expert experts knowledgeable knowledge advice skilled trade",
        "selection choice range variety wide shelves stock",
        "green garden park trees nature grass",
        "terrace outdoor outside heated heaters patio winter",
        "coffee latte cappuccino espresso foam milk barista art",
        "cocktail cocktails mixed drinks bartender mixology",
        "jazz music band live tunes playlist songs",
        "sunset sun sky evening dusk orange",
        "view views panorama rooftop rooftops skyline sea",
        "squirrel squirrels wildlife animals birds",
        "english language speak speaking tourist",
        "date romantic couple candle candles intimate",
        "child children kids toddler toddlers family baby families",
        "light lighting lights lamps cosy cozy dim",
        "photo photos pictures photogenic instagram interior design styled decor",
        "fast quick speedy service waiting",
    )
)
NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|none|nowhere|without|hardly|lacks?|lacking|missing|miss)\b|n't\b|\bnope\b", re.I
)
PAST = re.compile(
    r"\b(?:used to|no longer|any ?more|gone|vanished|disappeared|stopped|ended|removed|replaced|took (?:it |them )?out|"
    r"got rid|closed down|shut down|changed owners?|new owners?|not any ?more|once had|back then)\b",
    re.I,
)
ADVERT = re.compile(
    r"#ad\b|\bpaid partnership\b|\bsponsored\b|\blink in (?:our |the )?bio\b|\buse code\b|\bdm me\b|"
    r"\bclick my profile\b|\bgiveaway\b|\bfree followers\b|\bcrypto\b|\bbest deals\b",
    re.I,
)
NOT_COUNTED = re.compile(
    r"\?|\b(?:heard|rumou?rs?|apparently|supposedly|allegedly|reportedly|someone said|people say|they say|"
    r"sponsored|promo|advert|link in (?:our |the )?bio|book (?:now|through|via)|discount|giveaway|"
    r"beats?|better than|unlike|instead|elsewhere)\b",
    re.I,
)


_CLAUSE = re.compile(r"[,;:()\u2013\u2014]|\s-\s|\bbut\b|\bthough\b|\bwhereas\b", re.I)
# "... at Cafe X", "... over at X": a sentence that sends the reader to a place by a capitalised name.
_OTHER_PLACE = re.compile(r"\b(?:at|to|than|in|from)\s+(?:the\s+)?[A-Z][\w'&.-]+")


def expand(words: list[str]) -> list[str]:
    """The want's words and their synonyms' (the words first), without repeats, at most 24."""
    out = list(words)
    stems = {stem(w) for w in words}
    for group in SYNONYMS:
        if stems & {stem(g) for g in group}:
            out.extend(sorted(group))
    seen: list[str] = []
    for word in out:
        if word not in seen:
            seen.append(word)
    return seen[:24]


def query(name: str, words: list[str]) -> str:
    """``"Name" AND (w1 OR w2 ...)``: notes naming the place that use a want word."""
    return f'"{_bare(name)}" AND ({" OR ".join(words)})'


@dataclass
class Tally:
    place_id: str
    name: str
    hits: int = 0
    votes: int = 0
    notes: list[str] = field(default_factory=list)  # note ids that gave a counted +1
    searched: bool = False


def _mentions(text: str, names: dict[str, str]) -> list[str]:
    """The candidate ids whose folded name occurs in ``text``."""
    low = fold(text)
    return [pid for pid, name in names.items() if name and name in low]


def vote_note(note: dict, about: str, names: dict[str, str], stems: set[str], tallies: dict[str, Tally]) -> None:
    """Vote on one read note: each clause with a want word counts for the place it speaks of.

    A note that names none of the candidates is skipped (the search matched a word of a name). A
    clause naming a candidate is about it; any other clause is about the place the note names
    (``about`` when the note names it, else the first candidate it names), and a clause naming only
    a place that is not a candidate is about that place, so it counts for none.
    """
    head = f"{note.get('title', '')} {note.get('desc', '')}"
    if ADVERT.search(head):
        return
    comments = [c.get("content", "") for c in note.get("comments") or []]
    everywhere = _mentions(" ".join([head, *comments]), names)
    if not everywhere:
        return
    noted = _mentions(head, names)
    subject = about if about in noted or (about and not noted) else (noted[0] if noted else "")
    for text in [note.get("title", ""), note.get("desc", ""), *comments]:
        for sentence in re.split(r"(?<=[.!?])\s+", text or ""):
            skipped = NOT_COUNTED.search(sentence) is not None
            named = _mentions(sentence, names)
            target = named[0] if named else subject
            if skipped or (named and len(named) > 1) or (not named and _OTHER_PLACE.search(sentence)):
                continue
            for clause in _CLAUSE.split(sentence):
                words = {stem(w) for w in re.findall(r"[A-Za-zÀ-ÿ']+", clause)}
                if not words & stems:
                    continue
                tally = tallies.get(target)
                if tally is None:
                    break
                if NEGATION.search(clause) or PAST.search(clause):
                    tally.votes -= 1
                else:
                    tally.votes += 1
                    if note["note_id"] not in tally.notes:
                        tally.notes.append(note["note_id"])


async def keyword_vote(
    run, candidates: list[dict], words: list[str], *, reserve: int, read: bool = True
) -> dict[str, Tally]:
    """Search notes for ``candidates`` and, with ``read``, read and vote on them until ``reserve`` calls are left.

    A few candidates (named options) get one search each, so each one's hits are known and its
    own notes are read in turn. Many candidates (a nearby or route search) are asked about in groups
    (``("A" OR "B" ...) AND (words)``) so that the notes read are the ones that best match the want
    across all of them; ``read=False`` (the hits rule) searches each one alone while calls last.
    """
    terms = expand(words)
    stems = {stem(w) for w in terms}
    names = {c["place_id"]: fold(c["name"]) for c in candidates}
    tallies = {c["place_id"]: Tally(c["place_id"], c["name"]) for c in candidates}
    if len(candidates) > FEW and read:
        return await _grouped(run, candidates, terms, stems, names, tallies, reserve)
    found: dict[str, list[str]] = {}
    left = run.tools.budget - run.tools.used - reserve
    searches = min(len(candidates), max(1, left // 2 if read else left))
    for place in candidates[:searches]:
        result = await run.call("search_notes", keyword=query(place["name"], terms))
        tally = tallies[place["place_id"]]
        tally.searched = True
        if result:
            tally.hits = int(result.get("total_matched") or 0)
            found[place["place_id"]] = [r["note_id"] for r in result.get("results") or []]
    if not read:
        return tallies
    order = sorted(found, key=lambda pid: -tallies[pid].hits)
    rounds = [[(pid, nid) for pid in order if len(found[pid]) > i for nid in found[pid][i : i + 1]] for i in range(20)]
    await _read(run, [pair for batch in rounds for pair in batch], names, stems, tallies, reserve)
    return tallies


FEW = 6  # up to this many candidates, each gets its own search
GROUP = 10  # names per grouped search (with 12 want words: inside search_notes' 32 terms)


async def _grouped(run, candidates, terms, stems, names, tallies, reserve) -> dict[str, Tally]:
    pending: list[tuple[str, str]] = []
    for i in range(0, len(candidates), GROUP):
        if run.tools.budget - run.tools.used - reserve <= 1:
            break
        group = candidates[i : i + GROUP]
        phrases = " OR ".join(f'"{_bare(c["name"])}"' for c in group)
        result = await run.call("search_notes", keyword=f"({phrases}) AND ({' OR '.join(terms[:12])})")
        for c in group:
            tallies[c["place_id"]].searched = True
        pending += [("", r["note_id"]) for r in (result or {}).get("results") or []]
    await _read(run, pending, names, stems, tallies, reserve)
    return tallies


async def _read(run, pending: list[tuple[str, str]], names, stems, tallies, reserve: int) -> None:
    """Read the notes of ``pending`` (candidate it was found for, or "", and note id) in order, once each."""
    opened: set[str] = set()
    for pid, nid in pending:
        if run.tools.budget - run.tools.used - reserve <= 0:
            return
        if nid in opened:
            continue
        opened.add(nid)
        note = await run.call("note_detail", note_id=nid)
        if note:
            vote_note(note, pid, names, stems, tallies)


def _bare(name: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", name).split())


def ranked(candidates: list[dict], tallies: dict[str, Tally]) -> list[dict]:
    """Candidates by votes, then hits, then their order (nearest or first named first)."""
    order = {c["place_id"]: i for i, c in enumerate(candidates)}
    return sorted(
        candidates,
        key=lambda c: (-tallies[c["place_id"]].votes, -tallies[c["place_id"]].hits, order[c["place_id"]]),
    )
