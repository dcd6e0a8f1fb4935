"""The flows a visitor, a submitter and a curator go through, clicked in Debian's Chromium at 1400x900
and at 390x844: sorting the leaderboard, filtering a run's failed cases into a replay, submitting a
model (connection test, submission, its smoke test's state, cancelling it) and curating a case in
the admin (an edit with its reason, the history, a rejection). tests/web/test_browser.py steps
through the replay and the comparison; tests/web/test_accessibility.py checks every page with axe-core.
"""

from __future__ import annotations

import itertools
import os

import pytest

from tests.fakes.openai_server import FakeOpenAI, reply
from tests.processes import connection_test_worker
from tests.web.browser import SCREENSHOTS, needs_chromium

SIZES = [(1400, 900), (390, 844)]
_users = itertools.count(1)

pytestmark = needs_chromium


@pytest.fixture(autouse=True)
def committed(django_db_blocker):
    """No test transaction: what a test writes is committed, so the live server's thread sees it (and may
    write the session of a sign-in); each test removes what it made."""
    with django_db_blocker.unblock():
        yield


@pytest.fixture
def committed_user():
    """A factory of committed users (the live server reads committed rows), removed after the test with the
    runs and endpoints they made."""
    from django.contrib.auth.models import Group, User

    made = []

    def make(*, curator: bool = False) -> User:
        user = User.objects.create_user(f"flow-user-{os.getpid()}-{next(_users)}", password="flow-pw")
        if curator:
            user.groups.add(Group.objects.get(name="Curators"))
        made.append(user)
        return user

    yield make
    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.runs.models import EvaluationRun

    for user in made:  # with what they submitted, even when the test failed half-way
        EvaluationRun.objects.filter(created_by=user).delete()
        ModelEndpoint.objects.filter(owner=user).delete()
        user.delete()


def sign_in(page, site: str, user, *, login: str = "/accounts/login/", then: str = "/submit/") -> None:
    page.goto(f"{site}{login}?next={then}")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", "flow-pw")
    page.locator("input[name=password]").press("Enter")
    page.wait_for_url(f"{site}{then}")


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def sized_page(request, browser):
    width, height = request.param
    page = browser.new_page(viewport={"width": width, "height": height})
    page.problems = []
    page.on("pageerror", lambda exc: page.problems.append(str(exc)))
    page.on("dialog", lambda dialog: (page.problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.size = f"{width}x{height}"
    yield page
    page.close()


def overall_order(page) -> list[float]:
    """The overall pass rates of the Models table, top to bottom."""
    cells = page.locator("table.leaderboard").first.locator("tbody td.overall .big, tbody td.overall strong")
    return [float(text.split()[0]) for text in cells.all_inner_texts() if text.strip()]


def test_sorting_the_leaderboard_by_a_column_and_back(site, sized_page, web_runs):
    page = sized_page
    page.goto(f"{site}/?release=web-fixture")
    header = page.locator('table.leaderboard th:has(a:text-is("Run / model"))').first
    assert header.get_attribute("aria-sort") is None
    header.locator("a").first.click()
    page.wait_for_url("**sort=name**")
    header = page.locator('table.leaderboard th:has(a:text-matches("^Run / model"))').first
    assert header.get_attribute("aria-sort") == "ascending"
    baselines = page.locator("table.leaderboard").last.locator("tbody tr td:nth-child(2) a").first
    names = page.locator("table.leaderboard").last.locator("tbody tr td:nth-child(2) > a").all_inner_texts()
    assert names == sorted(names, key=str.lower) and len(names) == 2, names
    header.locator("a").first.click()
    page.wait_for_url("**sort=-name**")
    header = page.locator('table.leaderboard th:has(a:text-matches("^Run / model"))').first
    assert header.get_attribute("aria-sort") == "descending"
    reversed_names = page.locator("table.leaderboard").last.locator("tbody tr td:nth-child(2) > a").all_inner_texts()
    assert reversed_names == names[::-1]
    assert baselines.count() == 1
    page.screenshot(path=SCREENSHOTS / f"flow-leaderboard-sorted-{page.size}.png", full_page=True)
    assert page.problems == []


def test_filtering_a_runs_failed_cases_and_opening_one_in_the_replay(site, sized_page, web_runs):
    page = sized_page
    heuristic = web_runs["heuristic"]
    page.goto(f"{site}/runs/{heuristic.id}/")
    failed = page.locator("table.failed tbody tr")
    everything = failed.count()
    page.select_option("select[name=category]", "routing")
    page.locator("form.board-filters:has(select[name=category]) button[type=submit]").click()
    page.wait_for_url("**category=routing**")
    rows = page.locator("table.failed tbody tr")
    assert 0 < rows.count() < everything
    assert set(rows.locator("td:nth-child(2)").all_inner_texts()) == {"routing"}
    rows.first.get_by_role("link", name="replay").click()
    page.wait_for_url("**/trajectories/*/")
    page.wait_for_selector("#replay-map[data-ready=true]")
    assert page.locator(".failure-summary").is_visible()
    assert page.locator("h1 .verdict").first.inner_text() == "failed"
    assert page.problems == []


def test_submitting_a_model_tests_the_connection_queues_a_smoke_test_and_cancels_it(
    site,
    sized_page,
    committed_user,
    web_runs,
    settings,
):
    from benchmark.runs.models import EvaluationRun

    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake endpoint listens on 127.0.0.1
    page, user = sized_page, committed_user()
    with FakeOpenAI([reply("ok")]) as fake:
        sign_in(page, site, user)
        page.fill("#id_name", "flow model")
        page.fill("#id_model", "openai/flow-model")
        page.fill("#id_api_base", fake.url)
        page.fill("#id_api_key", "sk-flow-secret")
        page.fill("#id_concurrency", "2")
        page.select_option("#id_release", "web-fixture")
        with connection_test_worker(settings):  # only for the test: the smoke test below must stay queued
            page.get_by_role("button", name="Test connection").click()
            status = page.locator(".connection-ok")  # a worker makes the call; the page follows it to its result
            status.wait_for(timeout=60_000)
        assert status.inner_text().startswith("Connection test: ok") and " ms" in status.inner_text()
        assert len(fake.requests) == 1 and "sk-flow-secret" not in page.content()
        assert page.input_value("#id_api_base") == fake.url  # everything but the key is kept
        page.fill("#id_api_key", "sk-flow-secret")
        page.get_by_role("button", name="Submit", exact=True).click()
        page.wait_for_url(f"{site}/submit/")
        submission = page.locator("[data-state]").first
        assert submission.get_attribute("data-state") == "smoke running"
        smoke = EvaluationRun.objects.get(created_by=user, purpose="smoke")
        page.screenshot(path=SCREENSHOTS / f"flow-submitted-{page.size}.png", full_page=True)
        cancel = page.get_by_role("button", name=f"Cancel the smoke test (run {smoke.id})")
        box = cancel.bounding_box()
        assert box["width"] <= page.viewport_size["width"]
        cancel.click()
        page.wait_for_selector("text=Cancelled run")
        assert page.locator("[data-state]").first.get_attribute("data-state") == "stopped"
        smoke.refresh_from_db()
        assert smoke.status == EvaluationRun.CANCELLED and smoke.cancelled_by_id == user.id
    assert page.problems == []


def test_a_curator_edits_a_case_with_a_reason_reads_its_history_and_rejects_it(
    site,
    sized_page,
    committed_user,
    grid_city,
):
    from benchmark.cases.models import Case
    from benchmark.cases.services import case_create
    from tests.factories import routing_document

    page, curator = sized_page, committed_user(curator=True)
    case = case_create(document=routing_document())
    try:
        change = f"/admin/cases/case/{case.pk}/change/"
        sign_in(page, site, curator, login="/admin/login/", then=change)
        page.wait_for_selector("#case-map[data-streets=loaded], #case-map .leaflet-marker-icon")
        page.fill("#id_question", "Walk from Kahvila Koira to Museo Kivi via Hotel Aurora, please?")
        page.locator("input[name=_save]").click()
        refused = page.wait_for_selector(".errorlist")  # no reason: refused on the field
        assert "say why you changed question" in refused.inner_text()
        page.fill("#id_edit_reason", "clearer wording for the flow test")
        page.locator("input[name=_save]").click()
        page.wait_for_url("**/admin/cases/case/")
        page.goto(f"{site}/admin/cases/case/{case.pk}/history/")
        history = page.inner_text("#content")
        assert "clearer wording for the flow test" in history and "via Hotel Aurora" in history
        page.goto(f"{site}/admin/cases/case/?q={case.case_id}")
        page.check(f"input[name=_selected_action][value='{case.pk}']")
        page.select_option("select[name=action]", "reject_cases")
        page.locator("button[name=index], button[type=submit]:has-text('Go')").first.click()
        page.fill("textarea[name=reason]", "a duplicate of another case")
        page.locator("input[name=apply]").click()
        page.wait_for_selector("text=Rejected 1 case.")
        page.screenshot(path=SCREENSHOTS / f"flow-curator-rejected-{page.size}.png", full_page=True)
        case.refresh_from_db()
        assert case.status == Case.REJECTED and case.rejection_reason == "a duplicate of another case"
        assert [e.action for e in case.events.order_by("id")] == ["created", "edited", "rejected"]
    finally:
        case.delete()
    assert page.problems == []
