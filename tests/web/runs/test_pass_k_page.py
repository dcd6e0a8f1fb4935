"""The run page's pass^k curve for a run with several trials per case (k = 1 .. trials)."""

from __future__ import annotations

import re

import pytest

from tests.factories import release_with_cases, run_with_results, run_with_trials

pytestmark = pytest.mark.django_db


def curve(html: str) -> dict[int, str]:
    return {int(k): v for k, v in re.findall(r'<td class="num" data-k="(\d+)">([\d.]+)</td>', html)}


def test_the_run_page_shows_pass_hat_k_for_every_k(client):
    release = release_with_cases("passk-v1")  # 11 cases
    # the first case passes trials 0 and 1 of 3 (pass^1 2/3, pass^2 1/3, pass^3 0); every other case passes all
    first = release.entries.order_by("position")[0].position
    run = run_with_trials(release, name="three", trials=3, passed=lambda pos, trial: pos != first or trial < 2)
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert curve(html) == {
        1: f"{100 * (2 / 3 + 10) / 11:.1f}",
        2: f"{100 * (1 / 3 + 10) / 11:.1f}",
        3: f"{100 * 10 / 11:.1f}",
    }
    assert curve(html)[3] == "90.9" and "pass^k</a> by k" in html
    # the stored pass^k (every trial passed) is the curve's last point
    assert run.aggregates["table2"]["pass_hat_k"]["value"] == round(100 * 10 / 11, 2)


def test_a_one_trial_run_has_no_curve(client):
    release = release_with_cases("passk-v2")
    run = run_with_results(release, name="once")
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert curve(html) == {} and "by k</h2>" not in html
