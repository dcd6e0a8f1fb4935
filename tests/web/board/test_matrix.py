"""The case x run matrix of a release: hardest cases first, one column per listed complete run."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from benchmark.runs.models import EvaluationRun
from tests.factories import (
    ALL_CELLS,
    failing_scores,
    passing_scores,
    release_with_cases,
    run_with_results,
    run_with_trials,
)

pytestmark = pytest.mark.django_db
PASS, FAIL = (True, passing_scores()), (False, failing_scores())


def matrix(client, release, **params):
    return client.get(reverse("release-matrix", args=[release.name]), params)


def rows(html: str) -> list[str]:
    return re.findall(r'<tr data-case="([^"]+)">', html)


def states(html: str, case_id: str) -> list[str]:
    row = html.split(f'<tr data-case="{case_id}">', 1)[1].split("</tr>", 1)[0]
    return re.findall(r'data-state="(\w+)"', row)


def columns(html: str) -> list[int]:
    return [int(r) for r in re.findall(r'<th scope="col" class="run-col[^"]*" data-run="(\d+)"', html)]


@pytest.fixture
def four():
    """Four cases (place perception L0-L2, nearby discovery L0), two model runs, a baseline, and runs never shown."""
    release = release_with_cases("mx-four", cells=ALL_CELLS[:4])
    cases = list(release.entries.order_by("position").values_list("case__case_id", flat=True))
    a = run_with_results(release, name="A", results=[PASS, FAIL, FAIL, PASS])
    b = run_with_results(release, name="B", results=[PASS, PASS, FAIL, FAIL])
    oracle = run_with_trials(release, name="oracle", trials=2, passed=lambda pos, trial: trial == 0)
    run_with_results(release, name="smoke", results=[FAIL], purpose=EvaluationRun.SMOKE)
    run_with_results(release, name="partial", results=[FAIL], limit=2)
    unlisted = run_with_results(release, name="unlisted", results=[FAIL])
    EvaluationRun.objects.filter(pk=unlisted.pk).update(unlisted_at=unlisted.created_at)
    return {"release": release, "cases": cases, "a": a, "b": b, "oracle": oracle}


def hardest_first(rates: dict[str, float]) -> list[str]:
    return sorted(rates, key=lambda case: (rates[case], case))


def test_cases_come_hardest_first_ties_by_case_id(client, four):
    html = matrix(client, four["release"]).content.decode()
    c = four["cases"]  # in position order: A passes c0 and c3, B c0 and c1
    rates = {c[0]: 100.0, c[1]: 50.0, c[2]: 0.0, c[3]: 50.0}
    assert rows(html) == hardest_first(rates) and rows(html)[0] == c[2] and rows(html)[-1] == c[0]
    assert rows(html)[1:3] == sorted([c[1], c[3]])  # the tie at 50% goes by case id
    order = columns(html)
    assert sorted(order) == sorted([four["a"].id, four["b"].id])
    by_run = {four["a"].id: ["pass", "fail", "fail", "pass"], four["b"].id: ["pass", "pass", "fail", "fail"]}
    for i, case in enumerate(c):
        assert states(html, case) == [by_run[run][i] for run in order]


def test_smoke_partial_unlisted_runs_and_by_default_baselines_are_left_out(client, four):
    html = matrix(client, four["release"]).content.decode()
    assert set(columns(html)) == {four["a"].id, four["b"].id}
    for name in ("smoke", "partial", "unlisted", "oracle"):
        assert f'title="{name}"' not in html


def test_baselines_join_marked_and_count_in_the_rate(client, four):
    html = matrix(client, four["release"], baselines="1").content.decode()
    assert columns(html)[-1] == four["oracle"].id and 'class="run-col baseline"' in html
    c = four["cases"]
    # the oracle passes 1 of 2 trials everywhere ("some", shown 1/2): c1 and c3 still tie at (100 + 0 + 50) / 3
    assert states(html, c[0])[-1] == "some" and ">1/2</a>" in html
    assert rows(html) == hardest_first({c[0]: 250 / 3, c[1]: 50.0, c[2]: 50 / 3, c[3]: 50.0})
    assert re.search(rf'<tr data-case="{c[2]}">.*?<td class="num">16.7</td>', html, re.S)  # (0 + 0 + 50) / 3


def test_each_cell_links_to_that_runs_replay_of_the_case_a_failed_trial_first(client, four):
    html = matrix(client, four["release"], baselines="1").content.decode()
    c = four["cases"]
    for run in (four["a"], four["b"], four["oracle"]):
        for case in c:
            trajectories = run.trajectories.filter(entry__case__case_id=case).order_by("id")
            failed = [t for t in trajectories if not t.passed]
            shown = (failed or list(trajectories))[0]
            assert reverse("trajectory", args=[shown.id]) in html
    assert client.get(reverse("trajectory", args=[four["a"].trajectories.first().id])).status_code == 200


def test_filters_by_category_and_level(client, four):
    c = four["cases"]
    snapshots = {e.snapshot["case_id"]: e.snapshot for e in four["release"].entries.all()}
    rates = {c[0]: 100.0, c[1]: 50.0, c[2]: 0.0, c[3]: 50.0}
    perception = [case for case in c if snapshots[case]["category"] == "place_perception"]
    level0 = [case for case in c if snapshots[case]["level"] == "L0"]
    assert len(perception) == 3 and len(level0) == 2
    html = matrix(client, four["release"], category="place_perception").content.decode()
    assert rows(html) == hardest_first({case: rates[case] for case in perception})
    html = matrix(client, four["release"], level="L0").content.decode()
    assert rows(html) == hardest_first({case: rates[case] for case in level0})
    assert rows(matrix(client, four["release"], category="routing").content.decode()) == []


def test_a_case_no_shown_run_scored_is_not_run_and_comes_last(client):
    release = release_with_cases("mx-notrun", cells=ALL_CELLS[:2])
    run = run_with_results(release, name="solo", results=[FAIL])
    run.trajectories.filter(entry__position=release.entries.order_by("-position")[0].position).update(status="error")
    c = list(release.entries.order_by("position").values_list("case__case_id", flat=True))
    html = matrix(client, release).content.decode()
    assert rows(html) == [c[0], c[1]] and states(html, c[1]) == ["none"]


def test_fifty_cases_a_page_and_queries_do_not_grow_with_cases_or_runs(client):
    small = release_with_cases("mx-small", cells=ALL_CELLS[:2])
    run_with_results(small, name="s1", results=[PASS, FAIL])
    big = release_with_cases("mx-big", per_cell=5)  # 55 cases
    for n in range(4):
        run_with_results(big, name=f"b{n}", results=[PASS] * n + [FAIL])
    counts = []
    for release in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert matrix(client, release).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 6, counts
    html = matrix(client, big).content.decode()
    assert len(rows(html)) == 50 and "page 1 of 2" in html
    second = matrix(client, big, page="2").content.decode()
    assert len(rows(second)) == 5 and not set(rows(second)) & set(rows(html))


def test_a_hidden_release_shows_verdicts_to_curators_and_staff_only_and_never_an_answer(client, users):
    release = release_with_cases("mx-hidden", cells=ALL_CELLS[:2], split="hidden")
    run = run_with_results(release, name="H", results=[PASS, FAIL])
    run.trajectories.update(final_answer={"answer": "SECRET-FINAL-ANSWER"})
    answer = release.entries.order_by("position")[0].snapshot["answer"]
    first = release.entries.order_by("position")[0].snapshot["case_id"]
    for user in (None, users["member"], users["curator"], users["staff"]):
        client.logout()
        if user:
            client.force_login(user)
        html = matrix(client, release).content.decode()
        if user in (users["curator"], users["staff"]):
            assert states(html, first) == ["pass"]
        else:  # a verdict per case is one bit of the gold
            assert "data-state=" not in html and "shown to curators and staff only" in html
        assert "SECRET-FINAL-ANSWER" not in html and "hidden split" in html
        assert str(answer.get("visit_order") or answer)[:40] not in html


@pytest.mark.parametrize(
    "param, value, allowed",
    [
        ("category", "cooking", "place_perception"),
        ("level", "L9", "L0, L1, L2"),
        ("baselines", "yes", "0 (models only) or 1"),
        ("page", "two", "a page number"),
        ("page", "0", "a page number"),
    ],
)
def test_bad_parameters_get_a_400_naming_them(client, four, param, value, allowed):
    response = matrix(client, four["release"], **{param: value})
    text = response.content.decode()
    assert response.status_code == 400 and param in text and f"&#x27;{value}&#x27;" in text and allowed in text


def test_a_page_number_too_long_to_read_is_a_400_naming_page(client, four):
    response = matrix(client, four["release"], page="9" * 5000)
    assert response.status_code == 400 and "page must be a page number" in response.content.decode()


def test_an_unknown_release_is_not_found(client):
    assert client.get("/releases/no-such-release/matrix/").status_code == 404


def test_the_footer_gives_each_runs_pass_rate_and_pass_hat_k_over_the_matching_cases(client, four):
    release = four["release"]
    three = run_with_trials(release, name="three", trials=3, passed=lambda pos, trial: trial < 2)  # 2 of 3 each
    html = matrix(client, release, baselines="1").content.decode()
    totals = dict(re.findall(r'<td class="num run-total" data-run="(\d+)">(.*?)</td>', html))
    assert totals[str(four["a"].id)] == "50.0" and totals[str(four["b"].id)] == "50.0"
    assert totals[str(four["oracle"].id)] == '50.0<br><span class="pass-k" data-k="2">pass^2 0.0</span>'
    assert totals[str(three.id)] == '66.7<br><span class="pass-k" data-k="3">pass^3 0.0</span>'
    # over the L0 cases only (two of the four)
    level0 = [i for i, e in enumerate(release.entries.order_by("position")) if e.snapshot["level"] == "L0"]
    a_passes, b_passes = [True, False, False, True], [True, True, False, False]
    html = matrix(client, release, level="L0").content.decode()
    totals = dict(re.findall(r'<td class="num run-total" data-run="(\d+)">(.*?)</td>', html))
    assert len(level0) == 2 and totals == {
        str(four["a"].id): f"{100 * sum(a_passes[i] for i in level0) / 2:.1f}",
        str(four["b"].id): f"{100 * sum(b_passes[i] for i in level0) / 2:.1f}",
    }
