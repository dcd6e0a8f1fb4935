"""The failure summary above a failed replay: reasons, first failing step, answer vs gold by name."""

from __future__ import annotations

import pytest
from django.urls import reverse

from benchmark.web.failures import failure_reasons
from benchmark.web.replay.document import replay_payload
from environment.models import Place

pytestmark = pytest.mark.django_db

# The reference walks N1 -> N4 -> N5 (tests.factories.routing_document); this answer
# swaps Hotel Aurora (N4) for N9, so PIoU = 2/4: "wrong set".
WRONG_SET_ANSWER = {
    "start": {"place_id": "N1"},
    "end": {"place_id": "N5"},
    "waypoints": [{"place_id": "N9"}],
    "optimal_order": [{"place_id": p, "visit_order": i} for i, p in enumerate(["N1", "N9", "N5"], 1)],
    "vehicle": "walking",
    "mode": "distance",
}
CALLS = [
    ("place_search", {"query_name": "Kahvila Koira"}),
    ("routing", {"start_place_id": "N1", "end_place_id": "N404"}),  # step 2 fails: not_found
    ("place_detail", {"place_id": "N9"}),
    ("place_detail", {"place_id": "N5"}),
]


def name(place_id: str) -> str:
    return Place.objects.get(city__name="gridtown", place_id=place_id).name


@pytest.fixture
def failed_trajectory(grid_release, record_trajectory):
    return record_trajectory(release=grid_release, calls=CALLS, answer=WRONG_SET_ANSWER)


@pytest.fixture
def hidden_failed_trajectory(make_grid_release, record_trajectory):
    return record_trajectory(release=make_grid_release(split="hidden"), calls=CALLS, answer=WRONG_SET_ANSWER)


def test_a_failed_case_lists_the_reasons_the_run_page_knows(failed_trajectory):
    failure = replay_payload(trajectory=failed_trajectory, user=None)["failure"]
    assert failed_trajectory.passed is False
    codes = failure_reasons(ended="submitted", passed=False, category="routing", scores=failed_trajectory.scores)
    assert [r["code"] for r in failure["reasons"]] == codes
    assert [(r["code"], r["label"]) for r in failure["reasons"]][:1] == [("wrong_set", "wrong set")]
    assert "PIoU" in failure["reasons"][0]["rule"]


def test_the_first_failing_step_is_the_first_call_that_returned_an_error(failed_trajectory):
    failure = replay_payload(trajectory=failed_trajectory, user=None)["failure"]
    assert failure["first_failing_step"] == {"position": 1, "number": 2, "tool": "routing", "error_kind": "not_found"}


def test_a_call_that_worked_is_not_a_failing_step_even_with_a_label(grid_release, record_trajectory):
    nothing = ("place_search", {"query_name": "Nothing Is Called This"})  # works: labelled empty_result
    trajectory = record_trajectory(release=grid_release, calls=[nothing, CALLS[0]], answer=WRONG_SET_ANSWER)
    assert trajectory.steps.get(index=0).error_kind == "empty_result"
    assert replay_payload(trajectory=trajectory, user=None)["failure"]["first_failing_step"] is None


def test_the_diff_names_missing_extra_and_matched_places(failed_trajectory):
    failure = replay_payload(trajectory=failed_trajectory, user=None)["failure"]
    diff = failure["diff"]
    assert [(p["place_id"], p["name"]) for p in diff["missing"]] == [("N4", name("N4"))]
    assert [(p["place_id"], p["name"]) for p in diff["extra"]] == [("N9", name("N9"))]
    assert {p["place_id"] for p in diff["matched"]} == {"N1", "N5"}
    assert [p["place_id"] for p in failure["gold_never_seen"]] == ["N4"]  # no observation held Hotel Aurora


def test_the_page_shows_the_summary_above_the_map_with_place_names(client, failed_trajectory):
    html = client.get(reverse("trajectory", args=[failed_trajectory.pk])).content.decode()
    summary = html[html.index('class="failure-summary"') : html.index('class="replay-layout"')]
    assert "wrong set" in summary and 'data-first-failing="2"' in summary
    assert f"{name('N4')} (N4)" in summary and f"{name('N9')} (N9)" in summary
    assert '<li class="diff-missing" data-place="N4">' in summary
    assert '<li class="diff-extra" data-place="N9">' in summary


def test_metric_explanations_name_the_places_they_quote(failed_trajectory):
    metrics = {m["name"]: m for m in replay_payload(trajectory=failed_trajectory, user=None)["metrics"]}
    stored = failed_trajectory.scores["PIoU"]["explanation"]
    assert "N4" in stored and name("N4") not in stored
    assert f"{name('N4')} (N4)" in metrics["PIoU"]["explanation"]


def test_a_passed_case_has_no_failure_summary(client, grid_release, record_trajectory):
    from tests.factories import routing_document

    trajectory = record_trajectory(release=grid_release, calls=CALLS[:1], answer=routing_document().answer)
    assert trajectory.passed is True
    assert replay_payload(trajectory=trajectory, user=None)["failure"] is None
    assert 'class="failure-summary"' not in client.get(reverse("trajectory", args=[trajectory.pk])).content.decode()


def test_on_a_hidden_release_others_see_reasons_and_the_failing_step_but_no_answer(
    client, hidden_failed_trajectory, users
):
    url = reverse("trajectory", args=[hidden_failed_trajectory.pk])
    for user in (None, users["member"]):
        failure = replay_payload(trajectory=hidden_failed_trajectory, user=user)["failure"]
        assert [r["code"] for r in failure["reasons"]][:1] == ["wrong_set"]
        assert failure["first_failing_step"]["tool"] == "routing" and failure["answers_visible"] is False
        assert "diff" not in failure and "gold_never_seen" not in failure
        client.logout()
        if user:
            client.force_login(user)
        response = client.get(url)  # the page itself is a curator's (a per-case verdict is one bit of the gold)
        html = response.content.decode()
        assert response.status_code == 404 and "wrong set" not in html
        for secret in ("N4", "N9", name("N4"), name("N9"), "diff-missing"):
            assert secret not in html
    for reader in ("staff", "curator"):
        client.force_login(users[reader])
        html = client.get(url).content.decode()
        assert f"{name('N4')} (N4)" in html and '<li class="diff-extra" data-place="N9">' in html
