"""Run the recipes until every cell has its cases: deterministic for a city version and a seed."""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmark.cases.audit import audit_world
from benchmark.cases.audit.evidence import recording_lookalikes
from benchmark.cases.audit.lookalike_report import case_signals
from benchmark.cases.audit.verify import verify_case
from benchmark.cases.document import TABLE4, CaseDocument, RequiredEvidence, case_type, normalise_question
from benchmark.cases.engine.kit.common import Draft, dated_question, label_value
from benchmark.cases.engine.kit.question_phrasing import Phrasebook
from benchmark.cases.engine.kit.session import Discard, EngineSession
from benchmark.cases.floors import floor_picks
from benchmark.cases.moments import query_moment
from benchmark.cases.phrasings import HIDDEN, PUBLIC
from benchmark.cases.rank_rules import RankQuota
from environment.tools.context import ToolContext
from kernel.vocabulary import CELLS, Category, Level

from .recipes import load_recipes

ENGINE_VERSION = "3.0"
MAX_ATTEMPTS_PER_CASE = 80
RANK_QUOTA_UNTIL = 75  # attempts per case after which an L2 cell stops refusing common ranks (it still fills)


@dataclass
class CellReport:
    cell: tuple[str, str]
    target: int
    made: int = 0
    attempts: int = 0
    discards: Counter = field(default_factory=Counter)
    seconds: float = 0.0


def attempt_rng(seed: int, cell: tuple[str, str], attempt: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{cell[0]}:{cell[1]}:{attempt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def generate_cases(
    *,
    context: ToolContext,
    seed: int = 0,
    counts: dict[tuple[str, str], int] | None = None,
    on_case: Callable[[CaseDocument], None] | None = None,
    paraphraser: Callable[[str], str] | None = None,
    workers: int = 1,
    split: str = PUBLIC,
) -> tuple[list[CaseDocument], list[CellReport]]:
    """Write cases for every cell (default: the paper's table 4, 667 cases) with the engine toolset.

    Every case is verified as it is written (verify.py); one that fails is discarded and
    another attempt takes its place, so what comes out passes verification. Cells are
    independent (each has its own random streams, skeleton counts and lookups), so with
    ``workers`` > 1 they are written in that many forked processes, with the same result. ``split``
    picks the wording banks (public or hidden: disjoint skeletons and need phrasings).
    """
    counts = counts if counts is not None else TABLE4
    if workers > 1 and paraphraser is None and sum(1 for c in CELLS if counts.get(c)) > 1 and not _in_transaction():
        results = _in_processes(context, seed, counts, workers, split)
    else:
        results = [_generate_cell(context, seed, cell, counts.get(cell, 0), paraphraser, split) for cell in CELLS]
    documents, reports = [], []
    for cell_documents, report in results:
        reports.append(report)
        for document in cell_documents:
            documents.append(document)
            if on_case:
                on_case(document)
    return documents, reports


def _generate_cell(
    context: ToolContext,
    seed: int,
    cell: tuple[str, str],
    target: int,
    paraphraser: Callable[[str], str] | None = None,
    split: str = PUBLIC,
) -> tuple[list[CaseDocument], CellReport]:
    recipes = load_recipes()
    report = CellReport(cell, target)
    documents: list[CaseDocument] = []
    signatures: set[str] = set()
    questions: set[str] = set()
    phrasebook = Phrasebook(split)
    memo: dict = {}  # per cell, so a cell's cases do not depend on which other cells were generated
    quota = RankQuota(target) if cell[1] == Level.L2 else None
    started = time.perf_counter()
    while report.made < report.target and report.attempts < report.target * MAX_ATTEMPTS_PER_CASE:
        rng = attempt_rng(seed, cell, report.attempts)
        report.attempts += 1
        session = EngineSession(context, phrasebook=phrasebook, memo=memo, rank_quota=quota)
        try:
            draft = recipes[cell](session, rng)
        except Discard as exc:
            report.discards[str(exc).split(":")[0]] += 1
            continue
        draft.question = dated_question(draft.question, draft.query)
        if draft.constraints.get("fact"):  # the grader checks the need on the day the question is about
            draft.constraints["fact"] = {
                **draft.constraints["fact"],
                "on": query_moment(draft.query).date().isoformat(),
            }
        question = normalise_question(draft.question)
        if draft.signature in signatures or question in questions:
            report.discards["duplicate of an earlier case"] += 1
            continue
        document = _document(context, seed, cell, report.made + 1, report.attempts - 1, draft, session, split)
        with recording_lookalikes() as found:
            verdict = verify_case(document, replay=False)  # the paths were just made; validation replays them
        if not verdict.ok:  # e.g. a rival the engine's capped searches missed, found by the verifier
            report.discards["failed verification: " + _reason(verdict.failures[0])] += 1
            continue
        signals = [case_signals(audit_world(document.city_name), document, f) for f in found] if quota else []
        refusal = quota.refusal(signals) if quota and report.attempts < target * RANK_QUOTA_UNTIL else None
        if refusal:  # spread the golds' ranks over the cell: no learned rank finds them much more than chance
            report.discards[refusal] += 1
            continue
        if paraphraser is not None:
            document = _paraphrased(document, draft, session, paraphraser, report)
        floors = floor_picks(document) if quota and signals else {}
        holding = quota is not None and report.attempts < target * RANK_QUOTA_UNTIL
        refusal = quota.floor_refusal(signals, floors) if quota and holding else None
        if refusal:  # no no-model agent finds the cell's golds more often than the rank rules may
            report.discards[refusal] += 1
            continue
        signatures.add(draft.signature)
        questions.add(question)
        phrasebook.commit(session.skeletons + session.variants)
        if quota:
            quota.take(signals, floors)
        report.made += 1
        documents.append(document)
    report.seconds = time.perf_counter() - started
    return documents, report


# The slowest cells first, so two workers finish at about the same time.
_SLOWEST_FIRST = [
    (Category.NEARBY_DISCOVERY, Level.L1),
    (Category.TRIP_DESIGN, Level.L2),
    (Category.ROUTING, Level.L1),
    (Category.NEARBY_DISCOVERY, Level.L0),
    (Category.ROUTING, Level.L2),
    (Category.TRIP_DESIGN, Level.L1),
    (Category.PLACE_PERCEPTION, Level.L1),
]


def _in_transaction() -> bool:
    """Forked workers need the database connection closed first, which an open transaction forbids."""
    from django.db import connection

    return connection.in_atomic_block


def _in_processes(context: ToolContext, seed: int, counts: dict, workers: int, split: str) -> list:
    import multiprocessing

    from django.db import connections

    context.network  # noqa: B018  (built once here; forked workers share it)
    connections.close_all()  # each forked worker opens its own database connection
    cells = sorted(CELLS, key=lambda c: _SLOWEST_FIRST.index(c) if c in _SLOWEST_FIRST else len(_SLOWEST_FIRST))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        jobs = [(context.city_name, seed, c, counts.get(c, 0), split) for c in cells]
        done = dict(zip(cells, pool.starmap(_cell_in_worker, jobs, chunksize=1)))
    return [done[cell] for cell in CELLS]


def _cell_in_worker(city_name: str, seed: int, cell: tuple[str, str], target: int, split: str):
    from django.db import connections

    from environment.tools.context import city_context

    try:  # the city's road network was built before the fork: the new context finds it in the process cache
        return _generate_cell(city_context(city_name), seed, cell, target, split=split)
    finally:
        connections.close_all()


def _reason(failure: str) -> str:
    """The kind of a verification failure, without the case's particulars (for the discard summary)."""
    if failure.startswith("independent check: "):
        return failure.split(": ")[1]
    return failure.split(":")[0][:50]


def _paraphrased(document: CaseDocument, draft: Draft, session: EngineSession, paraphraser, report: CellReport):
    """The document with a paraphrased question, or unchanged when the paraphrase changes the meaning."""
    from environment.build.corpus.vocab import ALL_SPECS

    from .paraphrase import keeps_meaning

    names = sorted(_names_seen(session, document.answer), key=len, reverse=True)
    fact = draft.constraints.get("fact")
    forbidden = []
    if fact:
        spec = ALL_SPECS[fact["key"]]
        forbidden = [label_value(fact["key"]), *spec.evidence]
    try:
        text = paraphraser(document.question)
    except Exception as exc:  # a failing model must not stop generation; the original question stays
        report.discards[f"paraphrase failed ({type(exc).__name__})"] += 1
        return document
    reason = keeps_meaning(document.question, text, names=names, forbidden=forbidden)
    if reason:
        report.discards[f"paraphrase rejected: {reason.split(' (')[0]}"] += 1
        return document
    provenance = {**document.provenance, "paraphrase": {"original": document.question}}
    return document.model_copy(update={"question": text, "provenance": provenance})


def _names_seen(session: EngineSession, answer) -> set[str]:
    """Place names this attempt looked up or answered with (protected in paraphrases)."""
    from benchmark.cases.audit.checks import answer_names

    looked_up = {
        s.arguments["query_name"]
        for s in session.reference_path
        if s.tool == "place_search" and s.arguments.get("query_name")
    }
    return looked_up | set(answer_names(answer))


def _document(context, seed, cell, number, attempt, draft: Draft, session: EngineSession, split: str) -> CaseDocument:
    category, level = cell
    kind = case_type(category, level)
    return CaseDocument(
        type=kind,
        question=draft.question,
        answer=draft.answer,
        # The engine's major version is part of the id: cases an older engine wrote (and curators
        # reviewed) keep their ids and are never mistaken for, or overwritten by, this engine's.
        # A hidden release's cases (the hidden wording banks) carry "h" after the seed.
        case_id=f"{context.city_name}-e{ENGINE_VERSION.split('.')[0]}-s{seed}{'h' if split == HIDDEN else ''}-"
        f"{kind}-{number:03d}",
        category=category,
        level=level,
        reference_path=session.reference_path,
        engine_path=session.engine_path,
        required_evidence=RequiredEvidence(attributes=draft.attributes, note_ids=sorted(set(draft.note_ids))),
        constraints=draft.constraints,
        uniqueness={"query": draft.query, **({"found": draft.notes} if draft.notes else {})},
        provenance={
            "generator": "lifeplanner-data-engine",
            "version": ENGINE_VERSION,
            "seed": seed,
            "attempt": attempt,
            "recipe": kind,
            "split": split,
            "skeletons": list(session.skeletons),
            "variants": [v.split(":", 1)[1] for v in session.variants],
            "city_name": context.city_name,
            "city_version": context.city_version,
        },
        city_name=context.city_name,
        city_version=context.city_version,
    )
