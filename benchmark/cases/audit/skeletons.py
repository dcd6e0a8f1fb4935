"""Question skeletons: a question with its place names and numbers masked, and how often each recurs.

Two questions share a skeleton when they differ only in the places they name and the numbers
they state (radius, times, ratings, euros). A cell whose questions mostly share one skeleton
reads like a filled template; docs/cases.md reports, per cell, the cases, the distinct
skeletons and the share of the most used one (``manage.py question_stats``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from benchmark.cases.document import CaseDocument

from .checks import answer_names

_NUMBER = re.compile(r"\d+(?:[:.,]\d+)*")
_PLACE_KEYS = ("place", "origin", "via", "center", "start", "end")


@dataclass(frozen=True)
class CellSkeletons:
    cell: str
    cases: int
    skeletons: int
    top_share: float
    top: str


def case_place_ids(doc: CaseDocument) -> list[str]:
    """Every place the case's query names (the places its question names)."""
    query = (doc.uniqueness or {}).get("query") or {}
    ids = [query[k] for k in _PLACE_KEYS if isinstance(query.get(k), str)]
    ids += [pid for key in ("places", "stops") for pid in query.get(key) or []]
    ids += [pid for pid, _ in query.get("items") or []]
    return ids


def skeleton(question: str, names: Iterable[str]) -> str:
    """The question with every given place name replaced by <place> and every number by <n>."""
    text = question
    for name in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(re.escape(name), "<place>", text, flags=re.IGNORECASE)
    return _NUMBER.sub("<n>", text)


def skeleton_stats(documents: Iterable[CaseDocument], names_of: dict[str, str]) -> list[CellSkeletons]:
    """Per cell (in table 4's order): cases, distinct skeletons, share of the most used one.

    ``names_of`` maps place_id -> name for the places the questions name."""
    by_cell: dict[str, Counter] = {}
    for doc in documents:
        names = [names_of.get(pid, "") for pid in case_place_ids(doc)] + answer_names(doc.answer)
        by_cell.setdefault(doc.type, Counter())[skeleton(doc.question, names)] += 1
    rows = []
    for cell, counts in by_cell.items():
        top, n = counts.most_common(1)[0]
        total = sum(counts.values())
        rows.append(CellSkeletons(cell, total, len(counts), n / total, top))
    return rows


# ------------------------------------------------------------------ what two releases share


def case_needs_and_phrases(doc: CaseDocument) -> tuple[set[str], set[str]]:
    """The implicit needs an L2 case asks for and the phrasings it hints at them with."""
    query = (doc.uniqueness or {}).get("query") or {}
    parts = [query, query.get("stop") or {}, *(query.get("implied") or [])]
    needs = {p["need"] for p in parts if isinstance(p, dict) and p.get("need")}
    phrases = {p["phrase"] for p in parts if isinstance(p, dict) and p.get("phrase")}
    return needs, phrases


@dataclass(frozen=True)
class Shared:
    """What the cases of two releases have in common (the goal for a public and a hidden release: nothing)."""

    needs: tuple[str, ...]
    phrasings: tuple[str, ...]
    skeletons: tuple[str, ...]  # skeleton ids (bank#position) both used


def shared(first: Iterable[CaseDocument], second: Iterable[CaseDocument]) -> Shared:
    def gather(docs: Iterable[CaseDocument]) -> tuple[set[str], set[str], set[str]]:
        needs, phrases, skeletons = set(), set(), set()
        for doc in docs:
            n, p = case_needs_and_phrases(doc)
            needs |= n
            phrases |= p
            skeletons |= set((doc.provenance or {}).get("skeletons") or [])
        return needs, phrases, skeletons

    (n1, p1, s1), (n2, p2, s2) = gather(first), gather(second)
    return Shared(tuple(sorted(n1 & n2)), tuple(sorted(p1 & p2)), tuple(sorted(s1 & s2)))
