"""Attribute distillation: facts -> the memory fields written back onto places."""

from __future__ import annotations

from collections.abc import Sequence

from ..records import FactRecord, PlaceMemory, PlaceRecord

_FIELD = {"static": 0, "long_term": 1, "short_term": 2}


def memories_from_facts(places: Sequence[PlaceRecord], facts: Sequence[FactRecord]) -> dict[str, PlaceMemory]:
    """One :class:`PlaceMemory` per place, labels joined with ``"; "`` in fact order."""
    parts: dict[str, tuple[list[str], list[str], list[str]]] = {p.place_id: ([], [], []) for p in places}
    for fact in facts:
        parts[fact.place_id][_FIELD[fact.kind]].append(fact.label)
    return {pid: PlaceMemory(*("; ".join(labels) for labels in fields)) for pid, fields in parts.items()}
