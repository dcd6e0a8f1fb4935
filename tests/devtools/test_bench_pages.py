"""bench_pages on a tiny release: it stores copies, times the pages, and leaves nothing behind."""

import io
import re

import pytest
from django.core.management import CommandError, call_command

from benchmark.runs.models import EvaluationRun, Step, Trajectory
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
STEPS = [
    {
        "tool": "place_search",
        "arguments": {"query_name": "x"},
        "observation": {"places": []},
        "error_kind": "empty_result",
    },
    {"tool": "submit_answer", "arguments": {"result": {}}, "observation": {"result": {}}},
]


def test_bench_pages_times_the_pages_on_copies_and_rolls_them_back():
    release = release_with_cases("bench-tiny")
    run_with_results(release, name="reference", agent="reference", steps=STEPS)
    run_with_results(
        release,
        name="heuristic",
        agent="heuristic",
        steps=STEPS,
        results=[(True, passing_scores()), (False, failing_scores())],
    )
    before = (EvaluationRun.objects.count(), Trajectory.objects.count(), Step.objects.count())
    out = io.StringIO()
    call_command("bench_pages", release="bench-tiny", runs=4, requests=3, stdout=out)
    text = out.getvalue()
    assert "stored 4 runs on bench-tiny: 44 trajectories, 88 steps, aggregates recomputed" in text
    for page in ("leaderboard", "run page", "compare"):
        line = re.search(rf"^{page}\s+/\S*\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+\d+ ms (ok|MISSED)$", text, re.M)
        assert line, text
        assert 0 < float(line.group(1)) <= float(line.group(2)) <= float(line.group(3))
        assert 0 < int(line.group(4)) <= 6
    assert re.search(r"^replay page\s+(/trajectories/\d+/\s+[\d.]+|missing)", text, re.M)
    assert re.search(r"^compare case\s+/compare/\?a=\d+&b=\d+&case=\S+&trial=0\s+[\d.]+", text, re.M), text
    assert "rolled back: the database is as it was" in text
    assert (EvaluationRun.objects.count(), Trajectory.objects.count(), Step.objects.count()) == before


def test_bench_pages_needs_complete_source_runs():
    release_with_cases("bench-empty")
    with pytest.raises(CommandError, match="no completed 'reference' run of all 11 cases on bench-empty"):
        call_command("bench_pages", release="bench-empty", runs=1, requests=1)
    with pytest.raises(CommandError, match="no release named 'nope'"):
        call_command("bench_pages", release="nope")
