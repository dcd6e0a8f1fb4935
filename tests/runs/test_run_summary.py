"""The evaluate command's table 2 summary: unchanged for one trial, pass^k added for several."""

from __future__ import annotations

import pytest

from benchmark.runs.driver import run_summary
from tests.factories import release_with_cases, run_with_results, run_with_trials

pytestmark = pytest.mark.django_db


@pytest.fixture
def release():
    return release_with_cases("summary-v1", cells=[("routing", "L1")], per_cell=4)


def test_a_one_trial_summary_has_no_trial_columns(release):
    lines = run_summary(run=run_with_results(release, name="one")).splitlines()
    assert lines[1].split() == ["cell", "PR@0.9", "n"]
    assert lines[2].split() == ["routing/L1", "100.0%", "4"]
    assert lines[3].startswith("overall") and len(lines) == 4


def test_a_summary_over_trials_shows_pass_hat_k_per_cell_and_overall(release):
    run = run_with_trials(release, name="three", trials=3, passed=lambda pos, trial: pos < 2 or trial == 0)
    pass_k = run.aggregates["table2"]["pass_hat_k"]
    lines = run_summary(run=run).splitlines()
    assert lines[1].split() == ["cell", "PR@0.9", "n", "pass^k"]
    assert lines[2].split() == ["routing/L1", "66.7%", "12", "50.0%"]
    assert lines[3].split()[:3] == ["overall", "66.7%", "12"]
    assert lines[4].split()[:4] == ["pass^k", "(k=3)", "50.0%", "4"]
    assert f"95% interval [{pass_k['low']:.1f}, {pass_k['high']:.1f}], cases whose every trial passed" in lines[4]
    assert lines[5] == "PR@0.9 is the mean over trials (4 cases, 3 trials each); intervals resample cases"
