"""Score against cost: a release's listed runs as points (x mean tokens per case or cost, y overall %)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from benchmark.runs.models import EvaluationRun
from tests.factories import ALL_CELLS, failing_scores, passing_scores, release_with_cases, run_with_results

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
    scatter = html.split('<h2 id="levels">', 1)[0]  # the level bars below name the runs again
    assert scatter.count(">dear</text>") == 1 and "(log scale)" not in html and "Mean tokens per case" in html


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


def level_values(html: str) -> dict[tuple[str, str], float]:
    """{(run name, level): PR} of the level bars."""
    found = re.findall(r'<g class="level-bar" data-level="(L\d)" data-value="([\d.]+)">.*?<title>(.*?), L\d:', html)
    return {(name, level): float(value) for level, value, name in found}


def test_pass_rate_per_level_is_drawn_for_the_listed_runs_in_the_leaderboards_order(client, release):
    # four cells: place_perception L0, L1, L2 and nearby_discovery L0, so L0 holds two cases
    verdicts = {"best": [True, True, False, True], "worse": [True, False, False, False]}
    best, worse = (
        run_with_results(release, name=name, results=[PASS if passed else FAIL for passed in verdicts[name]])
        for name in ("best", "worse")
    )
    hidden = run_with_results(release, name="no description", results=[PASS], description="")
    html = page(client, release).content.decode()
    section = html.split('<h2 id="levels">', 1)[1]
    levels = dict(release.entries.values_list("position", "case__level"))
    expected = {}
    for name, passed in verdicts.items():
        for level in sorted(set(levels.values())):
            at = [passed[position] for position, lv in levels.items() if lv == level]
            expected[(name, level)] = round(100 * sum(at) / len(at), 1)
    assert sorted(levels.values()) == ["L0", "L0", "L1", "L2"] and level_values(section) == expected
    assert section.index(f'data-run="{best.id}"') < section.index(f'data-run="{worse.id}"')
    assert f'data-run="{hidden.id}"' not in section  # not listed on the leaderboard, not drawn
    rows = re.findall(r'<tr data-run="(\d+)">(.*?)</tr>', section)
    assert [cells.count("</td>") for _, cells in rows] == [4, 4]  # the run, then L0, L1, L2 as numbers
    board = client.get("/", {"release": release.name}).content.decode()
    assert f'href="/releases/{release.name}/cost/#levels"' in board


def test_at_most_six_runs_are_drawn_and_the_page_says_how_many_more(client, release):
    for i in range(8):
        run_with_results(release, name=f"run {i}", results=[PASS] * i + [FAIL] * (4 - i) if i < 4 else [PASS])
    html = page(client, release).content.decode().split('<h2 id="levels">', 1)[1]
    assert len({name for name, _ in level_values(html)}) == 6 and "(2 more on the" in html


def test_a_release_without_results_says_so_instead_of_a_figure(client, release):
    html = page(client, release).content.decode()
    assert "No listed run of this release has a result yet." in html and "level-bar" not in html
