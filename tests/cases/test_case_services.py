import pytest
from django.core.exceptions import ValidationError

from benchmark.cases.document import normalise_question
from benchmark.cases.models import Case
from benchmark.cases.selectors import case_document
from benchmark.cases.services import (
    CaseVerificationError,
    case_create,
    case_duplicate_as_draft,
    case_reject,
    case_reverify,
    case_update,
    case_validate,
)
from tests.factories import routing_document, staff_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def curator():
    return staff_user("cura", curator=True)


def test_case_create_stores_the_document_and_records_an_event(curator):
    doc = routing_document()
    case = case_create(document=doc, actor=curator)
    assert case_document(case) == doc
    assert [(e.action, e.actor) for e in case.events.all()] == [("created", curator)]


def test_case_update_records_old_and_new_values_with_the_reason(curator):
    case = case_create(document=routing_document())
    old = case.question
    case_update(case=case, changes={"question": "Where is Museo Kivi?"}, actor=curator, reason="clearer")
    case.refresh_from_db()
    event = case.events.last()
    assert case.question == "Where is Museo Kivi?"
    assert (event.action, event.changes, event.reason) == (
        "edited",
        {"question": [old, "Where is Museo Kivi?"]},
        "clearer",
    )


def test_case_update_without_a_real_change_records_nothing(curator):
    case = case_create(document=routing_document())
    case_update(case=case, changes={"question": case.question}, actor=curator)
    assert case.events.count() == 1


def test_case_update_refuses_review_fields_and_invalid_documents(curator):
    case = case_create(document=routing_document())
    with pytest.raises(ValidationError, match="status"):
        case_update(case=case, changes={"status": "validated"}, actor=curator)
    with pytest.raises(ValidationError, match="reference_path"):
        case_update(case=case, changes={"reference_path": [{"tool": "x"}]}, actor=curator)
    case.refresh_from_db()
    assert case.status == "draft" and case.events.count() == 1


def test_editing_a_validated_case_sends_it_back_to_draft(curator, verification):
    case = case_validate(case=case_create(document=routing_document()), actor=curator)
    case_update(case=case, changes={"answer": {**case.answer, "total_distance_m": 1.0}}, actor=curator)
    case.refresh_from_db()
    assert case.status == "draft"
    assert case.events.last().changes["status"] == ["validated", "draft"]


def test_case_validate_marks_a_passing_case_validated_with_the_other_questions(curator, verification):
    other = case_create(document=routing_document())
    case = case_create(document=routing_document())
    case_validate(case=case, actor=curator)
    case.refresh_from_db()
    assert case.status == "validated"
    assert case.verification["ok"] is True and case.verification["at"]
    assert verification.calls == [(case.case_id, {normalise_question(other.question): other.case_id})]
    assert case.events.last().action == "validated"


def test_case_validate_refuses_when_verification_fails(curator, verification):
    case = case_create(document=routing_document())
    verification.failing[case.case_id] = ["route total 812.4 m differs from the legs (800.0 m)"]
    with pytest.raises(CaseVerificationError) as caught:
        case_validate(case=case, actor=curator)
    assert caught.value.failures == ["route total 812.4 m differs from the legs (800.0 m)"]
    case.refresh_from_db()
    assert case.status == "draft"
    assert case.verification["failures"] == verification.failing[case.case_id]
    assert case.events.last().action == "validation_refused"
    assert "812.4" in case.events.last().reason


def test_case_reject_needs_a_reason(curator):
    case = case_create(document=routing_document())
    with pytest.raises(ValidationError, match="reason"):
        case_reject(case=case, actor=curator, reason="   ")
    case_reject(case=case, actor=curator, reason="ambiguous: two cafes match")
    case.refresh_from_db()
    assert (case.status, case.rejection_reason) == ("rejected", "ambiguous: two cafes match")
    assert case.events.last().reason == "ambiguous: two cafes match"


def test_case_reverify_sends_a_failing_validated_case_back_to_draft(curator, verification):
    case = case_validate(case=case_create(document=routing_document()), actor=curator)
    verification.failing[case.case_id] = ["place N4 no longer exists"]
    result = case_reverify(case=case, actor=curator)
    case.refresh_from_db()
    assert result.ok is False
    assert case.status == "draft"
    assert case.verification["failures"] == ["place N4 no longer exists"]
    event = case.events.last()
    assert (event.action, event.changes["status"], event.reason) == (
        "reverified",
        ["validated", "draft"],
        "place N4 no longer exists",
    )


def test_case_reverify_keeps_a_passing_case_validated(curator, verification):
    case = case_validate(case=case_create(document=routing_document()), actor=curator)
    assert case_reverify(case=case, actor=curator).ok
    case.refresh_from_db()
    assert case.status == "validated" and case.events.last().action == "reverified"


def test_duplicate_as_draft_makes_a_new_draft_and_records_it_on_both(curator, verification):
    case = case_validate(case=case_create(document=routing_document()), actor=curator)
    first = case_duplicate_as_draft(case=case, actor=curator)
    second = case_duplicate_as_draft(case=case, actor=curator)
    assert (first.case_id, second.case_id) == (f"{case.case_id}-copy-1", f"{case.case_id}-copy-2")
    assert first.status == "draft" and first.answer == case.answer
    assert first.provenance["duplicated_from"] == case.case_id
    assert first.events.get().action == "duplicated"
    assert [e.changes for e in case.events.filter(action="duplicated")] == [
        {"copy": [None, first.case_id]},
        {"copy": [None, second.case_id]},
    ]
    assert Case.objects.get(pk=case.pk).status == "validated"
