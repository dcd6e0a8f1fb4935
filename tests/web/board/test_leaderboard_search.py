"""Finding runs on the leaderboard: search, provider and date filters, the category view, and bad values.

Filters hide rows; they never rank again: a row keeps the rank it has among every run of the release.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from benchmark.board.search import LeaderboardQuery, leaderboard_view, provider_of
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
Result = tuple[bool | None, dict]
PASS: Result = (True, passing_scores())
FAIL: Result = (False, failing_scores())


@pytest.fixture
def release():
    return release_with_cases("find-v1", per_cell=2)  # 22 cases, entries in table 2's cell order


def created(run: EvaluationRun, day: str) -> EvaluationRun:
    EvaluationRun.objects.filter(id=run.id).update(
        created_at=datetime.fromisoformat(day + "T12:00").replace(tzinfo=UTC)
    )
    return run


@pytest.fixture
def runs(release):
    """Three model runs from three providers on three days, and the reference baseline."""
    gpt = ModelEndpoint.objects.create(name="gpt", model="openai/gpt-4o")
    claude = ModelEndpoint.objects.create(name="claude", model="anthropic/claude-3-5-sonnet")
    return {
        "best": created(run_with_results(release, name="Best run", endpoint=gpt), "2026-11-01"),
        "middle": created(
            run_with_results(release, name="middle", endpoint=claude, results=[PASS, FAIL], verified=False),
            "2026-11-15",
        ),
        "worst": created(run_with_results(release, name="worst", agent="heuristic-plus", results=[FAIL]), "2026-11-30"),
        "oracle": created(run_with_results(release, name="oracle", agent="reference"), "2026-11-20"),
    }


def ids(response) -> list[int]:
    """The run ids of the leaderboard page's rows, in page order (table by table: verified, self-reported, partial,
    baselines)."""
    html = response.content.decode()
    return [int(i) for i in re.findall(r'<a href="/runs/(\d+)/">', html)]


def rows_for(release, **params) -> list[dict]:
    return leaderboard_view(release=release, user=None, query=LeaderboardQuery.parse(params))


def test_provider_is_the_model_strings_litellm_prefix():
    assert provider_of("openai/gpt-4o") == "openai"
    assert provider_of("hosted_vllm/org/model") == "hosted_vllm"
    assert provider_of("gpt-4o-mini") == "" and provider_of("") == "" and provider_of("/x") == ""


def test_q_searches_run_name_model_and_agent_ignoring_case(client, release, runs):
    assert ids(client.get("/?release=find-v1&q=BEST")) == [runs["best"].id]
    assert ids(client.get("/?release=find-v1&q=claude-3")) == [runs["middle"].id]  # the model string
    assert ids(client.get("/?release=find-v1&q=heuristic")) == [runs["worst"].id]  # the agent
    assert ids(client.get("/?release=find-v1&q=nothing-like-it")) == []


def test_provider_filter_picks_the_prefix_and_none_for_runs_without_an_endpoint(client, release, runs):
    assert ids(client.get("/?release=find-v1&provider=openai")) == [runs["best"].id]
    assert ids(client.get("/?release=find-v1&provider=anthropic")) == [runs["middle"].id]
    assert ids(client.get("/?release=find-v1&provider=none")) == [runs["worst"].id, runs["oracle"].id]
    html = client.get("/?release=find-v1").content.decode()
    assert '<option value="anthropic">anthropic</option>' in html and '<option value="openai">' in html


def test_date_range_counts_both_days_of_the_runs_creation(client, release, runs):
    assert ids(client.get("/?release=find-v1&since=2026-11-15")) == [
        runs["worst"].id,  # verified
        runs["middle"].id,  # self-reported
        runs["oracle"].id,  # baseline
    ]
    assert ids(client.get("/?release=find-v1&until=2026-11-15")) == [runs["best"].id, runs["middle"].id]
    assert ids(client.get("/?release=find-v1&since=2026-11-15&until=2026-11-15")) == [runs["middle"].id]


def test_filters_compose_and_keep_the_ranks_of_the_whole_release(client, release, runs):
    every = {r["run_id"]: r["rank"] for r in rows_for(release)}
    assert every[runs["worst"].id] == [2, 2] and every[runs["middle"].id] is None  # self-reported: never ranked
    [row] = rows_for(release, q="worst", since="2026-11-30", provider="none")
    assert row["run_id"] == runs["worst"].id and row["rank"] == [2, 2]  # not re-ranked to 1
    response = client.get("/?release=find-v1&provider=none&since=2026-11-02&sort=-name")
    assert ids(response) == [runs["worst"].id, runs["oracle"].id]
    assert "ranks are those among all 4 runs of the release" in response.content.decode()
    # verified composes with the rest: the middle run is self-reported
    everything = [runs["worst"].id, runs["middle"].id, runs["oracle"].id]  # "l": heuristic-plus, middle, oracle
    assert ids(client.get("/?release=find-v1&verified=1&since=2026-11-10&q=L")) == [everything[0], everything[2]]
    assert ids(client.get("/?release=find-v1&verified=0&since=2026-11-10&q=l")) == everything


def test_the_form_keeps_the_values_given_escaped(client, release, runs):
    html = client.get('/?release=find-v1&q="><script>x</script>&since=2026-11-01&category=routing').content.decode()
    assert 'value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"' in html and "<script>x</script>" not in html
    assert 'name="since" value="2026-11-01"' in html
    assert '<option value="routing" selected>Routing</option>' in html


@pytest.mark.parametrize(
    ("query", "field", "allowed"),
    [
        ("since=2026-13-01", "since", "YYYY-MM-DD"),
        ("since=yesterday", "since", "YYYY-MM-DD"),
        ("until=2026-02-30", "until", "YYYY-MM-DD"),
        ("since=2026-11-15&until=2026-11-01", "until", "must not be before since"),
        ("q=" + "x" * 201, "q", "at most 200 characters"),
        ("provider=Open%20AI!", "provider", "litellm provider prefix"),
        ("category=cooking", "category", "place_perception, nearby_discovery, routing, trip_design"),
        ("verified=yes", "verified", "1 (verified runs only) or 0"),
        ("format=xml", "format", "csv, json"),
        ("sort=shoe-size", "sort", "rank, name"),
    ],
)
def test_bad_values_get_a_400_page_naming_the_field_the_value_and_what_is_allowed(
    client, release, runs, query, field, allowed
):
    response = client.get(f"/?release=find-v1&{query}")
    assert response.status_code == 400
    html = response.content.decode()
    assert f"{field} must" in html and allowed in html
    value = query.split("=", 1)[1].split("&")[0]
    if field not in ("q", "until", "provider"):
        assert f"got &#x27;{value}&#x27;" in html
    if field == "q":
        assert "(201 characters)" in html


def test_the_api_refuses_the_same_bad_values_naming_the_field(client, release, runs):
    assert client.get("/api/v1/leaderboard/?release=find-v1&since=2026-1-1").json() == {
        "since": ["since must be an ISO date, YYYY-MM-DD (e.g. 2026-12-01); got '2026-1-1'"]
    }
    assert "category" in client.get("/api/v1/leaderboard/?release=find-v1&category=x").json()


# ------------------------------------------------------------------ category view


@pytest.fixture
def specialists(release):
    """'router' passes every routing case and nothing else; 'placer' passes everything but routing."""
    entries = list(release.entries.order_by("position").values_list("case__category", flat=True))
    routing_only = [PASS if category == "routing" else FAIL for category in entries]
    all_but_routing = [FAIL if category == "routing" else PASS for category in entries]
    return {
        "router": run_with_results(release, name="router", results=routing_only),
        "placer": run_with_results(release, name="placer", results=all_but_routing),
        "partial": run_with_results(release, name="partial router", results=routing_only, limit=8),
    }


def test_category_view_ranks_and_sorts_by_the_categorys_pass_rate(client, release, specialists):
    overall = rows_for(release)
    assert [r["name"] for r in overall] == ["placer", "router", "partial router"]  # 16/22 beats 6/22
    rows = rows_for(release, category="routing")
    assert [r["name"] for r in rows] == ["router", "placer", "partial router"]
    router, placer, partial = rows
    assert router["rank"] == [1, 1] and placer["rank"] == [2, 2] and partial["rank"] is None  # partial: unranked
    assert router["category"] == {"name": "routing", "overall": 100.0, "cells": {"L0": 100.0, "L1": 100.0, "L2": 100.0}}
    assert placer["category"]["overall"] == 0.0 and placer["overall"]["value"] > router["overall"]["value"]
    html = client.get("/?release=find-v1&category=routing").content.decode()
    assert "Routing PR" in html and ids(client.get("/?release=find-v1&category=routing")) == [
        specialists["router"].id,
        specialists["placer"].id,
        specialists["partial"].id,
    ]


def test_category_view_of_trip_design_has_no_l0_cell_and_ties_share_a_rank(release, specialists):
    rows = rows_for(release, category="trip_design")
    assert [r["name"] for r in rows][:2] == ["placer", "router"]
    assert rows[0]["category"]["cells"] == {"L0": None, "L1": 100.0, "L2": 100.0}
    same = run_with_results(release, name="passes all")
    tied = {r["run_id"]: r["rank"] for r in rows_for(release, category="trip_design")}
    assert tied[same.id] == [1, 1] and tied[specialists["placer"].id] == [1, 1]
    assert tied[specialists["router"].id] == [3, 3]
