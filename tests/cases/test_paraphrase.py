"""Question paraphrasing through the model client against a local fake OpenAI-compatible server."""

import pytest

from benchmark.cases.engine.paraphrase import Paraphraser, keeps_meaning
from benchmark.cases.engine.runner import generate_cases
from tests.fakes.openai_server import FakeOpenAI, reply

pytestmark = pytest.mark.django_db
ORIGINAL = "What's the nearest pharmacy to Hotel Kämp? Look within 300 m."


def test_a_faithful_paraphrase_is_kept():
    text = "Looking within 300 m of Hotel Kämp, which pharmacy is closest?"
    assert keeps_meaning(ORIGINAL, text, names=["Hotel Kämp"]) == ""


@pytest.mark.parametrize(
    "text, reason",
    [
        ("Which pharmacy is closest to my hotel, within 300 m?", "drops the place name"),
        ("Looking within 500 m of Hotel Kämp, which pharmacy is closest?", "changes the numbers"),
        ("", "empty"),
        ("Within 300 m of Hotel Kämp, which pharmacy has a corgi cafe?", "names the hidden criterion"),
    ],
)
def test_a_paraphrase_that_changes_the_question_is_rejected(text, reason):
    assert reason in keeps_meaning(ORIGINAL, text, names=["Hotel Kämp"], forbidden=["corgi cafe"])


@pytest.fixture(autouse=True)
def private_endpoints_on(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake listens on 127.0.0.1; the model client's egress checks apply


def rephrase(body: dict) -> dict:
    question = body["messages"][-1]["content"]
    return reply("Please help: " + question)


def drop_names(body: dict) -> dict:
    return reply("Can you help me plan something nice today around town please, thanks a lot?")


def test_generation_paraphrases_through_the_model_client_and_records_the_original(helsinki):
    from environment.tools.context import city_context

    ctx = city_context("helsinki")
    plain, _ = generate_cases(context=ctx, seed=3, counts={("nearby_discovery", "L0"): 2})
    with FakeOpenAI([rephrase]) as fake:
        paraphraser = Paraphraser(model="openai/fake-paraphraser", api_base=fake.url, api_key="sk-test")
        docs, reports = generate_cases(
            context=ctx, seed=3, counts={("nearby_discovery", "L0"): 2}, paraphraser=paraphraser
        )
    assert [d.question for d in docs] == ["Please help: " + d.question for d in plain]
    assert [d.provenance["paraphrase"]["original"] for d in docs] == [d.question for d in plain]
    assert all(r["temperature"] == 0.7 and r["model"] == "fake-paraphraser" for r in fake.requests)
    assert [d.answer for d in docs] == [d.answer for d in plain]


def test_a_rejected_paraphrase_keeps_the_original_question(helsinki):
    from environment.tools.context import city_context

    ctx = city_context("helsinki")
    plain, _ = generate_cases(context=ctx, seed=3, counts={("routing", "L0"): 1})
    with FakeOpenAI([drop_names]) as fake:
        docs, reports = generate_cases(
            context=ctx,
            seed=3,
            counts={("routing", "L0"): 1},
            paraphraser=Paraphraser(model="openai/fake", api_base=fake.url, api_key="k"),
        )
    assert docs[0].question == plain[0].question and "paraphrase" not in docs[0].provenance
    assert any(reason.startswith("paraphrase rejected") for r in reports for reason in r.discards)


def test_without_a_model_client_a_paraphraser_asks_nobody_and_says_why(monkeypatch):
    """litellm is called by the endpoints package only: the paraphraser has no path of its own around it."""
    from benchmark.cases.engine import paraphrase

    monkeypatch.setattr(paraphrase.PARAPHRASE_CLIENTS, "_items", {})
    with pytest.raises(RuntimeError, match="no paraphrase model client is registered"):
        paraphrase.Paraphraser(model="openai/anything")("How far is it?")
