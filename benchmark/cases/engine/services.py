"""Store what the data engine wrote."""

from __future__ import annotations

from collections.abc import Iterable

from benchmark.cases.document import CaseDocument
from benchmark.cases.models import Case
from benchmark.cases.selectors import case_document
from benchmark.cases.services.cases import case_apply, case_create


def generated_cases_store(*, documents: Iterable[CaseDocument], actor=None) -> dict[str, int]:
    """Create new cases as drafts; refresh drafts whose content changed; never touch reviewed cases.

    Returns counts: created, updated, unchanged, kept (validated or rejected cases left as they are)
    and kept_differing (those of them whose content differs from what was generated now: with the
    same city version and seed this is 0, the engine being deterministic).
    """
    counts = {"created": 0, "updated": 0, "unchanged": 0, "kept": 0, "kept_differing": 0}
    existing = {c.case_id: c for c in Case.objects.filter(case_id__in=[d.case_id for d in documents])}
    for document in documents:
        case = existing.get(document.case_id)
        if case is None:
            case_create(document=document, actor=actor, action="generated")
            counts["created"] += 1
        elif case.status != Case.DRAFT:
            counts["kept"] += 1
            counts["kept_differing"] += case_document(case).content_sha256() != document.content_sha256()
        elif case_document(case).content_sha256() == document.content_sha256():
            counts["unchanged"] += 1
        else:
            values = document.model_dump(mode="json", exclude={"case_id", "status", "rejection_reason"})
            case_apply(case=case, values=values, actor=actor, action="regenerated")
            counts["updated"] += 1
    return counts
