"""The leaderboard (home page): rows from stored aggregates, honest ranks, sorting, filters, cost,
visibility of smoke tests, escaping, and a query count that does not grow with the runs."""

import re

import litellm
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmark.board.leaderboard import CELL_KEYS, leaderboard_releases, leaderboard_rows, leaderboard_sort
from benchmark.cases.models import Release
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results, staff_user

pytestmark = pytest.mark.django_db
PASS, FAIL = (True, passing_scores()), (False, failing_scores())


@pytest.fixture
def release():
    return release_with_cases("board-v1", per_cell=2)  # 22 cases


def test_rows_carry_table2_of_each_runs_aggregates(release):
    run = run_with_results(release, name="half", results=[PASS, FAIL], tokens=(100, 20))
    [row] = leaderboard_rows(release=release, user=None)
    table2 = run.aggregates["table2"]
    assert row["run_id"] == run.id and row["name"] == "half" and row["agent"] == "litellm"
    assert row["model"] == "half" and row["status"] == "completed" and row["verified"] is True
    assert row["section"] == "verified" and row["description"]
    assert list(row["cells"]) == list(CELL_KEYS)
    assert row["cells"] == {key: table2["cells"][key]["pr"] for key in CELL_KEYS}
    assert set(row["cells"].values()) == {50.0}  # per cell: the first case passes, the second fails
    assert row["overall"] == table2["overall"] and row["overall"]["value"] == 50.0
    assert row["overall"]["low"] < 50.0 < row["overall"]["high"]
    assert (row["macro"], row["avg_tokens"], row["n"], row["cost"]) == (50.0, 120.0, 22, None)
    assert row["rank"] == [1, 1]


def test_ranks_are_ranges_where_intervals_overlap(release):
    best = run_with_results(release, name="best", results=[PASS])
    close = run_with_results(release, name="close", results=[PASS] * 10 + [FAIL])
    worst = run_with_results(release, name="worst", results=[FAIL])
    rows = {r["name"]: r for r in leaderboard_rows(release=release, user=None)}
    assert [r["run_id"] for r in leaderboard_rows(release=release, user=None)] == [best.id, close.id, worst.id]
    assert rows["best"]["rank"] == [1, 2] and rows["close"]["rank"] == [1, 2]  # 100% vs ~91%: intervals overlap
    assert rows["worst"]["rank"] == [3, 3]


def test_partial_runs_are_shown_but_not_ranked(client, release):
    full = run_with_results(release, name="full", results=[FAIL])
    partial = run_with_results(release, name="three cases", limit=3)
    rows = {r["name"]: r for r in leaderboard_rows(release=release, user=None)}
    assert rows["full"]["complete"] and rows["full"]["rank"] == [1, 1]
    assert not rows["three cases"]["complete"] and rows["three cases"]["rank"] is None
    assert rows["three cases"]["overall"]["value"] == 100.0 and rows["three cases"]["n"] == 3
    assert [r["run_id"] for r in leaderboard_rows(release=release, user=None)] == [full.id, partial.id]
    assert rows["three cases"]["overall"]["low"] is None and rows["three cases"]["overall"]["high"] is None
    assert "partial: 3 of 22" in client.get("/").content.decode()


def test_smoke_tests_never_reach_the_leaderboard_and_unfinished_runs_are_unranked(release):
    owner = staff_user("owner")
    run_with_results(release, name="smoke", purpose=EvaluationRun.SMOKE, created_by=owner)
    running = run_with_results(release, name="running", status=EvaluationRun.RUNNING)
    done = run_with_results(release, name="done")
    for user in (None, owner):
        rows = leaderboard_rows(release=release, user=user)
        assert [r["run_id"] for r in rows] == [done.id, running.id]
    assert rows[1]["overall"] is None and rows[1]["rank"] is None and rows[1]["cells"]["routing/L1"] is None


def test_cost_is_priced_by_litellm_for_known_models_only(release):
    known = ModelEndpoint.objects.create(name="mini", model="gpt-4o-mini")
    unknown = ModelEndpoint.objects.create(name="local", model="openai/our-own-model")
    run_with_results(release, name="priced", agent="litellm", endpoint=known, tokens=(1000, 100))
    run_with_results(release, name="unpriced", agent="litellm", endpoint=unknown, tokens=(1000, 100))
    rows = {r["name"]: r for r in leaderboard_rows(release=release, user=None)}
    prompt, completion = litellm.cost_per_token(
        model="gpt-4o-mini", prompt_tokens=22 * 1000, completion_tokens=22 * 100
    )
    assert rows["priced"]["cost"] == pytest.approx(prompt + completion)
    assert rows["priced"]["model"] == "gpt-4o-mini"
    assert rows["unpriced"]["cost"] is None


def test_sort_orders_by_any_column_with_missing_values_last(release):
    a = run_with_results(release, name="alpha", results=[FAIL])
    b = run_with_results(release, name="Bravo", results=[PASS, FAIL])
    c = run_with_results(release, name="charlie", status=EvaluationRun.QUEUED)
    rows = leaderboard_rows(release=release, user=None)
    ids = lambda sort: [r["run_id"] for r in leaderboard_sort(rows, sort=sort)]  # noqa: E731
    assert ids("name") == [a.id, b.id, c.id] and ids("-name") == [b.id, a.id, c.id]  # c: the partial table
    assert ids("overall") == [a.id, b.id, c.id] and ids("-overall") == [b.id, a.id, c.id]
    assert ids("-routing/L0") == [b.id, a.id, c.id]
    with pytest.raises(ValueError, match="sort must be one of rank, name.*got 'size'"):
        leaderboard_sort(rows, sort="size")


def test_home_page_shows_each_run_linked_with_its_cells_interval_and_rank(client, release):
    run = run_with_results(release, name="half", results=[PASS, FAIL])
    uploaded = run_with_results(release, name="upload", agent="upload", verified=False)
    html = client.get("/").content.decode()
    assert f'href="/runs/{run.id}/"' in html and f'href="/runs/{uploaded.id}/"' in html
    overall = run.aggregates["table2"]["overall"]
    assert f"[{overall['low']:.1f}, {overall['high']:.1f}]" in html
    assert html.count('<td class="num">50.0</td>') == 11 + 1  # the 11 cells and the cell mean
    assert html.count('class="badge self-reported"') == 1 and html.count('class="badge verified"') == 1
    verified, self_reported = html.split('id="self-reported"')
    assert f'href="/runs/{run.id}/"' in verified and f'href="/runs/{uploaded.id}/"' in self_reported
    assert '<td class="num rank">1</td>' in verified and '<td class="num rank">' not in self_reported.replace(
        '<td class="num rank">–</td>', ""
    )  # ranked among the verified runs only


def test_home_page_sorts_on_the_server_and_explains_a_bad_sort(client, release):
    run_with_results(release, name="zulu", results=[PASS])
    run_with_results(release, name="alpha", results=[FAIL])
    html = client.get("/?sort=name").content.decode()
    assert html.index(">alpha<") < html.index(">zulu<")
    assert 'href="?sort=-name"' in html  # the active column's link reverses it
    bad = client.get("/?sort=size")
    assert bad.status_code == 400
    assert "sort must be one of rank, name" in bad.content.decode() and "&#x27;size&#x27;" in bad.content.decode()


def test_release_filter_defaults_to_the_newest_public_release_with_runs(client, release):
    hidden = release_with_cases("board-hidden", split=Release.HIDDEN)
    older = release_with_cases("board-old")
    run_with_results(release, name="on-v1")
    run_with_results(hidden, name="on-hidden")
    # Releases committed by other test modules may be listed too; these are this test's own.
    own = [r.name for r in leaderboard_releases(user=None) if r.name.startswith("board-")]
    assert own == ["board-hidden", "board-v1"]  # newest first; older has no run
    assert "on-v1" in client.get("/").content.decode()
    assert "on-hidden" in client.get("/?release=board-hidden").content.decode()
    missing = client.get(f"/?release={older.name}")
    assert missing.status_code == 404
    assert "no release named &#x27;board-old&#x27;; releases: board-hidden, board-v1" in missing.content.decode()


def test_verified_filter_hides_self_reported_runs(client, release):
    run_with_results(release, name="platform")
    uploaded = run_with_results(release, name="self-run", agent="upload", verified=False)
    html = client.get("/?verified=1").content.decode()
    assert ">platform<" in html and ">self-run<" not in html and f"/runs/{uploaded.id}/" not in html
    assert f"/runs/{uploaded.id}/" in client.get("/").content.decode()


def test_hostile_run_names_and_models_are_escaped(client, release):
    endpoint = ModelEndpoint.objects.create(name="evil", model='openai/"><img src=x onerror=alert(1)>')
    run_with_results(release, name="<script>alert('pwned')</script>", agent="litellm", endpoint=endpoint)
    html = client.get("/").content.decode()
    assert "<script>alert(" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#x27;pwned&#x27;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_the_leaderboard_reads_no_trajectory_and_its_queries_do_not_grow_with_runs(client, release):
    run_with_results(release, name="first")

    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/").status_code == 200
        return captured

    few = queries()
    for n in range(8):
        run_with_results(release, name=f"more {n}", results=[PASS, FAIL])
    many = queries()
    assert len(many) == len(few) <= 4
    assert not any(re.search(r'FROM "benchmark_trajectory"', q["sql"]) for q in many.captured_queries)


def test_a_priced_run_adds_one_query_for_all_runs(client, release, django_assert_max_num_queries):
    endpoint = ModelEndpoint.objects.create(name="mini", model="gpt-4o-mini")
    for n in range(5):
        run_with_results(release, name=f"priced {n}", agent="litellm", endpoint=endpoint, tokens=(10, 1))
    with django_assert_max_num_queries(5):
        assert client.get("/").status_code == 200
