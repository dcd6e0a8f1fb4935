"""Attribute distillation: labelled notes -> the facts that hold -> the hidden memory fields of places.

A fact is distilled onto its place when the evidence rule (:mod:`environment.evidence`)
finds it held: a lasting fact at the corpus's "now" (:data:`.plan.AS_OF`), a dated state on
the first day it names. Static facts join the place's visible ``tag`` (as in the paper, where static
attributes distilled from posts sit beside the OSM keys); ``long_mem`` and ``short_mem`` are hidden
from agents, and the Data Engine's ``social_mem`` filter reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from environment.evidence import Item, fact_verdict
from environment.records import CommentRecord, FactRecord, LabelRecord, NoteRecord, PlaceMemory, PlaceRecord

_FIELD = {"static": 0, "long_term": 1, "short_term": 2}


def label_items(
    notes: Sequence[NoteRecord], comments: Sequence[CommentRecord], labels: Sequence[LabelRecord]
) -> dict[tuple, list[tuple[Item, LabelRecord]]]:
    """(place_id, kind, key, label) -> the labelled items of that fact, each as an evidence Item and its label."""
    when = {n.note_id: n.time for n in notes}
    when.update({c.comment_id: c.time for c in comments})
    grouped: dict[tuple, list[tuple[Item, LabelRecord]]] = {}
    for label in labels:
        ref = label.comment_id or label.note_id
        item = Item(when[ref], label.stance, label.valid_from, label.valid_until, ref=ref)
        grouped.setdefault((label.place_id, label.kind, label.key, label.label), []).append((item, label))
    return grouped


def distil(
    places: Sequence[PlaceRecord],
    notes: Sequence[NoteRecord],
    comments: Sequence[CommentRecord],
    labels: Sequence[LabelRecord],
    as_of: datetime | None = None,
) -> tuple[list[FactRecord], dict[str, PlaceMemory]]:
    """The facts that hold (ordered by their first counted note, as the JSONL reader rebuilds them) and
    each place's memory fields."""
    from .plan import AS_OF

    as_of = as_of or AS_OF
    position = {n.note_id: i for i, n in enumerate(notes)}
    facts = []
    for (place_id, kind, key, text), pairs in label_items(notes, comments, labels).items():
        dated = [label for _, label in pairs if label.valid_from is not None]
        starts = [label.valid_from for label in dated if label.valid_from is not None]
        ends = [label.valid_until for label in dated if label.valid_until is not None]
        at = as_of
        if kind == "short_term" and starts:
            first = min(starts)
            at = datetime(first.year, first.month, first.day, tzinfo=UTC) + timedelta(hours=12)
        verdict = fact_verdict([item for item, _ in pairs], at)
        if not verdict.holds:
            continue
        counted = {item.ref for item in verdict.counted}
        note_ids = sorted({label.note_id for item, label in pairs if item.ref in counted}, key=position.__getitem__)
        valid_from = min(starts, default=None) if kind == "short_term" else None
        valid_until = max(ends, default=None) if kind == "short_term" else None
        facts.append(FactRecord(place_id, kind, key, text, tuple(note_ids), valid_from, valid_until))
    facts.sort(key=lambda f: (position[f.note_ids[0]], f.place_id, f.key))
    return facts, memories_from_facts(places, facts)


def memories_from_facts(places: Sequence[PlaceRecord], facts: Sequence[FactRecord]) -> dict[str, PlaceMemory]:
    """One :class:`PlaceMemory` per place, labels joined with ``"; "`` in fact order."""
    parts: dict[str, tuple[list[str], list[str], list[str]]] = {p.place_id: ([], [], []) for p in places}
    for fact in facts:
        parts[fact.place_id][_FIELD[fact.kind]].append(fact.label)
    return {pid: PlaceMemory(*("; ".join(labels) for labels in fields)) for pid, fields in parts.items()}
