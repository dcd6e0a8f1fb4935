"""Comparing two runs of one release: the paired difference, won and lost cases, side-by-side replays."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from benchmark.runs.aggregates import run_case_scores
from benchmark.runs.models import EvaluationRun
from benchmark.web.replay.compare import runs_compare
from judging.aggregate import paired_comparison

pytestmark = pytest.mark.django_db


def compare(client, **params):
    return client.get(reverse("compare"), params)


def test_the_difference_and_the_won_and_lost_cases_are_the_paired_comparison(client, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    expected = paired_comparison(run_case_scores(run=a), run_case_scores(run=b))
    comparison = runs_compare(a=a, b=b)
    assert comparison["difference"] == expected["difference"] and comparison["n"] == 22
    assert [row["key"] for row in comparison["won"]] == expected["won"] and expected["won"], "the heuristic fails some"
    assert [row["key"] for row in comparison["lost"]] == expected["lost"] == []  # the reference passes every case
    assert comparison["a"]["passed"] == 22 and comparison["a"]["pr_shared"] == 100.0
    assert comparison["both_passed"] + comparison["both_failed"] + len(comparison["won"]) == 22

    html = compare(client, a=a.id, b=b.id).content.decode()
    assert f'data-difference="{expected["difference"]["value"]}"' in html
    found = re.search(r'<section id="won">(.*?)</section>', html, re.S)
    assert found, html
    won = found.group(1)
    for row in comparison["won"]:
        assert reverse("trajectory", args=[row["a_trajectory"]]) in won
        assert reverse("trajectory", args=[row["b_trajectory"]]) in won
        assert f"case={row['case_id']}&amp;trial=0" in won


def test_side_by_side_replays_share_one_map(client, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    row = runs_compare(a=a, b=b)["won"][0]
    response = compare(client, a=a.id, b=b.id, case=row["case_id"], trial=0)
    html = response.content.decode()
    assert response.status_code == 200
    script = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
    assert script, html
    data = json.loads(script.group(1))
    assert [t["trajectory"] for t in data["tracks"]] == [row["a_trajectory"], row["b_trajectory"]]
    assert data["reference"], "a public release shows its reference"
    assert html.count('data-track="A"') == 1 and html.count('data-track="B"') == 1
    for key, trajectory_id in (("A", row["a_trajectory"]), ("B", row["b_trajectory"])):
        steps = a.trajectories.model.objects.get(pk=trajectory_id).steps.count()
        assert html.count(f'id="{key}-step-') == steps


def test_runs_on_different_releases_are_refused(client, web_runs, grid_release, record_trajectory):
    other = record_trajectory(release=grid_release, calls=[], answer={"place_id": "N4"}).run
    response = compare(client, a=web_runs["reference"].id, b=other.id)
    assert response.status_code == 400
    assert (
        f"run {web_runs['reference'].id} is on release web-fixture and run {other.id} on release "
        f"{grid_release.name}: only runs on the same release can be compared"
    ) in response.content.decode()


@pytest.mark.parametrize(
    "params, message",
    [
        ({"b": "2"}, "missing run a: compare two runs with /compare/?a=&lt;run id&gt;&amp;b=&lt;run id&gt;"),
        ({"a": "1"}, "missing run b"),
        ({"a": "1", "b": "one"}, "b must be a run id (a whole number), got &#x27;one&#x27;"),
        ({"a": "7", "b": "7"}, "a and b are the same run (7); pick two different runs of one release"),
        ({"a": "\u00b2", "b": "1"}, "a must be a run id (a whole number), got &#x27;\u00b2&#x27;"),  # isdigit, not int
        ({"a": "1", "b": "9" * 5000}, "b must be a run id (a whole number), got &#x27;999"),  # over int's limit
    ],
)
def test_bad_requests_say_what_is_wrong(client, params, message):
    response = compare(client, **params)
    assert response.status_code == 400 and message in response.content.decode()


def test_without_runs_the_page_explains_what_to_send(client):
    response = compare(client)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Pick two runs of the same release: compare two runs with /compare/?a=&lt;run id&gt;" in html


def test_a_run_you_cannot_see_is_not_found(client, web_runs, users):
    smoke = EvaluationRun.objects.create(
        name="someone's smoke test",
        agent="reference",
        release=web_runs["reference"].release,
        purpose=EvaluationRun.SMOKE,
        created_by=users["member"],
    )
    response = compare(client, a=web_runs["reference"].id, b=smoke.id)
    assert response.status_code == 404 and f"no run {smoke.id} (b) that you can see" in response.content.decode()
    client.force_login(users["member"])
    assert "no finished case in common yet" in compare(client, a=web_runs["reference"].id, b=smoke.id).content.decode()


def test_a_case_neither_run_holds_is_not_found(client, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    response = compare(client, a=a.id, b=b.id, case="no-such-case")
    assert response.status_code == 404
    assert f"run {a.id} has no trajectory for case &#x27;no-such-case&#x27;, trial 0" in response.content.decode()
    assert "trial must be a whole number" in compare(client, a=a.id, b=b.id, case="x", trial="first").content.decode()


def test_a_cached_comparison_is_replaced_when_a_run_is_rescored(web_runs):
    from django.core.cache import cache

    from benchmark.operations.models import RunRescore
    from benchmark.web.replay.compare import runs_compare_cached

    cache.clear()
    a, b = web_runs["reference"], web_runs["heuristic"]
    first = runs_compare_cached(a=a, b=b)
    assert runs_compare_cached(a=a, b=b) == first == runs_compare(a=a, b=b)
    trajectory = b.trajectories.filter(passed=False).first()
    trajectory.passed = True
    trajectory.save(update_fields=["passed"])
    assert runs_compare_cached(a=a, b=b) == first, "the fingerprint has not moved: the cached answer stands"
    RunRescore.objects.create(run=b, reason="test", versions={})
    assert runs_compare_cached(a=a, b=b) == runs_compare(a=a, b=b) != first
    cache.clear()


def test_the_side_by_side_page_makes_as_many_queries_for_long_trajectories_as_for_short_ones(client, web_runs):
    from django.db import connection
    from django.db.models import Count
    from django.test.utils import CaptureQueriesContext

    a, b = web_runs["reference"], web_runs["heuristic"]
    steps = {  # case_id -> steps of both runs' trajectories of that case
        case: n
        for case, n in a.trajectories.model.objects.filter(run__in=[a, b], trial=0)
        .values_list("entry__case__case_id")
        .annotate(n=Count("steps"))
    }
    short, long = min(steps, key=lambda case: steps[case]), max(steps, key=lambda case: steps[case])
    assert steps[long] >= steps[short] + 4, steps
    compare(client, a=a.id, b=b.id)  # the comparison itself is cached from here on
    counts = {}
    for case in (short, long):
        with CaptureQueriesContext(connection) as queries:
            html = compare(client, a=a.id, b=b.id, case=case, trial=0).content.decode()
        assert html.count('id="A-step-') + html.count('id="B-step-') == steps[case]
        sql = [q["sql"] for q in queries.captured_queries]
        buffers = sum("ST_Buffer" in q for q in sql)  # one per trajectory with a search along a route, or none
        assert buffers <= 2 and len(sql) <= 10, sql
        counts[case] = len(sql) - buffers
    assert counts[short] == counts[long], counts


def test_the_comparison_reads_both_runs_in_a_bounded_number_of_queries(client, web_runs):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    a, b = web_runs["reference"], web_runs["heuristic"]
    cache.clear()
    with CaptureQueriesContext(connection) as first:
        assert compare(client, a=a.id, b=b.id).status_code == 200
    with CaptureQueriesContext(connection) as again:
        assert compare(client, a=a.id, b=b.id).status_code == 200
    # the runs, their fingerprints, and (not cached yet) one read of both runs' verdicts
    assert (len(first), len(again)) == (3, 2), [q["sql"] for q in first.captured_queries]
    cache.clear()


@pytest.mark.parametrize("trial", ["\u00b2", "9" * 5000, "-1"])
def test_a_trial_that_is_not_a_whole_number_is_refused_by_name(client, web_runs, trial):
    a, b = web_runs["reference"], web_runs["heuristic"]
    case_id = a.trajectories.values_list("entry__case__case_id", flat=True).first()
    response = compare(client, a=str(a.id), b=str(b.id), case=case_id, trial=trial)
    assert response.status_code == 400 and "trial must be a whole number" in response.content.decode()


@pytest.mark.parametrize("step", ["\u00b2", "9" * 5000, "0", "x"])
def test_a_step_the_replay_cannot_open_opens_the_first(client, web_runs, step):
    trajectory = web_runs["reference"].trajectories.first()
    response = client.get(f"/trajectories/{trajectory.id}/", {"step": step})
    assert response.status_code == 200 and '"start": 0' in response.content.decode()
    assert '"start": 1' in client.get(f"/trajectories/{trajectory.id}/", {"step": "2"}).content.decode()


# ------------------------------------------------------------------ cells, category, pages


def test_each_cell_is_the_paired_comparison_of_its_own_cases(client, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    scores_a, scores_b = run_case_scores(run=a), run_case_scores(run=b)
    comparison = runs_compare(a=a, b=b)
    cells = {(row["category"], row["level"]): row for row in comparison["cells"]}
    assert cells and sum(row["n"] for row in cells.values()) == comparison["n"]
    for (category, level), row in cells.items():
        expected = paired_comparison(
            [s for s in scores_a if (s.category, s.level) == (category, level)],
            [s for s in scores_b if (s.category, s.level) == (category, level)],
        )
        assert (row["n"], row["a"], row["b"], row["difference"]) == (
            expected["n"],
            expected["a"],
            expected["b"],
            expected["difference"],
        )
        assert (row["won"], row["lost"]) == (len(expected["won"]), len(expected["lost"]))
    html = compare(client, a=a.id, b=b.id).content.decode()
    table = html.split('<table class="board compare-cells">', 1)[1].split("</table>", 1)[0]
    shown = dict(re.findall(r'<tr data-cell="([\w/]+)">.*?data-difference="([-\d.]+)"', table, re.S))
    assert shown == {f"{c}/{lv}": str(row["difference"]["value"]) for (c, lv), row in cells.items()}


def test_the_category_filter_compares_that_categorys_cases_only(client, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    whole = runs_compare(a=a, b=b)
    category = next(row["category"] for row in whole["won"])  # a category the heuristic fails some case of
    scores_a = [s for s in run_case_scores(run=a) if s.category == category]
    scores_b = [s for s in run_case_scores(run=b) if s.category == category]
    expected = paired_comparison(scores_a, scores_b)
    response = compare(client, a=a.id, b=b.id, category=category)
    html = response.content.decode()
    assert response.status_code == 200 and f'data-difference="{expected["difference"]["value"]}"' in html
    won = re.search(r'<section id="won">(.*?)</section>', html, re.S).group(1)
    assert set(re.findall(r'<tr data-case="([^"]+)">', won)) == set(expected["won"])
    assert set(re.findall(r'<tr data-cell="(\w+)/', html)) == {category}
    assert f'<option value="{category}" selected>' in html and f"&amp;category={category}&amp;case=" in won
    response = compare(client, a=a.id, b=b.id, category="cooking")
    assert response.status_code == 400
    assert (
        "category must be one of place_perception, nearby_discovery, routing, trip_design (or left out); "
        "got &#x27;cooking&#x27;" in response.content.decode()
    )


def test_won_and_lost_cases_come_a_page_at_a_time_each_with_its_own_page(client):
    from benchmark.web.replay.compare import CASES_PAGE_SIZE
    from tests.factories import (
        ALL_CELLS,
        failing_scores,
        passing_scores,
        release_with_cases,
        run_with_results,
    )

    release = release_with_cases("compare-pages-v1", per_cell=3)  # 33 cases
    a = run_with_results(release, name="passes all", results=[(True, passing_scores())])
    b = run_with_results(release, name="fails all", results=[(False, failing_scores())])
    html = compare(client, a=a.id, b=b.id).content.decode()
    won = re.search(r'<section id="won">(.*?)</section>', html, re.S).group(1)
    assert "Only A passed (33)" in won and won.count("<tr data-case=") == CASES_PAGE_SIZE
    assert f'href="?a={a.id}&amp;b={b.id}&amp;won_page=2#won"' in won and "page 1 of 2" in won
    second = compare(client, a=a.id, b=b.id, won_page=2, lost_page=7).content.decode()
    won = re.search(r'<section id="won">(.*?)</section>', second, re.S).group(1)
    assert won.count("<tr data-case=") == 33 - CASES_PAGE_SIZE and "page 2 of 2" in won
    assert "&amp;won_page=2&amp;case=" in won  # side by side comes back to this page of the list
    assert f'href="?a={a.id}&amp;b={b.id}&amp;lost_page=7&amp;won_page=1#won"' in won  # the other list's page kept
    assert len(ALL_CELLS) * 3 == 33


def test_a_side_by_side_page_puts_both_replays_before_the_comparison(client, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    row = runs_compare(a=a, b=b)["won"][0]
    html = compare(client, a=a.id, b=b.id, case=row["case_id"], trial=0).content.decode()
    assert html.index('id="side-by-side"') < html.index('id="replay-map"') < html.index('<section id="comparison">')
    assert '<a href="#comparison">the whole comparison</a>' in html
