import json
import re

import pytest
from django.contrib.auth.models import Group

from benchmark.cases.models import Case, Release
from benchmark.cases.services import case_create, case_validate, release_freeze
from tests.factories import routing_document, staff_user

pytestmark = pytest.mark.django_db
CHANGELIST = "/admin/cases/case/"


@pytest.fixture
def curator_client(client):
    client.force_login(staff_user("cura", curator=True))
    return client


@pytest.fixture
def viewer_client(client):
    """A staff user who may view cases and releases but is not a curator."""
    client.force_login(staff_user("viewer", perms=("view_case", "view_release")))
    return client


def change_url(case):
    return f"{CHANGELIST}{case.pk}/change/"


def edit_form(case, **changes):
    data = {f: getattr(case, f) for f in ("type", "category", "level", "city_name", "city_version", "question")}
    for field in (
        "answer",
        "reference_path",
        "engine_path",
        "required_evidence",
        "constraints",
        "uniqueness",
        "provenance",
    ):
        data[field] = json.dumps(getattr(case, field))
    return data | changes


def test_curators_group_holds_the_case_permissions():
    codenames = set(Group.objects.get(name="Curators").permissions.values_list("codename", flat=True))
    assert codenames == {
        "add_case",
        "change_case",
        "view_case",
        "curate_case",
        "add_release",
        "view_release",
        "add_humanscore",
        "change_humanscore",
        "view_humanscore",
        "delete_humanscore",
    }


def test_curator_change_page_shows_the_map_data_and_readable_documents(curator_client, grid_city):
    case = case_create(document=routing_document())
    page = curator_client.get(change_url(case))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="case-map"' in html and "leaflet/leaflet.js" in html
    assert "js/streets.js" in html and 'data-url="/city/gridtown/streets.geojson"' in html  # our streets, no tiles
    data = json.loads(
        re.search(r'<script id="case-map-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    )
    kinds = [f["properties"]["kind"] for f in data["features"]]
    assert kinds == ["place", "place", "place", "route", "route"]
    assert "<li>place_search <code>{&quot;query_name&quot;:&quot;Kahvila Koira&quot;}</code></li>" in html
    assert "Audit history" in html or "audit history" in html


def test_untrusted_answer_text_is_escaped(curator_client):
    evil = "<script>alert('x')</script>"
    case = case_create(document=routing_document(answer={"name": evil, "place_id": "N1"}, question=evil))
    html = curator_client.get(change_url(case)).content.decode()
    assert evil not in html
    assert "&lt;script&gt;alert(" in html


def test_curator_edit_goes_through_the_audit_history(curator_client):
    case = case_create(document=routing_document())
    response = curator_client.post(change_url(case), edit_form(case, question="Better wording?", edit_reason="typo"))
    assert response.status_code == 302
    case.refresh_from_db()
    event = case.events.last()
    assert case.question == "Better wording?"
    assert (event.action, event.actor.username, event.reason) == ("edited", "cura", "typo")
    assert list(event.changes) == ["question"]


def test_curator_edit_with_an_invalid_document_is_refused_on_the_field(curator_client):
    case = case_create(document=routing_document())
    response = curator_client.post(change_url(case), edit_form(case, reference_path='[{"tool": "routing"}]'))
    assert response.status_code == 200
    assert "reference_path.0.arguments" in response.content.decode()
    assert case.events.count() == 1


def test_validate_action_reports_successes_and_failure_reasons(curator_client, verification):
    good = case_create(document=routing_document())
    bad = case_create(document=routing_document())
    verification.failing[bad.case_id] = ["note 42 does not support the answer"]
    assert 'value="validate_cases"' in curator_client.get(CHANGELIST).content.decode()
    page = curator_client.post(
        CHANGELIST, {"action": "validate_cases", "_selected_action": [good.pk, bad.pk]}, follow=True
    )
    html = page.content.decode()
    assert f"Validated 1: {good.case_id}" in html
    assert f"Not validated: {bad.case_id}: note 42 does not support the answer" in html
    assert dict(Case.objects.values_list("case_id", "status")) == {good.case_id: "validated", bad.case_id: "draft"}


def test_reject_action_asks_for_a_reason_first(curator_client):
    case = case_create(document=routing_document())
    ask = curator_client.post(CHANGELIST, {"action": "reject_cases", "_selected_action": [case.pk]})
    assert ask.status_code == 200 and 'name="reason"' in ask.content.decode()
    empty = curator_client.post(
        CHANGELIST, {"action": "reject_cases", "_selected_action": [case.pk], "apply": "Reject", "reason": ""}
    )
    assert empty.status_code == 200
    assert Case.objects.get(pk=case.pk).status == "draft"
    done = curator_client.post(
        CHANGELIST,
        {"action": "reject_cases", "_selected_action": [case.pk], "apply": "Reject", "reason": "two places match"},
    )
    assert done.status_code == 302
    case.refresh_from_db()
    assert (case.status, case.rejection_reason) == ("rejected", "two places match")


def test_reverify_and_duplicate_actions(curator_client, verification):
    case = case_create(document=routing_document())
    curator_client.post(CHANGELIST, {"action": "reverify_cases", "_selected_action": [case.pk]})
    curator_client.post(CHANGELIST, {"action": "duplicate_cases", "_selected_action": [case.pk]})
    assert Case.objects.get(pk=case.pk).verification["ok"] is True
    assert Case.objects.filter(case_id=f"{case.case_id}-copy-1", status="draft").exists()


def test_non_curator_staff_can_view_but_not_change_or_curate(viewer_client, verification):
    case = case_create(document=routing_document())
    original_question = case.question
    page = viewer_client.get(change_url(case))
    assert page.status_code == 200 and 'name="question"' not in page.content.decode()
    assert viewer_client.post(change_url(case), edit_form(case, question="Hijacked?")).status_code == 403
    viewer_client.post(CHANGELIST, {"action": "validate_cases", "_selected_action": [case.pk]})
    viewer_client.post(
        CHANGELIST, {"action": "reject_cases", "_selected_action": [case.pk], "apply": "1", "reason": "no"}
    )
    case.refresh_from_db()
    assert (case.question, case.status, case.rejection_reason) == (original_question, "draft", "")
    assert case.events.count() == 1 and verification.calls == []
    assert 'value="validate_cases"' not in viewer_client.get(CHANGELIST).content.decode()


def test_hidden_release_answers_are_for_curators_only(client, verification):
    curator, viewer = staff_user("cura", curator=True), staff_user("viewer", perms=("view_case", "view_release"))
    secret = "Secret Answer Kahvila"
    hidden_case = case_validate(case=case_create(document=routing_document(answer=secret)), actor=curator)
    public_case = case_validate(case=case_create(document=routing_document(answer="Public Answer")), actor=curator)
    hidden = release_freeze(name="hidden-v1", split="hidden", cases=[hidden_case], audit=False)
    public = release_freeze(name="public-v1", split="public", cases=[public_case], audit=False)

    client.force_login(viewer)
    assert secret not in client.get(f"/admin/cases/release/{hidden.pk}/change/").content.decode()
    assert "Public Answer" in client.get(f"/admin/cases/release/{public.pk}/change/").content.decode()
    assert hidden_case.case_id not in client.get(CHANGELIST).content.decode()
    assert client.get(change_url(hidden_case)).status_code == 302  # "does not exist" for this user

    client.force_login(curator)
    assert secret in client.get(f"/admin/cases/release/{hidden.pk}/change/").content.decode()


def test_curator_freezes_a_release_in_the_admin_and_cannot_change_it(curator_client, verification):
    cases = [case_validate(case=case_create(document=routing_document()), actor=None) for _ in range(2)]
    response = curator_client.post(
        "/admin/cases/release/add/",
        {"name": "admin-v1", "split": "public", "description": "from the admin", "freeze_cases": [c.pk for c in cases]},
    )
    assert response.status_code == 302
    release = Release.objects.get(name="admin-v1")
    assert release.entries.count() == 2 and release.created_by.username == "cura"
    listing = curator_client.get("/admin/cases/release/").content.decode()
    assert release.content_hash[:12] in listing
    assert (
        curator_client.post(
            f"/admin/cases/release/{release.pk}/change/", {"name": "renamed", "split": "hidden"}
        ).status_code
        == 403
    )
    again = curator_client.post(
        "/admin/cases/release/add/", {"name": "admin-v1", "split": "public", "freeze_cases": [cases[0].pk]}
    )
    assert again.status_code == 200 and "never reused" in again.content.decode()


def test_freezing_a_hidden_release_in_the_admin_warns_of_cases_already_public(curator_client, verification):
    cases = [case_validate(case=case_create(document=routing_document()), actor=None) for _ in range(2)]
    release_freeze(name="admin-public", split="public", cases=cases[:1], audit=False)
    response = curator_client.post(
        "/admin/cases/release/add/",
        {"name": "admin-hidden", "split": "hidden", "freeze_cases": [c.pk for c in cases]},
        follow=True,
    )
    page = response.content.decode()
    assert Release.objects.get(name="admin-hidden").entries.count() == 2
    assert "1 case(s) of hidden release admin-hidden are already in a public release" in page
    message = page[page.index("1 case(s) of hidden release") :]
    message = message[: message.index("<")]
    assert f"{cases[0].case_id} (in admin-public)" in message and cases[1].case_id not in message


def test_curator_adds_a_case_in_the_admin_as_a_draft_with_a_created_event(curator_client):
    doc = routing_document()
    data = {
        f: getattr(doc, f) for f in ("case_id", "type", "category", "level", "city_name", "city_version", "question")
    }
    dumped = doc.model_dump(mode="json")
    data |= {
        f: json.dumps(dumped[f])
        for f in (
            "answer",
            "reference_path",
            "engine_path",
            "required_evidence",
            "constraints",
            "uniqueness",
            "provenance",
        )
    }
    assert curator_client.post("/admin/cases/case/add/", data).status_code == 302
    case = Case.objects.get(case_id=doc.case_id)
    assert case.status == "draft" and case.answer == doc.answer
    assert [(e.action, e.actor.username) for e in case.events.all()] == [("created", "cura")]


# ---------------------------------------------------------------- the curator's page (issue 46, point 9)


def test_the_admin_says_lifeplanner_and_leads_back_to_the_site(curator_client):
    page = curator_client.get("/admin/").content.decode()
    assert "LifePlanner curation" in page and "Django administration" not in page
    assert '<a href="/">View site</a>' in page


def test_the_reject_button_on_a_case_page_asks_for_a_reason_and_records_it(curator_client):
    case = case_create(document=routing_document())
    page = curator_client.get(change_url(case)).content.decode()
    reject_url = f"{CHANGELIST}{case.pk}/reject/"
    assert f'action="{reject_url}"' in page and 'name="reason"' in page
    refused = curator_client.post(reject_url, {"reason": "  "}, follow=True)
    assert "Not rejected: a rejection needs a reason" in refused.content.decode()
    assert Case.objects.get(pk=case.pk).status == "draft"
    done = curator_client.post(reject_url, {"reason": "two places match the question"}, follow=True)
    assert f"Rejected {case.case_id}: two places match the question" in done.content.decode()
    case.refresh_from_db()
    assert (case.status, case.rejection_reason) == ("rejected", "two places match the question")
    assert case.events.last().reason == "two places match the question"
    assert f'action="{reject_url}"' not in curator_client.get(change_url(case)).content.decode()  # already rejected


def test_only_a_curator_may_press_reject(viewer_client):
    case = case_create(document=routing_document())
    assert 'class="reject-case"' not in viewer_client.get(change_url(case)).content.decode()
    assert viewer_client.post(f"{CHANGELIST}{case.pk}/reject/", {"reason": "no"}).status_code == 403
    assert Case.objects.get(pk=case.pk).status == "draft"


def test_a_case_in_a_release_links_to_its_public_page_and_its_runs(curator_client, verification):
    case = case_validate(case=case_create(document=routing_document()), actor=None)
    draft = case_create(document=routing_document())
    release_freeze(name="linked-v1", split=Release.PUBLIC, cases=[case])
    page = curator_client.get(change_url(case)).content.decode()
    assert f'href="/cases/{case.case_id}/">Public page</a>' in page
    assert f'href="/cases/{case.case_id}/#runs">Its runs</a>' in page
    assert "No public page yet" in curator_client.get(change_url(draft)).content.decode()


def test_search_looks_inside_the_answers(curator_client):
    wanted = case_create(
        document=routing_document(
            answer={**routing_document().answer, "end": {"name": "Filippa", "place_id": "N5", "reason": "x"}}
        )
    )
    other = case_create(document=routing_document())
    page = curator_client.get(f"{CHANGELIST}?q=filippa").content.decode()
    assert wanted.case_id in page and other.case_id not in page


def test_editing_the_question_alone_warns_that_the_quoted_constraints_may_be_stale(curator_client):
    answer = {**routing_document().answer, "constraints_satisfied": ["walks via Hotel Aurora"]}
    case = case_create(document=routing_document(answer=answer))
    response = curator_client.post(
        change_url(case),
        edit_form(case, question="I cycle to Museo Kivi. How far?", edit_reason="reworded"),
        follow=True,
    )
    html = response.content.decode()
    assert "the question changed but the answer&#x27;s constraints did not" in html
    assert "walks via Hotel Aurora" in html
    again = curator_client.post(
        change_url(case),
        edit_form(
            Case.objects.get(pk=case.pk),
            question="I walk to Museo Kivi. How far?",
            answer=json.dumps({**answer, "constraints_satisfied": ["walks"]}),
            edit_reason="both",
        ),
        follow=True,
    )
    assert "constraints did not" not in again.content.decode()  # both edited: nothing to warn of
