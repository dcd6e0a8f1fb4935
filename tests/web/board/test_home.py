"""The home page is the leaderboard; it keeps the built cities' summary in its City box."""

import pytest

pytestmark = pytest.mark.django_db


def test_home_lists_built_cities_with_their_counts(client, grid_city):
    page = client.get("/")
    assert page.status_code == 200
    html = page.content.decode()
    counts = grid_city.report["counts"]
    assert "<h2>City</h2>" in html and "<td>gridtown</td>" in html
    assert f"<td>{counts['notes']}</td><td>{counts['comments']}</td>" in html
    assert 'href="/about/#connect">connect an agent</a>' in html  # explained there, not as a command line


def test_home_without_runs_says_how_to_make_one(client):
    from benchmark.runs.models import EvaluationRun

    EvaluationRun.objects.update(purpose=EvaluationRun.SMOKE)  # runs other modules committed (rolled back after)
    html = client.get("/").content.decode()
    assert "No evaluation run has finished yet" in html and 'href="/submit/"' in html
