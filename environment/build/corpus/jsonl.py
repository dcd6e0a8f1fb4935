"""Import and export a corpus as JSON Lines, one note (with its comments and evidence labels) a line.

The format is documented in ``docs/corpus.md``. The importer is strict: a bad line raises
``ValueError("line N: <field> ...")`` naming the line, the field and what is allowed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from environment.evidence import CREDITS, STANCES
from environment.records import CommentRecord, Corpus, LabelRecord, NoteRecord, PlaceRecord

from .memory import distil

NOTE_KINDS = ("about", "multi", "chatter", "duplicate", "outdated", "promo", "spam")
FACT_KINDS = ("static", "long_term", "short_term")
_ID = re.compile(r"^[0-9A-Za-z_-]{1,40}$")
_KEY = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
_COUNTS = ("liked_count", "collected_count", "share_count")
_NOTE_FIELDS = {
    "note_id",
    "place_id",
    "mentioned_place_ids",
    "kind",
    "title",
    "desc",
    "time",
    *_COUNTS,
    "tag_list",
    "comments",
    "labels",
}
_REQUIRED = ("note_id", "title", "desc", "time", *_COUNTS, "tag_list")
_COMMENT_FIELDS = ("comment_id", "time", "content", "like_count")
_LABEL_FIELDS = (
    "comment_id",
    "place_id",
    "kind",
    "key",
    "label",
    "stance",
    "credited_place_id",
    "valid_from",
    "valid_until",
    "text",
)
_LABEL_REQUIRED = ("place_id", "kind", "key", "label", "stance")


class _Invalid(Exception):
    """A field problem; the reader adds the line number."""


def write_corpus_jsonl(corpus: Corpus, path: str | Path) -> None:
    """Write ``corpus`` to ``path`` in the format :func:`read_corpus_jsonl` reads back."""
    comments: dict[str, list[CommentRecord]] = {n.note_id: [] for n in corpus.notes}
    labels: dict[str, list[LabelRecord]] = {n.note_id: [] for n in corpus.notes}
    for c in corpus.comments:
        comments[c.note_id].append(c)
    for label in corpus.labels:
        labels[label.note_id].append(label)
    with open(path, "w", encoding="utf-8") as out:
        for n in corpus.notes:
            row: dict[str, Any] = {
                "note_id": n.note_id,
                "place_id": n.place_id,
                "mentioned_place_ids": list(n.mentioned_place_ids),
                "kind": n.kind,
                "title": n.title,
                "desc": n.desc,
                "time": n.time.isoformat(),
                "liked_count": n.liked_count,
                "collected_count": n.collected_count,
                "share_count": n.share_count,
                "tag_list": n.tag_list,
                "comments": [
                    {
                        "comment_id": c.comment_id,
                        "time": c.time.isoformat(),
                        "content": c.content,
                        "like_count": c.like_count,
                    }
                    for c in comments[n.note_id]
                ],
            }
            if labels[n.note_id]:
                row["labels"] = [
                    {
                        "comment_id": e.comment_id,
                        "place_id": e.place_id,
                        "kind": e.kind,
                        "key": e.key,
                        "label": e.label,
                        "stance": e.stance,
                        "credited_place_id": e.credited_place_id,
                        "valid_from": _iso(e.valid_from),
                        "valid_until": _iso(e.valid_until),
                        "text": e.text,
                    }
                    for e in labels[n.note_id]
                ]
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def read_corpus_jsonl(path: str | Path, places: Sequence[PlaceRecord]) -> Corpus:
    """Read a real (or exported) corpus; the facts that hold are distilled from its labels by the evidence rule.

    Args:
        path: a UTF-8 JSON Lines file, one note per line; blank lines are skipped.
        places: the city's places; every place id in the file must be one of them.

    Raises:
        ValueError: ``"line N: <field> ..."`` for the first invalid line.
    """
    known = {p.place_id for p in places}
    notes: list[NoteRecord] = []
    comments: list[CommentRecord] = []
    labels: list[LabelRecord] = []
    note_ids: set[str] = set()
    comment_ids: set[str] = set()
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                note, note_comments, note_labels = _parse_line(line, known)
                _claim(note_ids, note.note_id, "note_id")
                for c in note_comments:
                    _claim(comment_ids, c.comment_id, "comments[].comment_id")
            except _Invalid as err:
                raise ValueError(f"line {number}: {err}") from None
            notes.append(note)
            comments += note_comments
            labels += note_labels
    facts, memories = distil(places, notes, comments, labels)
    return Corpus(facts=facts, notes=notes, comments=comments, memories=memories, labels=labels)


def _claim(seen: set[str], value: str, name: str) -> None:
    if value in seen:
        raise _Invalid(f"{name} {value!r} is used twice; ids must be unique in the file")
    seen.add(value)


def _parse_line(line: str, known: set[str]):
    try:
        row = json.loads(line)
    except json.JSONDecodeError as err:
        raise _Invalid(f"not valid JSON ({err.msg} at column {err.colno})") from None
    if not isinstance(row, dict):
        raise _Invalid("must be a JSON object (one note per line)")
    unknown = sorted(set(row) - _NOTE_FIELDS)
    if unknown:
        raise _Invalid(f"{unknown[0]} is not a known field (allowed: {', '.join(sorted(_NOTE_FIELDS))})")
    for name in _REQUIRED:
        if name not in row:
            raise _Invalid(f"{name} is missing (required: {', '.join(_REQUIRED)})")
    note_id = _id(row["note_id"], "note_id")
    place_id = row.get("place_id")
    if place_id is not None:
        place_id = _place(place_id, known, "place_id")
    mentioned = _mentioned(row.get("mentioned_place_ids"), place_id, known)
    kind = _kind(row.get("kind"), place_id, mentioned)
    when = _time(row["time"], "time")
    n_comments = row.get("comments", [])
    if not isinstance(n_comments, list) or len(n_comments) > 10:
        raise _Invalid("comments must be a list of at most 10 comment objects")
    note_comments = [_comment(c, i, note_id) for i, c in enumerate(n_comments)]
    note = NoteRecord(
        note_id=note_id,
        place_id=place_id,
        mentioned_place_ids=mentioned,
        kind=kind,
        title=_text(row["title"], "title", 300),
        desc=_text(row["desc"], "desc", None, empty=True),
        time=when,
        liked_count=_count(row["liked_count"], "liked_count"),
        collected_count=_count(row["collected_count"], "collected_count"),
        comment_count=len(note_comments),
        share_count=_count(row["share_count"], "share_count"),
        tag_list=_text(row["tag_list"], "tag_list", 500, empty=True),
    )
    raw_labels = row.get("labels", [])
    if not isinstance(raw_labels, list):
        raise _Invalid("labels must be a list of label objects")
    allowed = set(mentioned) | ({place_id} if place_id else set())
    comment_ids = {c.comment_id for c in note_comments}
    note_labels = [_label(e, i, note_id, known, allowed, comment_ids) for i, e in enumerate(raw_labels)]
    return note, note_comments, note_labels


def _id(value: Any, name: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise _Invalid(f"{name} must be 1-40 characters of letters, digits, '_' or '-', got {value!r}")
    return value


def _place(value: Any, known: set[str], name: str) -> str:
    if not isinstance(value, str) or value not in known:
        raise _Invalid(
            f"{name} {value!r} is not a place of this city (expected a known place_id such as "
            f"{min(known) if known else 'N123'!r})"
        )
    return value


def _mentioned(value: Any, place_id: str | None, known: set[str]) -> tuple[str, ...]:
    if value is None or value == []:
        return (place_id,) if place_id else ()
    if not isinstance(value, list):
        raise _Invalid("mentioned_place_ids must be a list of place ids")
    ids = tuple(_place(v, known, "mentioned_place_ids[]") for v in value)
    if len(set(ids)) != len(ids):
        raise _Invalid("mentioned_place_ids must not repeat a place id")
    if place_id and place_id not in ids:
        raise _Invalid(f"mentioned_place_ids must include place_id {place_id!r}")
    return ids


def _kind(value: Any, place_id: str | None, mentioned: tuple[str, ...]) -> str:
    if value is None:
        return "chatter" if place_id is None else ("multi" if len(mentioned) > 1 else "about")
    if value not in NOTE_KINDS:
        raise _Invalid(f"kind must be one of {', '.join(NOTE_KINDS)}, got {value!r}")
    if (value == "chatter") != (place_id is None):
        raise _Invalid("kind 'chatter' goes with place_id null, and only it does")
    return value


def _time(value: Any, name: str) -> datetime:
    try:
        when = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _Invalid(f"{name} must be an ISO-8601 date-time string, got {value!r}") from None
    if when.tzinfo is None:
        raise _Invalid(f"{name} must carry a UTC offset (e.g. '2025-03-01T12:00:00+00:00'), got {value!r}")
    return when.astimezone(UTC)


def _date(value: Any, name: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _Invalid(f"{name} must be null or an ISO date 'YYYY-MM-DD', got {value!r}") from None


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Invalid(f"{name} must be a non-negative integer, got {value!r}")
    return value


def _text(value: Any, name: str, limit: int | None, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise _Invalid(f"{name} must be a{'' if empty else ' non-empty'} string, got {value!r}")
    if limit is not None and len(value) > limit:
        raise _Invalid(f"{name} must be at most {limit} characters, got {len(value)}")
    return value


def _fields(value: Any, name: str, allowed: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise _Invalid(f"{name} must be an object with fields {', '.join(allowed)}")
    for field in value:
        if field not in allowed:
            raise _Invalid(f"{name}.{field} is not a known field (allowed: {', '.join(allowed)})")
    return value


def _comment(value: Any, i: int, note_id: str) -> CommentRecord:
    name = f"comments[{i}]"
    row = _fields(value, name, _COMMENT_FIELDS)
    for field in _COMMENT_FIELDS:
        if field not in row:
            raise _Invalid(f"{name}.{field} is missing (required: {', '.join(_COMMENT_FIELDS)})")
    return CommentRecord(
        comment_id=_id(row["comment_id"], f"{name}.comment_id"),
        note_id=note_id,
        time=_time(row["time"], f"{name}.time"),
        content=_text(row["content"], f"{name}.content", None),
        like_count=_count(row["like_count"], f"{name}.like_count"),
    )


def _label(value: Any, i: int, note_id: str, known: set[str], allowed: set[str], comment_ids: set[str]):
    name = f"labels[{i}]"
    row = _fields(value, name, _LABEL_FIELDS)
    for field in _LABEL_REQUIRED:
        if field not in row:
            raise _Invalid(f"{name}.{field} is missing (required: {', '.join(_LABEL_REQUIRED)})")
    comment_id = row.get("comment_id")
    if comment_id is not None and comment_id not in comment_ids:
        raise _Invalid(f"{name}.comment_id {comment_id!r} is not one of this note's comments (or null for the note)")
    place_id = _place(row["place_id"], known, f"{name}.place_id")
    if place_id not in allowed:
        raise _Invalid(f"{name}.place_id {place_id!r} must be the note's place_id or one of its mentioned_place_ids")
    if row["kind"] not in FACT_KINDS:
        raise _Invalid(f"{name}.kind must be one of {', '.join(FACT_KINDS)}, got {row['kind']!r}")
    key = row["key"]
    if not isinstance(key, str) or len(key) > 80 or not _KEY.match(key):
        raise _Invalid(f"{name}.key must be snake_case (a-z, 0-9, '_'; at most 80 characters), got {key!r}")
    if row["stance"] not in STANCES:
        raise _Invalid(f"{name}.stance must be one of {', '.join(STANCES)}, got {row['stance']!r}")
    credited = row.get("credited_place_id")
    if (credited is not None) != (row["stance"] == CREDITS):
        raise _Invalid(f"{name}.credited_place_id is given with stance {CREDITS!r}, and only with it")
    if credited is not None:
        credited = _place(credited, known, f"{name}.credited_place_id")
    valid_from = _date(row.get("valid_from"), f"{name}.valid_from")
    valid_until = _date(row.get("valid_until"), f"{name}.valid_until")
    if valid_from and valid_until and valid_from > valid_until:
        raise _Invalid(f"{name}.valid_from must not be after valid_until")
    return LabelRecord(
        note_id=note_id,
        comment_id=comment_id,
        place_id=place_id,
        kind=row["kind"],
        key=key,
        label=_text(row["label"], f"{name}.label", 200),
        stance=row["stance"],
        credited_place_id=credited,
        valid_from=valid_from,
        valid_until=valid_until,
        text=_text(row.get("text", ""), f"{name}.text", 2000, empty=True),
    )


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None
