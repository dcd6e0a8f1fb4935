"""The look-alike report: for each L2 case, the places a solver without notes cannot tell apart from its gold.

An L2 case is worth something only if its gold cannot be read off a place record: after every
visible field, tags included, at least ``MIN_LOOKALIKES`` places must remain that meet every
visible constraint of the question as well as the gold does, and a hidden memory (a long-term or
short-term fact, which only the notes reveal) must tell them apart. The independent verifier
computes the look-alikes (:func:`benchmark.cases.audit.case_lookalikes`); this module reports
them per case and per cell, with the kind of fact that settles each case, the look-alikes whose
notes talk about the need without it counting (decoys), and what fixed rank rules would pick over
each cell (:mod:`.rank_rules`).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from benchmark.cases.audit import AuditWorld, audit_world, case_lookalikes
from benchmark.cases.audit.checks import tool_search
from benchmark.cases.audit.evidence import MIN_LOOKALIKES, Lookalikes, keyword_counts
from benchmark.cases.audit.reading import TOOL_BUDGET, ReadingPath, reading_path
from benchmark.cases.document import CaseDocument
from benchmark.cases.needs import need_of
from benchmark.cases.rank_rules import CaseSignals, rules_table
from environment.build.corpus.vocab import ALL_SPECS
from environment.tools.context import city_context


@dataclass(frozen=True)
class LookalikeRow:
    """One implicit-need gold of an L2 case (``problem`` says why the verifier found none, if so)."""

    case_id: str
    cell: str
    need: str
    fact_kind: str  # the kind of fact that settles it: static, long_term or short_term
    gold: str
    gold_name: str
    lookalikes: tuple[str, ...]
    lookalike_names: tuple[str, ...]
    count: int | None
    problem: str = ""
    decoys: int = 0
    signals: CaseSignals | None = None
    path: ReadingPath | None = None  # the reading path the verifier built for it (audit/reading.py)
    replayed: ReadingPath | None = None  # the same path replayed through the real search_notes (--replay)


@dataclass(frozen=True)
class LookalikeReport:
    rows: tuple[LookalikeRow, ...]
    minimum: int = MIN_LOOKALIKES

    def short(self) -> list[LookalikeRow]:
        """The rows of cases a solver without notes could settle, or that the verifier refused: fewer
        look-alikes than the minimum, a gold a visible field gives away, a check that failed after the
        look-alikes were found (the gold is the best of them, counting keyword hits finds it), or an L2 case
        whose look-alikes the verifier never reached."""
        return [r for r in self.rows if r.count is None or r.count < self.minimum or r.problem]

    def table(self) -> str:
        """Per L2 cell: cases, how many a long-term and a short-term fact settle, and look-alikes per case."""
        lines = [
            f"{'cell':<12} {'cases':>5} {'long_term':>9} {'short_term':>10} {'other':>5} "
            f"{'look-alikes min':>15} {'median':>6} {'mean':>6}"
        ]
        for cell in sorted({r.cell for r in self.rows}):
            rows = [r for r in self.rows if r.cell == cell]
            kinds = [r.fact_kind for r in rows if r.count is not None]
            long, short = kinds.count("long_term"), kinds.count("short_term")
            counts = [r.count for r in rows if r.count is not None]
            lines.append(
                f"{cell:<12} {len({r.case_id for r in rows}):>5} {long:>9} {short:>10} {len(kinds) - long - short:>5} "
                + (
                    f"{min(counts):>15} {statistics.median(counts):>6g} {statistics.fmean(counts):>6.1f}"
                    if counts
                    else f"{'-':>15} {'-':>6} {'-':>6}"
                )
            )
        return "\n".join(lines)

    def evidence_table(self) -> str:
        """Per L2 cell: look-alikes and decoys per case (minimum and median), and the reading paths' length
        (median and longest, in tool calls; the budget is ``TOOL_BUDGET``)."""
        lines = [
            f"{'cell':<12} {'look-alikes min':>15} {'median':>6} {'decoys min':>10} {'median':>6} "
            f"{'path median':>11} {'longest':>7}"
        ]
        for cell in sorted({r.cell for r in self.rows}):
            rows = [r for r in self.rows if r.cell == cell and r.count is not None]
            if rows:
                alike, decoys = [r.count or 0 for r in rows], [r.decoys for r in rows]
                paths = [r.path.length for r in rows if r.path is not None]
                lines.append(
                    f"{cell:<12} {min(alike):>15} {statistics.median(alike):>6g} "
                    f"{min(decoys):>10} {statistics.median(decoys):>6g} "
                    + (f"{statistics.median(paths):>11g} {max(paths):>7}" if paths else f"{'-':>11} {'-':>7}")
                )
        return "\n".join(lines)

    def replay_table(self) -> str:
        """Per L2 cell, the reading paths replayed through the real ``search_notes``: searches, those that fill
        a page, notes listed, the replayed paths' length (median, longest), and in how many paths the rule,
        applied to what the tool lists, finds the gold alone holding the need, the gold not holding it, or a
        look-alike holding it too."""
        lines = [
            f"{'cell':<12} {'paths':>5} {'searches':>8} {'full pages':>10} {'notes listed':>12} "
            f"{'path median':>11} {'longest':>7} {'over 30':>7} {'settled':>7} {'gold unread':>11} {'rival holds':>11}"
        ]
        for cell in sorted({r.cell for r in self.rows}):
            paths = [r.replayed for r in self.rows if r.cell == cell and r.replayed is not None]
            if not paths:
                continue
            outcomes = [p.outcome for p in paths]
            lengths = [p.length for p in paths]
            lines.append(
                f"{cell:<12} {len(paths):>5} {sum(p.counts().get('search_notes', 0) for p in paths):>8} "
                f"{sum(p.full_pages for p in paths):>10} {sum(p.listed for p in paths):>12} "
                f"{statistics.median(lengths):>11g} {max(lengths):>7} {sum(1 for n in lengths if n > TOOL_BUDGET):>7} "
                f"{outcomes.count('settled'):>7} {outcomes.count('gold unread'):>11} "
                f"{outcomes.count('rival holds'):>11}"
            )
        return "\n".join(lines)

    def over_budget(self) -> list[LookalikeRow]:
        """The rows whose reading path is longer than the agent's tool budget."""
        return [r for r in self.rows if r.path is not None and r.path.length > TOOL_BUDGET]

    def rank_table(self) -> str:
        """What fixed rules that read no note would pick, per cell (:func:`.rank_rules.rules_table`)."""
        cells: dict[str, list[CaseSignals]] = {}
        for row in self.rows:
            if row.signals is not None:
                cells.setdefault(row.cell, []).append(row.signals)
        return rules_table(cells)


def case_signals(world: AuditWorld, doc: CaseDocument, found: Lookalikes) -> CaseSignals:
    """What a solver without notes sees of the gold and its look-alikes: the question's measure, rating, cost,
    the order options are named in, and keyword hits of the need's words in the notes naming each place."""
    places = (found.gold, *found.lookalikes)
    counts = keyword_counts(world)
    signals: dict[str, dict[str, float]] = {
        "measure": dict(found.measure),
        "rating": {p: r for p in places if (r := world.place(p).rating) is not None},
        "cost": {p: float(c) for p in places if (c := world.place(p).cost) is not None},
        "hits": {p: float(counts.hits(p, found.need)[0]) for p in places},
    }
    named = (doc.uniqueness or {}).get("query", {}).get("places") or []
    if named:
        signals["order"] = {p: float(i) for i, p in enumerate(named)}
    return CaseSignals(found.gold, places, signals)


def lookalike_report(
    *, documents: Iterable[CaseDocument], world: AuditWorld | None = None, replay: bool = False
) -> LookalikeReport:
    """The look-alikes of every L2 case among ``documents`` (other levels have none to report), against the
    built city of each case (or ``world``); with ``replay``, each reading path replayed through the real
    ``search_notes`` of the case's city too."""
    rows: list[LookalikeRow] = []
    for doc in documents:
        if doc.level != "L2":
            continue
        city = world or audit_world(doc.city_name)
        result = case_lookalikes(doc, world=city)
        cell = doc.type
        if not result.found:
            problem = result.failure or "the verifier checked no implicit need"
            rows.append(LookalikeRow(doc.case_id, cell, "-", "-", "-", "-", (), (), None, problem))
            continue
        query = (doc.uniqueness or {}).get("query") or {}
        for found in result.found:
            gold = city.places.get(found.gold)
            rows.append(
                LookalikeRow(
                    case_id=doc.case_id,
                    cell=cell,
                    need=found.need,
                    fact_kind=ALL_SPECS[need_of(found.need).key].kind,
                    gold=found.gold,
                    gold_name=gold.name if gold else found.gold,
                    lookalikes=found.lookalikes,
                    lookalike_names=tuple(city.place(p).name for p in found.lookalikes),
                    count=len(found.lookalikes),
                    problem=f"visible: the gold's {found.visible} shows the need" if found.visible else result.failure,
                    decoys=len(found.decoys),
                    signals=case_signals(city, doc, found),
                    path=reading_path(city, query, found),
                    replayed=reading_path(city, query, found, search=tool_search(city_context(doc.city_name)))
                    if replay
                    else None,
                )
            )
    return LookalikeReport(tuple(rows))
