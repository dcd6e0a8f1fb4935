"""The run page: table 3, cells, per-category breakdown, figures 5 and 6, tokens, failed cases with
reasons and filters, visibility of smoke tests and endpoint details, escaping, bounded queries."""

import re

import pytest
from django.template.defaultfilters import floatformat
from django.test import override_settings

from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from benchmark.runs.results import run_results
from benchmark.web.runs.report import run_cases, table3_rows, tool_failures
from tests.factories import failing_scores, metric, passing_scores, release_with_cases, run_with_results, staff_user

pytestmark = pytest.mark.django_db

WRONG_PLACE = (False, failing_scores(PIoU=metric("PIoU", 0.0), IG=metric("IG", 0.5), TE=metric("TE", 0.25)))
CLOSED = (
    False,
    failing_scores(SC=metric("SC", 0.5, checks=[{"check": "open on arrival", "ok": False, "detail": "closed: N5"}])),
)
STEPS = [
    {
        "tool": "place_search",
        "arguments": {"query_name": "x"},
        "observation": {"places": []},
        "error_kind": "empty_result",
    },
    {"tool": "place_search", "arguments": {"query_name": "y"}, "observation": {"places": [{"place_id": "N1"}]}},
    {
        "tool": "routing",
        "arguments": {"vehicle": "boat"},
        "observation": {"error": {"kind": "invalid_parameter"}},
        "error_kind": "invalid_parameter",
    },
    {"tool": "submit_answer", "arguments": {"result": {}}, "observation": {"result": {}}},
]


@pytest.fixture
def release():
    return release_with_cases("run-v1", per_cell=2)  # 22 cases, two per cell


@pytest.fixture
def run(release):
    return run_with_results(
        release, name="mixed", results=[(True, passing_scores()), WRONG_PLACE, CLOSED], steps=STEPS, tokens=(900, 100)
    )


def test_table3_on_the_page_is_the_runs_stored_table3(client, run):
    stored = run.aggregates["table3"]
    rows = {r["metric"]: r["values"] for r in table3_rows(run_results(run=run))}
    for metric_name, values in rows.items():
        assert values == [stored[level][metric_name] for level in ("L0", "L1", "L2")], metric_name
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert "Metrics per level (table 3)" in html and "Pass Rate@0.9" in html
    pr = [stored[level]["PR"] for level in ("L0", "L1", "L2")]
    assert re.search(r"Pass Rate@0\.9(</a>)?</td>\s*" + r"\s*".join(rf'<td class="num">{v:.1f}</td>' for v in pr), html)


def test_overall_interval_cells_and_category_breakdown(client, run):
    html = client.get(f"/runs/{run.id}/").content.decode()
    overall = run.aggregates["table2"]["overall"]
    assert f"<strong>{overall['value']:.1f}%</strong>" in html
    # as the template rounds (Django's floatformat rounds 54.55 half up; Python's :.1f gives 54.5)
    assert f"[{floatformat(overall['low'], 1)}, {floatformat(overall['high'], 1)}]" in html
    assert "Pass rate per cell (table 2)" in html and "Per category" in html
    assert html.count('<span class="muted">n/a</span>') == 1  # Trip Design has no L0


def test_failed_cases_list_their_reasons_and_link_to_the_replay(client, run):
    cases = [c for c in run_cases(run=run) if not c["passed"]]
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert f"{len(cases)} failed cases match" in html
    for case in cases:
        assert f'href="/trajectories/{case["id"]}/"' in html
    assert '<span class="reason primary">wrong place</span>' in html
    assert '<span class="reason primary">closed on arrival</span>' in html
    assert '<option value="wrong_place">wrong place (7)</option>' in html  # 22 cases cycle 3 results


def test_failed_cases_filter_by_reason_category_and_level(client, run):
    only_closed = client.get(f"/runs/{run.id}/?reason=closed_on_arrival").content.decode()
    assert "closed on arrival" in only_closed and '<span class="reason primary">wrong place</span>' not in only_closed
    routing_l1 = client.get(f"/runs/{run.id}/?category=routing&level=L1").content.decode()
    listed = re.findall(r"<td>(\w+)</td><td>(L\d)</td>", routing_l1)
    assert listed and set(listed) == {("routing", "L1")}
    # the reason counts are those of the active category and level: what choosing a reason would list
    counted = dict(re.findall(r'<option value="(\w+)">[^<]* \((\d+)\)</option>', routing_l1))
    in_cell = [c for c in run_cases(run=run) if (c["category"], c["level"]) == ("routing", "L1") and not c["passed"]]
    assert counted and sum(int(n) for n in counted.values()) >= len(in_cell) > 0
    assert all(int(n) <= len(in_cell) for n in counted.values())  # not the whole run's 7


def test_bad_filters_get_a_400_that_names_what_is_allowed(client, run):
    for query, message in [
        ("reason=bad_luck", "reason must be one of budget_exhausted"),
        ("level=L3", "level must be one of L0, L1, L2"),
        ("category=cooking", "category must be one of place_perception"),
        ("curves=L7", "curves must be all or one of L0, L1, L2"),
    ]:
        page = client.get(f"/runs/{run.id}/?{query}")
        assert page.status_code == 400, query
        assert message in page.content.decode()


def test_figure6_counts_tool_failures_by_kind_per_tool(client, run):
    data = tool_failures(run=run)
    assert data["kinds"] == ["invalid_parameter"]  # the empty place_search worked: a label, not a failure
    assert data["labels"] == ["empty_result"]
    rows = {r["tool"]: r for r in data["rows"]}
    assert rows["place_search"] == {
        "tool": "place_search",
        "calls": 44,
        "failed": 0,
        "kinds": {"invalid_parameter": 0},
        "labelled": {"empty_result": 22},
    }
    assert rows["routing"]["kinds"]["invalid_parameter"] == 22 and rows["submit_answer"]["failed"] == 0
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert "<title>routing: 22 invalid_parameter</title>" in html and "22 of 22 calls" in html
    assert "0 of 44 calls" in html


def test_figure5_curves_and_tokens_histogram_are_drawn(client, run):
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert html.count('aria-label="Exceedance curves of') == 3
    assert re.search(r'<path class="curve series-0" d="M70\.0,[\d.]+ L', html)
    assert 'aria-label="Histogram of tokens per case' in html and "1,000–1,010 tokens: 8 passed" in html
    l2 = client.get(f"/runs/{run.id}/?curves=L2").content.decode()
    assert "<strong>L2</strong>" in l2


def test_smoke_runs_are_seen_only_by_their_submitter_and_staff(client, release):
    owner = _plain_user("owner")
    smoke = run_with_results(release, name="smoke", purpose=EvaluationRun.SMOKE, created_by=owner)
    assert client.get(f"/runs/{smoke.id}/").status_code == 404
    client.force_login(_plain_user("other"))
    assert client.get(f"/runs/{smoke.id}/").status_code == 404
    client.force_login(owner)
    page = client.get(f"/runs/{smoke.id}/")
    assert page.status_code == 200 and "smoke test (not on the leaderboard)" in page.content.decode()
    client.force_login(staff_user("admin"))
    assert client.get(f"/runs/{smoke.id}/").status_code == 200
    assert client.get("/runs/999999/").status_code == 404


def _plain_user(username):
    from django.contrib.auth.models import User

    return User.objects.create_user(username=username, password="pw")


def test_endpoint_base_is_shown_to_its_owner_only_and_the_key_never(client, release):
    owner = _plain_user("owner")
    endpoint = ModelEndpoint.objects.create(
        name="mine",
        model="openai/our-model",
        owner=owner,
        api_base="https://models.example.org/v1",
        api_key_encrypted="SECRETBLOB",
    )
    run = run_with_results(release, name="endpoint run", agent="litellm", endpoint=endpoint)
    public = client.get(f"/runs/{run.id}/").content.decode()
    assert "openai/our-model" in public and "models.example.org" not in public
    client.force_login(owner)
    mine = client.get(f"/runs/{run.id}/").content.decode()
    assert "https://models.example.org/v1" in mine and "SECRETBLOB" not in mine


def test_hostile_names_tools_and_case_ids_are_escaped(client, release):
    steps = [{"tool": "<script>alert(1)</script>", "arguments": {}, "observation": None, "error_kind": "other"}]
    run = run_with_results(release, name='"><svg onload=alert(2)>', results=[WRONG_PLACE], steps=steps)
    html = client.get(f"/runs/{run.id}/").content.decode()
    assert "<script>alert(1)" not in html and "<svg onload" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # in the figure 6 SVG and its table
    assert "&quot;&gt;&lt;svg onload=alert(2)&gt;" in html


def test_progress_partial_is_included_while_the_run_is_running(client, release, tmp_path, settings):
    partial = tmp_path / "web" / "_progress.html"
    partial.parent.mkdir()
    partial.write_text('<div id="progress-marker">progress of run {{ run.id }}</div>')
    running = run_with_results(release, name="live", status=EvaluationRun.RUNNING)
    done = run_with_results(release, name="finished")
    templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    with override_settings(TEMPLATES=templates):
        assert f"progress of run {running.id}" in client.get(f"/runs/{running.id}/").content.decode()
        assert "progress-marker" not in client.get(f"/runs/{done.id}/").content.decode()
    assert "PR@0.9 so far" in client.get(f"/runs/{running.id}/").content.decode()


def test_run_page_queries_do_not_grow_with_cases(client, django_assert_max_num_queries):
    small = run_with_results(release_with_cases("small"), name="small", steps=STEPS, results=[WRONG_PLACE])
    large = run_with_results(release_with_cases("large", per_cell=6), name="large", steps=STEPS, results=[WRONG_PLACE])
    for run in (small, large):
        with django_assert_max_num_queries(6):
            assert client.get(f"/runs/{run.id}/").status_code == 200


def test_a_running_run_shows_the_live_progress_partial(client, release):
    running = run_with_results(release, name="live", status=EvaluationRun.RUNNING)
    html = client.get(f"/runs/{running.id}/").content.decode()
    assert '<section class="run-progress"' in html and 'data-status="running"' in html  # the live-progress partial
    assert "css/submit.css" in html and "js/progress.js" in html
    done = client.get(f"/runs/{run_with_results(release, name='done').id}/").content.decode()
    assert "run-progress" not in done and "css/submit.css" not in done


def test_a_failed_run_says_why_on_its_page_and_in_the_api(client, run):
    run.status, run.error = "failed", "the endpoint has no API key: add one, or mark it keyless (no_key)"
    run.save(update_fields=["status", "error"])
    assert "Why it stopped" in client.get(f"/runs/{run.id}/").content.decode()
    assert client.get(f"/api/v1/runs/{run.id}/").json()["error"] == run.error
