"""The look-alike report: for each L2 case, the places a solver without notes cannot tell apart from its gold.

An L2 case is worth something only if its gold cannot be read off a place record: after every
visible field, tags included, at least ``MIN_LOOKALIKES`` places must remain that meet every
visible constraint of the question as well as the gold does, and a hidden memory (a long-term or
short-term fact, which only the notes reveal) must tell them apart. The independent verifier
computes the look-alikes (:func:`benchmark.cases.audit.case_lookalikes`); this module reports
them per case and per cell, with the kind of fact that settles each case.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from benchmark.cases.audit import AuditWorld, audit_world, case_lookalikes
from benchmark.cases.audit.evidence import MIN_LOOKALIKES
from benchmark.cases.document import CaseDocument
from benchmark.cases.needs import need_of
from environment.build.corpus.vocab import ALL_SPECS


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


def lookalike_report(*, documents: Iterable[CaseDocument], world: AuditWorld | None = None) -> LookalikeReport:
    """The look-alikes of every L2 case among ``documents`` (other levels have none to report), against the
    built city of each case (or ``world``)."""
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
                )
            )
    return LookalikeReport(tuple(rows))
