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

from .checks import answer_names
from .document import CaseDocument

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
