"""Verification: a case may be validated only when its evidence still proves its answer.

Checks (each failure is a sentence a curator can act on):
1. Replaying the reference path (agent toolset) through the gateway gives the same
   observations (digests) and ends with submit_answer(answer).
2. Replaying the engine path (engine toolset) gives the same observations.
3. The independent verifier (``audit``) solves the case's query against the whole city and
   finds the gold answer, winning by the stated margins, with every stated rule binding; and
   each L2 gold's reading path, replayed through the real ``search_notes``, settles the gold
   within the agent's tool budget (``audit.reading``).
4. Every place_id, note_id and route total in the answer was in a reference observation
   ("fetched before cited"); route totals equal the sum of the reference routing legs.
5. Every cited note_id exists and supports one of the case's facts; every cited attribute
   exists on its place.
6. The question is not a duplicate of another case's question.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from benchmark.cases.audit.evidence import recording_lookalikes
from benchmark.cases.document import CaseDocument, normalise_question

from .checks import run_checks


@dataclass
class VerificationResult:
    ok: bool
    failures: list[str] = field(default_factory=list)
    checks: int = 0
    # per L2 gold, what the independent verifier weighed it against (the case page's evidence card):
    # {"gold", "need", "lookalikes", "decoys"}
    evidence: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        out: dict = {"ok": self.ok, "failures": self.failures, "checks": self.checks}
        if self.evidence:
            out["evidence"] = self.evidence
        return out


def verify_case(
    doc: CaseDocument, *, other_questions: Collection[str] = frozenset(), replay: bool = True
) -> VerificationResult:
    """Verify ``doc`` against its city; ``other_questions`` are the normalised questions of other cases
    (a mapping to their case ids names the duplicated case).

    ``replay=False`` skips replaying the engine path (the data engine uses it for a case whose calls it has
    just made; validation always replays both paths)."""
    with recording_lookalikes() as found:
        failures, checks = run_checks(doc, other_questions=other_questions, replay_engine=replay)
    weighed = {f.gold: f for f in found}  # the last check of each gold: the verifier's own, after any earlier one
    evidence = [
        {"gold": f.gold, "need": f.need, "lookalikes": list(f.lookalikes), "decoys": list(f.decoys)}
        for f in weighed.values()
    ]
    return VerificationResult(ok=not failures, failures=failures, checks=checks, evidence=evidence)


def documents_verify(
    *,
    documents: list[CaseDocument],
    population: Iterable[CaseDocument] | None = None,
) -> list[tuple[CaseDocument, VerificationResult]]:
    """Verify each document; writes nothing.

    Args:
        documents: the documents to verify.
        population: the documents whose questions count as "other questions" (default:
            ``documents``); a document never counts against itself.
    """
    pool: dict[str, list[str]] = defaultdict(list)  # question -> the case ids asking it
    for d in documents if population is None else population:
        pool[normalise_question(d.question)].append(d.case_id)
    results = []
    for doc in documents:
        own = normalise_question(doc.question)
        rivals = list(pool.get(own, []))
        if doc.case_id in rivals:
            rivals.remove(doc.case_id)  # a document never counts against itself
        others = {own: rivals[0]} if rivals else {}  # the check looks up the document's own question only
        results.append((doc, verify_case(doc, other_questions=others)))
    return results
