"""Runs with several trials per case on the site: the comparison pairs cases, the run page shows pass^k."""

from __future__ import annotations

import re

import pytest

from benchmark.web.replay.compare import runs_compare
from tests.factories import release_with_cases, run_with_results, run_with_trials
from tests.web.conftest import read_csv

pytestmark = pytest.mark.django_db


@pytest.fixture
def release():
    return release_with_cases("trials-v1")  # 11 cases, one per cell


def test_the_comparison_of_runs_with_trials_pairs_cases(client, release):
    # case 0: A passes trials 0 and 1, B only trial 2 (won); case 1: A fails every trial, B passes (lost)
    a = run_with_trials(release, name="A", trials=3, passed=lambda pos, trial: pos > 1 or (pos == 0 and trial < 2))
    b = run_with_trials(release, name="B", trials=3, passed=lambda pos, trial: pos != 0 or trial == 2)
    cases = list(release.entries.order_by("position").values_list("case__case_id", flat=True))
    comparison = runs_compare(a=a, b=b)
    assert comparison["n"] == 11 and comparison["both_passed"] == 9 and comparison["both_failed"] == 0
    assert [row["key"] for row in comparison["won"]] == [cases[0]]
    assert [row["case_id"] for row in comparison["lost"]] == [cases[1]]
    won = comparison["won"][0]
    shown = a.trajectories.get(pk=won["a_trajectory"])
    assert won["trial"] == shown.trial == 0 and shown.passed and shown.entry.case.case_id == cases[0]
    assert not b.trajectories.get(pk=won["b_trajectory"]).passed
    assert comparison["difference"]["value"] == round((200 / 3 - 100 / 3 - 100) / 11, 2)
    assert comparison["a"]["passed"] == 29 and comparison["a"]["pr_shared"] == round(100 * (2 / 3 + 9) / 11, 1)

    html = client.get("/compare/", {"a": a.id, "b": b.id}).content.decode()
    assert f'data-difference="{comparison["difference"]["value"]}"' in html
    assert f"case={cases[0]}&amp;trial=0" in html


def test_the_run_page_shows_pass_hat_k_with_its_interval_and_per_cell(client, release):
    run = run_with_trials(release, name="two trials", trials=2, passed=lambda pos, trial: pos % 2 == 0 or trial == 0)
    t2 = run.aggregates["table2"]
    assert (
        t2["trials"] == 2 and t2["cases"] == 11 and t2["pass_hat_k"] == {"value": 54.55, "low": 27.27, "high": 81.82}
    )  # 6 of 11 cases
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert re.search(r'pass\^k(</a>)? <strong>54.6%</strong>\s*<span class="ci">95% interval \[27.3, 81.8\]', html)
    assert "Mean over trials (11 cases, 2 trials each)" in html
    assert html.count('<span class="pass-k">pass^2 100.0</span>') == 6  # the even positions pass every trial
    assert html.count('<span class="pass-k">pass^2 0.0</span>') == 5


def test_a_one_trial_run_page_has_no_pass_hat_k(client, release):
    run = run_with_results(release, name="one trial")
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert "pass^" not in html and "Mean over trials" not in html and "trials" not in run.aggregates["table2"]


def test_the_leaderboard_shows_pass_hat_k_beside_the_pass_rate_and_downloads_it(client, release):
    two = run_with_trials(release, name="two trials", trials=2, passed=lambda pos, trial: pos % 2 == 0 or trial == 0)
    one = run_with_results(release, name="one trial")
    html = client.get("/", {"release": release.name}).content.decode()
    rows = dict(
        re.findall(r'<td class="num rank">.*?<a href="/runs/(\d+)/">.*?<td class="num overall">(.*?)</td>', html, re.S)
    )
    # 54.55 as the leaderboard writes every figure (its binary float rounds down)
    assert re.search(r'pass\^2 <strong>54.5</strong> <span class="ci">\[27.3, 81.8\]</span>', rows[str(two.id)])
    assert "pass^" not in rows[str(one.id)]  # one trial per case: pass^1 is the PR beside it
    document = client.get("/", {"release": release.name, "format": "json"}).json()
    by_id = {row["run_id"]: row for row in document["rows"]}
    assert by_id[two.id]["pass_k"] == {"k": 2, "value": 54.55, "low": 27.27, "high": 81.82}
    assert by_id[one.id]["pass_k"] is None
    # the even positions pass both trials (100 %), the odd ones one of two (50 %); each cell has one case
    rates: dict[str, list[float]] = {}
    for position, level in release.entries.values_list("position", "case__level"):
        rates.setdefault(level, []).append(100.0 if position % 2 == 0 else 50.0)
    assert by_id[two.id]["levels"] == {level: round(sum(r) / len(r), 1) for level, r in sorted(rates.items())}
    csv_rows = {row["run_id"]: row for row in read_csv(client.get("/", {"release": release.name, "format": "csv"}))}
    assert (csv_rows[str(two.id)]["pass_k"], csv_rows[str(two.id)]["pass_k_trials"]) == ("54.55", "2")
    assert csv_rows[str(one.id)]["pass_k"] == ""


def test_a_partial_run_or_one_with_uneven_trials_shows_no_pass_hat_k():
    """Before every case has its k trials, a case with fewer would count as passing all k on those it has."""
    from benchmark.board.leaderboard import _pass_k

    table2 = {"pass_hat_k": {"value": 50.0, "low": 20.0, "high": 80.0}, "trials": 3, "trials_min": 3}
    assert _pass_k(table2, complete=True) == {"k": 3, "value": 50.0, "low": 20.0, "high": 80.0}
    assert _pass_k(table2, complete=False) is None
    assert _pass_k({**table2, "trials_min": 2}, complete=True) is None
    assert _pass_k({**table2, "trials": 1, "trials_min": 1}, complete=True) is None
