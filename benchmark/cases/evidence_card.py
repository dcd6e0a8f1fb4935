"""The evidence card of an L2 case: why its gold is right, in a form a curator checks in a minute.

From the look-alikes the independent verifier weighed the gold against (stored with the case's
verification, ``VerificationResult.evidence``) and the hidden evidence labels of the notes, it
shows, for each gold: the need and the facts that meet it, the moment the question is about, the
evidence rule, the notes and comments that settle the gold (what the rule counts, and any that do
not), and for the rivals whose notes talk about the need (the decoys), every such note or comment
with the reason it does not count under the rule. Nothing here decides anything: it reads what
the verifier decided, through the one evidence rule (``environment.evidence``).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from benchmark.cases.moments import query_moment
from environment.build.corpus.vocab import ALL_SPECS
from environment.evidence import MIN_SUPPORTS, NOT_COUNTED, RESETS, SUPPORTS, Item, fact_verdict
from environment.selectors import EvidenceRow, city_evidence_rows, place_points

from .needs import need_of

RULE = (
    f"A fact holds at a place at the question's moment when at least {MIN_SUPPORTS} notes or comments dated by "
    "then support it, after the last one that denies it or reports that it ended; a dated state's support counts "
    "only on the days it names; questions, hearsay, comparisons that credit another place, adverts and spam never "
    "count, for or against."
)
RIVALS_SHOWN = 8  # decoys shown per gold, the ones with the most talk first


def evidence_card(*, level: str, city_name: str, uniqueness: dict, verification: dict) -> dict | None:
    """The card of an L2 case from its document's fields and its stored verification (None for other levels,
    or a case whose verification weighed no gold)."""
    weighed = (verification or {}).get("evidence") or []
    if level != "L2" or not weighed:
        return None
    at = query_moment((uniqueness or {}).get("query") or {})
    golds = [_gold_card(city_name, record, at) for record in weighed]
    return {"rule": RULE, "moment": at, "golds": golds}


def _gold_card(city_name: str, record: dict, at: datetime) -> dict:
    need = need_of(record["need"])
    keys = need.satisfied_by
    decoys = list(record.get("decoys") or [])
    rows = city_evidence_rows(city_name=city_name, place_ids=[record["gold"], *decoys], keys=keys)
    by_place: dict[str, list[EvidenceRow]] = defaultdict(list)
    for row in rows:
        by_place[row.place_id].append(row)
    talk = sorted(decoys, key=lambda p: (-len(by_place.get(p, [])), p))[:RIVALS_SHOWN]
    names = {p.place_id: p.name for p in place_points(city_name=city_name, place_ids=[record["gold"], *talk]).values()}
    return {
        "need": need.key,
        "facts": [ALL_SPECS[key].label for key in keys],
        "gold": {"place_id": record["gold"], "name": names.get(record["gold"], record["gold"])},
        "gold_items": _items(by_place.get(record["gold"], []), at),
        "lookalikes": len(record.get("lookalikes") or []),
        "decoys": len(decoys),
        "rivals": [{"place_id": p, "name": names.get(p, p), "items": _items(by_place.get(p, []), at)} for p in talk],
    }


def _items(rows: list[EvidenceRow], at: datetime) -> list[dict]:
    """Each labelled note or comment of one place, with whether the rule counts it and why (not)."""
    out = []
    for key in sorted({row.key for row in rows}):
        of_key = [row for row in rows if row.key == key]
        items = {id(row): _item(row) for row in of_key}
        verdict = fact_verdict(items.values(), at)
        counted = {i.ref for i in verdict.counted} if verdict.holds else set()
        for row in of_key:
            item = items[id(row)]
            out.append(
                {
                    "note_id": row.note_id,
                    "comment_id": row.comment_id,
                    "time": item.time,
                    "text": row.text,
                    "stance": row.stance,
                    "counts": item.ref in counted,
                    "why": _why(item, verdict, at, counted),
                    "fact": ALL_SPECS[key].label,
                    "holds": verdict.holds,
                    "verdict": verdict.why,
                }
            )
    return sorted(out, key=lambda i: (i["time"], i["note_id"], i["comment_id"]))


def _item(row: EvidenceRow) -> Item:
    item = row.item()
    return Item(item.time.replace(tzinfo=None), item.stance, item.valid_from, item.valid_until, item.ref)


def _why(item: Item, verdict, at: datetime, counted: set[str]) -> str:
    if item.ref in counted:
        return "counts: a support dated by the question's moment, after any denial"
    if item.stance != SUPPORTS:
        resets = " (resets the count)" if item.stance in RESETS else ""
        return f"does not count: it {NOT_COUNTED[item.stance]}{resets}"
    if item.time > at:
        return "does not count: written after the question's moment"
    if verdict.reset is not None and item.time <= verdict.reset.time:
        return f"does not count: a later item {NOT_COUNTED[verdict.reset.stance]} ({verdict.reset.time:%Y-%m-%d})"
    dated = item.valid_from is not None or item.valid_until is not None
    if dated and not (item.valid_from or at.date()) <= at.date() <= (item.valid_until or at.date()):
        return f"does not count: the dates it names do not cover {at:%d %B %Y}"
    return f"does not count alone: the rule needs {MIN_SUPPORTS} supports, and this place has fewer"
