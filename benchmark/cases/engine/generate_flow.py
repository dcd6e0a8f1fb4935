"""The generate_cases flow: generate, store, optionally verify and validate, and summarise."""

from __future__ import annotations

import time
from typing import TextIO

from benchmark.cases.document import TABLE4, case_type
from kernel.vocabulary import CELLS

from .runner import CellReport, _in_transaction, generate_cases


def cell_name(cell: tuple[str, str]) -> str:
    return case_type(*cell)


def cell_counts(count: int | None, cells: list[str]) -> dict[tuple[str, str], int]:
    """Table 4's counts, scaled to ``count`` in total (largest remainders), restricted to ``cells``."""
    by_name = {cell_name(c): c for c in CELLS}
    unknown = sorted(set(cells) - set(by_name))
    if unknown:
        raise ValueError(f"unknown cell(s) {', '.join(unknown)}; allowed: {', '.join(by_name)}")
    chosen = [by_name[n] for n in cells] if cells else list(CELLS)
    base: dict[tuple[str, str], int] = {c: TABLE4[c] for c in chosen}
    if count is None:
        return base
    if count < 1:
        raise ValueError("--count must be at least 1")
    total = sum(base.values())
    exact = {c: count * n / total for c, n in base.items()}
    out: dict[tuple[str, str], int] = {c: int(v) for c, v in exact.items()}
    for c in sorted(exact, key=lambda c: (-(exact[c] - out[c]), CELLS.index(c)))[: count - sum(out.values())]:
        out[c] += 1
    return out


def generate_and_store(
    *,
    seed: int,
    count: int | None,
    cells: list[str],
    city: str | None,
    validate: bool,
    progress: TextIO | None,
    paraphraser=None,
    release: str | None = None,
    workers: int = 1,
    split: str = "public",
) -> str:
    """Generate, store, optionally validate and freeze as ``release``; returns the printed summary.

    With ``release``, an existing release of that name means there is nothing to do (make
    demo relies on this), and the generated cases are validated and then frozen. ``split`` (public or
    hidden) picks the wording banks and is the split of the release frozen.
    """
    from tqdm import tqdm

    from benchmark.cases.models import Case, Release
    from benchmark.cases.phrasings import evidence_reuse
    from environment.tools.context import city_context

    from .services import generated_cases_store

    reused = evidence_reuse(split)
    if reused:
        raise ValueError(
            f"the {split} bank's need phrasings reuse the wording of the notes they point to ({len(reused)}): "
            + "; ".join(reused[:5])
        )
    context = city_context(city)
    counts = cell_counts(count, cells)
    if release and Release.objects.filter(name=release).exists():
        return f"Release {release!r} already exists; nothing generated."
    validate = validate or bool(release)
    started = time.perf_counter()
    bar = tqdm(total=sum(counts.values()), file=progress, disable=progress is None, unit="case")
    documents, reports = generate_cases(
        context=context,
        seed=seed,
        counts=counts,
        on_case=lambda _d: bar.update(1),
        paraphraser=paraphraser,
        workers=workers,
        split=split,
    )
    bar.close()
    generated_s = time.perf_counter() - started
    stored = generated_cases_store(documents=documents)
    lines = [
        _report_table(reports),
        f"Generated {len(documents)} cases in {generated_s:.1f} s "
        f"(city {context.city_name} {context.city_version[:12]}, seed {seed}, {split} wording); stored: "
        + f"created {stored['created']}, updated {stored['updated']}, unchanged {stored['unchanged']}, "
        f"kept {stored['kept']} (reviewed; {stored['kept_differing']} differ from this generation)",
    ]
    if validate:
        from benchmark.cases.services.cases import CaseVerificationError, case_validate

        failed, validated = [], 0
        cases = list(Case.objects.filter(case_id__in=[d.case_id for d in documents], status=Case.DRAFT))
        from benchmark.cases.selectors import case_document

        results = verified(context, [case_document(c) for c in cases], documents, workers, progress)
        for case in cases:
            try:
                case_validate(case=case, actor=None, replay_engine=False, result=results[case.case_id])
                validated += 1
            except CaseVerificationError as exc:
                failed.append(f"  {case.case_id}: {'; '.join(exc.failures)}")
        lines.append(f"Validated {validated} cases; {len(failed)} failed verification" + (":" if failed else "."))
        lines += failed
    if release:
        from benchmark.cases.services import release_freeze

        frozen = release_freeze(
            name=release,
            split=Release.HIDDEN if split == "hidden" else Release.PUBLIC,
            description=f"Data engine seed {seed}",
            cases=Case.objects.filter(case_id__in=[d.case_id for d in documents], status=Case.VALIDATED),
        )
        lines.append(
            f"Froze release {frozen.name!r}: {frozen.entries.count()} cases, content hash {frozen.content_hash[:12]}."
        )
    return "\n".join(lines)


def verified(context, documents: list, written: list, workers: int, progress: TextIO | None = None) -> dict:
    """{case_id: the verification of each of ``documents``}, in ``workers`` forked processes when there are several
    (the verifier's city is built first, so they share it), the same results as in one process. Each case's
    engine path was just recorded (it is not replayed), and a duplicate is looked for among the documents
    ``written`` now."""
    from tqdm import tqdm

    from benchmark.cases.audit import audit_world
    from benchmark.cases.document import normalise_question

    mine = {d.case_id: normalise_question(d.question) for d in written}
    jobs = [(d, {q: cid for cid, q in mine.items() if cid != d.case_id}) for d in documents]
    bar = tqdm(total=len(jobs), file=progress, disable=progress is None, unit="verified")
    if workers > 1 and len(jobs) > 1 and not _in_transaction():
        import multiprocessing

        from django.db import connections

        audit_world(context.city_name)  # built once here; the forked workers share it
        context.network  # noqa: B018
        connections.close_all()  # each forked worker opens its own database connection
        shares = [jobs[i::workers] for i in range(workers)]  # interleaved: every worker gets each cell's share
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            done = pool.map(_verify_in_worker, shares, chunksize=1)
        results: list = [None] * len(jobs)
        for i, share in enumerate(done):
            results[i::workers] = share
        bar.update(len(jobs))
    else:
        results = []
        for job in jobs:
            results.append(_verify_one(job))
            bar.update(1)
    bar.close()
    return {d.case_id: r for d, r in zip(documents, results)}


def _verify_one(job):
    from benchmark.cases.audit.verify import verify_case

    document, others = job
    return verify_case(document, other_questions=others, replay=False)


def _verify_in_worker(jobs: list) -> list:
    from django.db import connections

    try:
        return [_verify_one(job) for job in jobs]
    finally:
        connections.close_all()


TOP_REASONS = 2


def _report_table(reports: list[CellReport]) -> str:
    rows = [f"{'cell':<18} {'made':>5} {'target':>6} {'attempts':>8} {'seconds':>7}  top discard reasons"]
    for r in reports:
        reasons = ", ".join(f"{why} ({n})" for why, n in r.discards.most_common(TOP_REASONS))
        rows.append(f"{cell_name(r.cell):<18} {r.made:>5} {r.target:>6} {r.attempts:>8} {r.seconds:>7.1f}  {reasons}")
    rows.append(
        f"{'total':<18} {sum(r.made for r in reports):>5} {sum(r.target for r in reports):>6} "
        f"{sum(r.attempts for r in reports):>8} {sum(r.seconds for r in reports):>7.1f}"
    )
    return "\n".join(rows)
