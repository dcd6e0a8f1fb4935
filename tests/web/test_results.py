"""One read path for a run's results: the run page, the API and the leaderboard show table 2, table 3
and the per-category table as the run stored them (benchmark/runs/results.py), a run in progress
the same tables computed over its finished trajectories, and a run stored before the per-category
table still shows it."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.template.defaultfilters import floatformat

from benchmark.cases.models import CATEGORIES
from benchmark.runs.aggregates import run_aggregates, run_tables
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.runs.results import run_results, run_results_stored
from judging.aggregate import TABLE3_METRICS
from kernel.vocabulary import CELLS
from tests.factories import failing_scores, metric, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
LEVELS = ("L0", "L1", "L2")
CATEGORY_LABELS = dict(CATEGORIES)
TABLE3_LABELS = {"PR": "Pass Rate@0.9", "tokens": "Tokens / case"}


def _rows(html: str, heading: str) -> list[list[str]]:
    """The body rows of the table under ``heading``, each a list of its cells' text."""
    table = re.search(re.escape(heading) + r".*?<tbody>(.*?)</tbody>", html, re.S).group(1)
    return [
        [
            " ".join(unescape(re.sub(r"<[^>]+>", " ", cell)).split())
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)
    ]


def _num(value, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _cell_text(table2: dict, category: str, level: str) -> str:
    if (category, level) not in CELLS:
        return "n/a"
    cell = table2["cells"][f"{category}/{level}"]
    if cell["pr"] is None:
        return "–"
    text = f"{floatformat(cell['pr'], 1)} ({cell['n']})"
    return text + (f" pass^{cell['trials']} {floatformat(cell['pass_hat_k'], 1)}" if "pass_hat_k" in cell else "")


def assert_page_shows(html: str, tables: dict) -> None:
    """The page's table 2 cells, table 3 and per-category table are ``tables``' numbers, as formatted."""
    table2, table3, categories = tables["table2"], tables["table3"], tables["categories"]
    cells = _rows(html, "Pass rate per cell (table 2)")
    assert cells == [[CATEGORY_LABELS[c], *(_cell_text(table2, c, lv) for lv in LEVELS)] for c in CATEGORY_LABELS]
    badge = " trivially high: no note read"  # TE and RP of a run that read no note (benchmark/web/process_caveat.py)
    rows = _rows(html, "Metrics per level (table 3)")
    assert {row[1].removesuffix(badge) for row in rows if row[1].endswith(badge)} <= {"TE", "RP"}
    shown = {row[1].removesuffix(badge): row[2:] for row in rows}
    for name in (*TABLE3_METRICS, "PR", "tokens"):
        digits = 0 if name == "tokens" else 1
        assert shown[TABLE3_LABELS.get(name, name)] == [_num(table3[lv][name], digits) for lv in LEVELS], name
    per_category = _rows(html, "<h2>Per category</h2>")
    assert per_category == [
        [
            CATEGORY_LABELS[c],
            str(categories[c]["n"]),
            _num(categories[c]["PR"]),
            *(_num(categories[c][m]) for m in TABLE3_METRICS),
            _num(categories[c]["tokens"], 0),
        ]
        for c in CATEGORY_LABELS
    ]


def _hand_counted_cells(run: EvaluationRun) -> dict:
    """Each cell's pass rate counted from the run's finished trajectories, without judging.aggregate."""
    counts: dict[str, list[bool]] = {}
    for category, level, passed in run.trajectories.filter(status=Trajectory.DONE).values_list(
        "entry__case__category", "entry__case__level", "passed"
    ):
        counts.setdefault(f"{category}/{level}", []).append(bool(passed))
    return {key: round(100 * sum(v) / len(v), 1) for key, v in counts.items()}


@pytest.mark.parametrize("agent", ["reference", "heuristic"])
def test_a_finished_runs_page_api_and_leaderboard_show_its_stored_tables(client, web_runs, agent):
    run = web_runs[agent]
    stored = run.aggregates
    assert stored == run_aggregates(run=run)  # stored from the trajectories it holds
    assert {k: v["pr"] for k, v in stored["table2"]["cells"].items() if v["n"]} == _hand_counted_cells(run)
    if agent == "heuristic":
        assert stored["table2"]["overall"]["value"] < 100.0, "the heuristic fails some cases"

    assert_page_shows(client.get(f"/runs/{run.id}/").content.decode(), stored)
    scores = client.get(f"/api/v1/runs/{run.id}/scores/").json()
    assert (scores["table2"], scores["table3"]) == (stored["table2"], stored["table3"])
    assert client.get(f"/api/v1/runs/{run.id}/").json()["aggregates"] == stored
    board = client.get("/api/v1/leaderboard/", {"release": run.release.name}).json()
    [row] = [r for r in board["rows"] if r["run_id"] == run.id]
    assert row["cells"] == {key: cell["pr"] for key, cell in stored["table2"]["cells"].items()}
    assert row["overall"] == stored["table2"]["overall"] and row["macro"] == stored["table2"]["macro"]


def test_a_running_runs_page_shows_the_tables_of_its_finished_trajectories(client):
    release = release_with_cases("live-v1", per_cell=2)
    wrong = (False, failing_scores(PIoU=metric("PIoU", 0.0), IG=metric("IG", 0.5)))
    run = run_with_results(
        release,
        name="live",
        status=EvaluationRun.RUNNING,
        limit=15,
        tokens=(300, 50),
        results=[(True, passing_scores()), wrong],
    )
    assert run.aggregates == {} and run_results_stored(run=run) is None
    live = run_tables(run=run)
    assert live["table2"]["n"] == 15 and run_results(run=run).final is False
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert_page_shows(html, live)
    assert f"PR@0.9 so far <strong>{floatformat(live['table2']['overall']['value'], 1)}%</strong> over 15" in html
    assert client.get(f"/api/v1/runs/{run.id}/scores/").json()["table2"] is None  # the API: final results only


def test_results_stored_before_the_per_category_table_still_show_it(client):
    release = release_with_cases("older-v1")
    run = run_with_results(release, name="older", results=[(True, passing_scores()), (False, failing_scores())])
    complete = dict(run.aggregates)
    EvaluationRun.objects.filter(id=run.id).update(aggregates={k: v for k, v in complete.items() if k != "categories"})
    run.refresh_from_db()
    assert run_results_stored(run=run).categories is None
    assert run_results(run=run).categories == complete["categories"]  # computed from the stored scores
    assert_page_shows(client.get(f"/runs/{run.id}/").content.decode(), complete)
    assert client.get(f"/api/v1/runs/{run.id}/").json()["aggregates"]["categories"] is None
