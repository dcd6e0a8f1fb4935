"""Score against cost: a release's listed runs as points (x mean tokens per case or cost, y overall %)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from benchmark.runs.models import EvaluationRun
from tests.web.board_factories import ALL_CELLS, failing_scores, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
PASS, FAIL = (True, passing_scores()), (False, failing_scores())


def points(html: str) -> dict[str, tuple[float, float]]:
    """{run id: (x, y)} of the SVG's points."""
    found = re.findall(r'<g class="run-point" data-run="(\d+)" data-x="([\d.e+-]+)" data-y="([\d.]+)">', html)
    return {run: (float(x), float(y)) for run, x, y in found}


def page(client, release, **params):
    return client.get(reverse("release-cost", args=[release.name]), params)


@pytest.fixture
def release():
    return release_with_cases("cost-v1", cells=ALL_CELLS[:4])


def test_points_are_the_listed_runs_tokens_and_overall_labelled_by_name(client, release):
    a = run_with_results(release, name="<b>cheap</b>", results=[PASS, FAIL], tokens=(800, 200))
    b = run_with_results(release, name="dear", results=[PASS], tokens=(2000, 1000))
    run_with_results(release, name="smoke", results=[PASS], tokens=(5, 5), purpose=EvaluationRun.SMOKE)
    html = page(client, release).content.decode()
    assert points(html) == {str(a.id): (1000.0, 50.0), str(b.id): (3000.0, 100.0)}
    assert "&lt;b&gt;cheap&lt;/b&gt;" in html and "<b>cheap</b>" not in html  # labels are escaped
    assert html.count(">dear</text>") == 1 and "(log scale)" not in html and "Mean tokens per case" in html


def test_the_x_axis_is_logarithmic_across_two_orders_of_magnitude_and_zero_is_left_out(client, release):
    small = run_with_results(release, name="small", results=[FAIL], tokens=(100, 0))
    big = run_with_results(release, name="big", results=[PASS], tokens=(50_000, 0))
    oracle = run_with_results(release, name="oracle", agent="reference", results=[PASS])  # no tokens
    html = page(client, release).content.decode()
    assert set(points(html)) == {str(small.id), str(big.id)} and "(log scale)" in html
    assert re.search(rf'Not plotted.*?<a href="/runs/{oracle.id}/">oracle</a>', html, re.S)
    # ticks at the powers of ten from 100 to 100,000
    assert all(f">{tick}</text>" in html for tick in ("100", "1,000", "10,000", "100,000"))


def test_cost_is_the_x_axis_when_runs_have_one(client, release):
    priced = run_with_results(release, name="priced", results=[PASS, FAIL], tokens=(10, 10))
    priced.aggregates["cost"] = 0.25
    priced.save(update_fields=["aggregates"])
    unpriced = run_with_results(release, name="unpriced", results=[PASS], tokens=(10, 10))
    html = page(client, release).content.decode()
    assert points(html) == {str(priced.id): (0.25, 50.0)} and "Cost of the run (USD)" in html
    assert f'<a href="/runs/{unpriced.id}/">unpriced</a>' in html.split("Not plotted", 1)[1]
    assert set(points(page(client, release, x="tokens").content.decode())) == {str(priced.id), str(unpriced.id)}


def test_a_bad_axis_is_a_400_and_an_unknown_release_a_404(client, release):
    response = page(client, release, x="price")
    assert (
        response.status_code == 400
        and "x must be one of tokens, cost; got &#x27;price&#x27;" in response.content.decode()
    )
    assert client.get("/releases/nope/cost/").status_code == 404


def test_a_partial_run_is_plotted_and_says_so(client, release):
    partial = run_with_results(release, name="partial", results=[PASS], tokens=(10, 0), limit=2)
    html = page(client, release).content.decode()
    assert set(points(html)) == {str(partial.id)} and "(partial: its overall covers only the cases it scored)" in html
