"""Case curation: create, edit, validate, reject, re-verify and duplicate, each with an audit event."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pydantic
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from benchmark.cases.audit import verify as verification
from benchmark.cases.audit.verify import VerificationResult
from benchmark.cases.models import Case, CaseEvent

from ..document import CaseDocument
from ..selectors import DOCUMENT_FIELDS, case_document, case_other_questions

# What an edit may change; review state changes only through validate, reject and re-verify.
EDITABLE_FIELDS = tuple(f for f in DOCUMENT_FIELDS if f not in ("case_id", "status", "rejection_reason"))


class CaseVerificationError(ValidationError):
    """Verification failed, so the case was not validated; ``failures`` says why."""

    def __init__(self, case_id: str, failures: list[str]):
        self.case_id, self.failures = case_id, list(failures)
        super().__init__([f"{case_id}: {failure}" for failure in self.failures] or [f"{case_id}: not verified"])


def case_create(*, document: CaseDocument, actor=None, action: str = "created") -> Case:
    """Store a new case from its document and record ``action`` in its history."""
    with transaction.atomic():
        case = Case.objects.create(**document.model_dump(mode="json"))
        CaseEvent.objects.create(case=case, actor=actor, action=action)
    return case


def case_update(*, case: Case, changes: dict[str, Any], actor, reason: str = "") -> Case:
    """Apply an edit to the case's content and record each field as ``[old, new]``.

    Only document fields other than case_id and the review state may change, and the edited
    case must still be a valid document. Editing a validated case sends it back to draft:
    its validation was about the old content.

    Raises:
        ValidationError: an unknown or read-only field, or a value the document rejects.
    """
    unknown = sorted(set(changes) - set(EDITABLE_FIELDS))
    if unknown:
        raise ValidationError(f"these fields cannot be edited: {', '.join(unknown)}")
    values = _document_values(case, changes)
    values = {name: values[name] for name in changes}
    if any(getattr(case, name) != value for name, value in values.items()) and case.status == Case.VALIDATED:
        values["status"] = Case.DRAFT
    return case_apply(case=case, values=values, actor=actor, action="edited", reason=reason)


def case_apply(*, case: Case, values: dict[str, Any], actor, action: str, reason: str = "") -> Case:
    """Write ``values`` onto the case and record the fields that really changed (internal)."""
    diff = {name: [getattr(case, name), value] for name, value in values.items() if getattr(case, name) != value}
    if not diff and action == "edited":
        return case
    with transaction.atomic():
        for name, (_old, new) in diff.items():
            setattr(case, name, new)
        case.save()
        CaseEvent.objects.create(case=case, actor=actor, action=action, changes=diff, reason=reason)
    return case


def case_validate(
    *,
    case: Case,
    actor,
    replay_engine: bool = True,
    other_questions: Collection[str] | None = None,
    result: VerificationResult | None = None,
) -> Case:
    """Verify the case and mark it validated if every check passes.

    The verification is stored either way (with its time), and a refusal is recorded in the
    history with the failures as its reason. ``replay_engine=False`` skips replaying the data
    engine's own path: the engine passes it for cases it has just written against this city
    version (the reference path is always replayed, the independent verifier always runs).
    ``other_questions`` replaces the questions a duplicate is looked for in (default: every
    other case's); the engine passes those of the release it is writing. ``result``: the verification
    of the case's current document, computed elsewhere (the engine verifies its cases in worker
    processes and stores the results here, in one process).

    Raises:
        CaseVerificationError: a check failed; the case keeps its status.
    """
    if result is None:
        result = _verify(case, replay_engine=replay_engine, other_questions=other_questions)
    stored = _stored(result)
    if not result.ok:
        case_apply(
            case=case,
            values={"verification": stored},
            actor=actor,
            action="validation_refused",
            reason="; ".join(result.failures),
        )
        raise CaseVerificationError(case.case_id, result.failures)
    return case_apply(
        case=case,
        values={"status": Case.VALIDATED, "rejection_reason": "", "verification": stored},
        actor=actor,
        action="validated",
    )


def case_reject(*, case: Case, actor, reason: str) -> Case:
    """Reject the case; the reason is required and kept on the case and in its history.

    Raises:
        ValidationError: the reason is empty.
    """
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("a rejection needs a reason")
    return case_apply(
        case=case,
        values={"status": Case.REJECTED, "rejection_reason": reason},
        actor=actor,
        action="rejected",
        reason=reason,
    )


def case_reverify(*, case: Case, actor) -> VerificationResult:
    """Run verification again and store it; a validated case that now fails goes back to draft."""
    result = _verify(case)
    values: dict[str, Any] = {"verification": _stored(result)}
    if not result.ok and case.status == Case.VALIDATED:
        values["status"] = Case.DRAFT
    case_apply(case=case, values=values, actor=actor, action="reverified", reason="; ".join(result.failures))
    return result


def case_duplicate_as_draft(*, case: Case, actor) -> Case:
    """Copy the case as a new draft (case_id ``<original>-copy-N``) for a curator to rework."""
    doc = case_document(case).model_copy(
        update={"case_id": _copy_id(case.case_id), "status": Case.DRAFT, "rejection_reason": ""}
    )
    doc.provenance = {**doc.provenance, "duplicated_from": case.case_id}
    with transaction.atomic():
        copy = case_create(document=doc, actor=actor, action="duplicated")
        copy.events.update(changes={"case_id": [case.case_id, copy.case_id]})
        CaseEvent.objects.create(case=case, actor=actor, action="duplicated", changes={"copy": [None, copy.case_id]})
    return copy


def _copy_id(case_id: str) -> str:
    max_length = Case._meta.get_field("case_id").max_length
    assert max_length is not None  # case_id is a CharField with a max_length
    n = 1
    while True:
        suffix = f"-copy-{n}"
        candidate = case_id[: max_length - len(suffix)] + suffix
        if not Case.objects.filter(case_id=candidate).exists():
            return candidate
        n += 1


def _verify(
    case: Case, *, replay_engine: bool = True, other_questions: Collection[str] | None = None
) -> VerificationResult:
    others = case_other_questions(case=case) if other_questions is None else other_questions
    return verification.verify_case(case_document(case), other_questions=others, replay=replay_engine)


def _stored(result: VerificationResult) -> dict:
    return {**result.to_dict(), "at": timezone.now().isoformat()}


def _document_values(case: Case, changes: dict[str, Any]) -> dict[str, Any]:
    """The case's document fields with ``changes`` applied, validated and in JSON form."""
    data = {name: getattr(case, name) for name in DOCUMENT_FIELDS} | changes
    try:
        return CaseDocument.model_validate(data).model_dump(mode="json")
    except pydantic.ValidationError as exc:
        raise ValidationError(
            {
                str(err["loc"][0]) if err["loc"] else "document": f"{'.'.join(map(str, err['loc']))}: {err['msg']}"
                for err in exc.errors(include_url=False)
            }
        ) from None
