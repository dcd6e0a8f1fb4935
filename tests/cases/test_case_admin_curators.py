"""Curators in the admin: the group alone opens it, one history, frozen cases, a required reason, a
duplicate named, and messages in correct English."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from benchmark.cases.models import Case
from benchmark.cases.services import case_create, case_reverify, case_update, case_validate, release_freeze
from tests.cases.test_case_admin import CHANGELIST, change_url, edit_form
from tests.factories import routing_document

pytestmark = pytest.mark.django_db


def curator_without_staff(username: str = "plain-curator") -> User:
    user = User.objects.create_user(username=username, password="pw", is_staff=False)
    user.groups.add(Group.objects.get(name="Curators"))
    return user


def test_the_curators_group_alone_opens_the_admin_and_leaving_it_closes_it(client):
    user = curator_without_staff()
    client.force_login(user)
    assert client.get("/admin/").status_code == 200
    assert client.get(CHANGELIST).status_code == 200
    user.groups.clear()
    assert client.get("/admin/")["Location"].startswith("/admin/login/")
    assert client.get(CHANGELIST).status_code == 302


def test_a_curator_without_staff_status_signs_in_on_the_admin_login_page(client):
    curator_without_staff("signing-curator")
    User.objects.create_user(username="nobody", password="pw")
    refused = client.post("/admin/login/", {"username": "nobody", "password": "pw", "next": "/admin/"})
    assert refused.status_code == 200 and "/admin/" not in refused.get("Location", "")
    signed = client.post("/admin/login/", {"username": "signing-curator", "password": "pw", "next": "/admin/"})
    assert signed.status_code == 302 and signed["Location"] == "/admin/"


def test_the_history_button_shows_the_cases_audit_history(client):
    client.force_login(curator_without_staff())
    case = case_create(document=routing_document())
    case_update(case=case, changes={"question": "Walk it, please?"}, actor=None, reason="clearer wording")
    page = client.get(f"{CHANGELIST}{case.pk}/history/").content.decode()
    assert "audit history" in page and "created" in page and "edited" in page
    assert "clearer wording" in page and "Walk it, please?" in page
    assert "doesn’t have a change history" not in page and "no change history" not in page.lower()


def test_an_edit_needs_a_reason_in_a_visible_field(client):
    client.force_login(curator_without_staff())
    case = case_create(document=routing_document())
    page = client.get(change_url(case)).content.decode()
    assert "Reason for this change (required)" in page
    fieldset = page[: page.index('name="edit_reason"')].rsplit("<fieldset", 1)[1]
    assert "Why you change it" in fieldset and "collapse" not in fieldset.split(">", 1)[0]  # shown, not folded
    refused = client.post(change_url(case), edit_form(case, question="Better wording?"))
    assert refused.status_code == 200 and "say why you changed question" in refused.content.decode()
    case.refresh_from_db()
    assert case.question != "Better wording?" and case.events.count() == 1
    saved = client.post(change_url(case), edit_form(case, question="Better wording?", edit_reason="typo"))
    assert saved.status_code == 302 and case.events.last().reason == "typo"


def test_a_frozen_case_shows_a_notice_and_is_not_editable(client, verification):
    client.force_login(curator_without_staff())
    case = case_validate(case=case_create(document=routing_document()), actor=None)
    release_freeze(name="frozen-v1", split="public", cases=[case], actor=None)
    page = client.get(change_url(case)).content.decode()
    assert "This case is frozen in release" in page and "frozen-v1" in page
    assert 'name="question"' not in page
    assert client.post(change_url(case), edit_form(case, question="Changed?", edit_reason="x")).status_code == 403
    case.refresh_from_db()
    assert case.question != "Changed?"


def test_rejecting_a_frozen_case_warns_that_the_release_keeps_it(client, verification):
    client.force_login(curator_without_staff())
    case = case_validate(case=case_create(document=routing_document()), actor=None)
    release_freeze(name="frozen-v2", split="public", cases=[case], actor=None)
    ask = client.post(CHANGELIST, {"action": "reject_cases", "_selected_action": [case.pk]}).content.decode()
    assert f"Frozen in a release: {case.case_id} (in frozen-v2)" in ask and "future releases only" in ask
    done = client.post(
        CHANGELIST,
        {"action": "reject_cases", "_selected_action": [case.pk], "apply": "Reject", "reason": "wrong gold"},
        follow=True,
    ).content.decode()
    assert "Rejected 1 case." in done and "they stay in those releases" in done
    assert Case.objects.get(pk=case.pk).status == "rejected"


def test_rejecting_says_case_or_cases(client):
    client.force_login(curator_without_staff())
    one, two, three = (case_create(document=routing_document()) for _ in range(3))
    single = {"action": "reject_cases", "_selected_action": [one.pk], "apply": "Reject", "reason": "no"}
    assert "Rejected 1 case." in client.post(CHANGELIST, single, follow=True).content.decode()
    double = {**single, "_selected_action": [two.pk, three.pk]}
    assert "Rejected 2 cases." in client.post(CHANGELIST, double, follow=True).content.decode()


def test_a_duplicated_question_names_the_other_case(grid_city):
    first = case_create(document=routing_document())
    second = case_create(document=routing_document(question=first.question))
    result = case_reverify(case=second, actor=None)
    assert f"the question duplicates another case's question ({first.case_id})" in result.failures
