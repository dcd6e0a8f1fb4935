"""A model's card: its declared metadata and its listed runs across releases, linked from the leaderboard."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from benchmark.board.model_cards import model_card
from benchmark.cases.models import Release
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
PASS, FAIL = (True, passing_scores()), (False, failing_scores())

MODEL = "openai/smollm2"
CARD = {
    "organisation": "Hugging Face (HuggingFaceTB)",
    "parameters": "135M",
    "open_weights": True,
    "quantisation": "Q4_1 (GGUF)",
    "server": "llama-cpp-python 0.3.36",
}


@pytest.fixture
def model_runs():
    owner = User.objects.create_user("researcher", password="pw")
    endpoint = ModelEndpoint.objects.create(name="local smollm2", model=MODEL, card=CARD, owner=owner)
    first, second = release_with_cases("card-v1", per_cell=1), release_with_cases("card-v2", per_cell=1)
    hidden = release_with_cases("card-hidden", per_cell=1, split=Release.HIDDEN)
    return {
        "v1": run_with_results(first, name="smol v1", endpoint=endpoint, created_by=owner),
        "v2": run_with_results(
            second,
            name="smol v2",
            endpoint=endpoint,
            created_by=owner,
            results=[PASS, FAIL],
        ),
        "upload": run_with_results(
            second, name="smol elsewhere", agent="upload", verified=False, model_name=MODEL, description="Our lab."
        ),
        "smoke": run_with_results(first, name="smol smoke", endpoint=endpoint, purpose=EvaluationRun.SMOKE),
        "undescribed": run_with_results(
            second, name="smol anonymous", agent="upload", model_name=MODEL, description=""
        ),
        "hidden": run_with_results(hidden, name="smol hidden", endpoint=endpoint, created_by=owner),
        "other": run_with_results(first, name="another model", model_name="other/model"),
    }


def test_the_card_lists_the_declared_metadata_and_every_listed_run_across_releases(model_runs):
    card = model_card(model=MODEL, user=None)
    assert card["provider"] == "openai" and card["submitters"] == ["researcher"]
    assert card["card"] == [
        ("Organisation", "Hugging Face (HuggingFaceTB)"),
        ("Parameters", "135M"),
        ("Weights", "open (public weights)"),
        ("Quantisation", "Q4_1 (GGUF)"),
        ("Served by", "llama-cpp-python 0.3.36"),
    ]
    shown = {entry["run"].name: entry for entry in card["runs"]}
    # a hidden release's aggregates are public, as on its leaderboard; no smoke test, no run that is not listed
    assert set(shown) == {"smol v1", "smol v2", "smol elsewhere", "smol hidden"}
    assert shown["smol v1"]["row"]["section"] == "verified" and shown["smol v1"]["row"]["rank"] == [
        1,
        2,
    ]  # ties "other"
    assert shown["smol elsewhere"]["row"]["section"] == "self_reported"
    assert ("trials", 1) in shown["smol v1"]["settings"]


def test_the_page_shows_the_card_and_the_runs_and_the_leaderboard_links_to_it(client, model_runs):
    page = client.get(f"/models/{MODEL}/").content.decode()
    assert '<h1>Model <code class="model">openai/smollm2</code></h1>' in page
    for text in ("Hugging Face (HuggingFaceTB)", "135M", "open (public weights)", "Q4_1 (GGUF)", "llama-cpp-python"):
        assert text in page
    for run in ("v1", "v2", "upload", "hidden"):
        assert f'href="/runs/{model_runs[run].id}/"' in page
    for run in ("smoke", "undescribed", "other"):
        assert f'href="/runs/{model_runs[run].id}/"' not in page
    assert "Self-reported runs (not ranked)" in page and "Verified runs" in page
    home = client.get("/?release=card-v2").content.decode()
    assert f'href="/models/{MODEL}/"' in home and "Hugging Face (HuggingFaceTB) · 135M · open weights" in home
    assert "submitted by researcher" in home


def test_a_smoke_test_stays_off_the_card_even_for_its_owner(model_runs):
    owner = User.objects.get(username="researcher")
    EvaluationRun.objects.filter(id=model_runs["smoke"].id).update(created_by=owner)
    assert "smol smoke" not in {e["run"].name for e in model_card(model=MODEL, user=owner)["runs"]}


def test_an_unknown_model_or_a_baseline_has_no_card(client, model_runs):
    run_with_results(Release.objects.get(name="card-v1"), name="oracle", agent="reference")
    for model in ("nobody/none", "reference", "openai/scripted"):
        response = client.get(f"/models/{model}/")
        assert response.status_code == 404 and "no listed run of a model" in response.content.decode()
