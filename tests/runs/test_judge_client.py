"""The platform's judges and paraphraser ask their models through the model client every endpoint uses
(benchmark/runs/scoring/model_clients.py): the egress checks, the retries and the key's redaction hold for them too."""

from __future__ import annotations

import pytest

from benchmark.runs.scoring.model_clients import platform_judges, with_model_client
from judging.judges import JudgeConfig, judge_score
from tests.fakes.openai_server import FakeOpenAI, error, reply
from tests.judging.test_judges import CASE, SECRET, verdict


def local_judge(fake: FakeOpenAI, *, num_retries: int = 0) -> JudgeConfig:
    return with_model_client(
        JudgeConfig(name="local", model="openai/judge", api_base=fake.url, api_key=SECRET, num_retries=num_retries)
    )


def port_of(fake: FakeOpenAI) -> int:
    return int(fake.url.rsplit(":", 1)[1].split("/")[0])


def test_a_judge_on_this_machine_is_refused_unless_its_address_and_port_are_listed(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    with FakeOpenAI([verdict(0.75)]) as fake:
        refused = judge_score("semantic_constraint", local_judge(fake), CASE, CASE.answer)
        assert refused.score is None and "refused" in refused.failure and "loopback" in refused.failure
        assert fake.requests == []  # nothing was sent
        settings.PRIVATE_ENDPOINT_ADDRESSES = [f"127.0.0.1:{port_of(fake)}"]
        allowed = judge_score("semantic_constraint", local_judge(fake), CASE, CASE.answer)
    assert allowed.score == 0.75 and allowed.failure is None
    assert fake.requests[0]["temperature"] == 0 and fake.requests[0]["model"] == "judge"


def test_a_judge_is_retried_by_the_model_client_and_its_key_never_shows(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    with FakeOpenAI([error(503), verdict(0.5)]) as fake:
        recovered = judge_score("semantic_constraint", local_judge(fake, num_retries=1), CASE, CASE.answer)
    assert recovered.score == 0.5 and len(fake.requests) == 2
    with FakeOpenAI([error(500, f"upstream echoed {SECRET}")]) as fake:
        failed = judge_score("semantic_constraint", local_judge(fake), CASE, CASE.answer)
    assert failed.score is None and failed.failure.startswith("model error") and SECRET not in failed.failure


@pytest.mark.django_db
def test_a_judge_verifies_facts_with_engine_tools_through_the_model_client(settings, grid_city):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    script = [reply(tool_calls=[{"name": "place_search", "arguments": {"query_name": "Kahvila Koira"}}]), verdict(0.9)]
    with FakeOpenAI(script) as fake:
        result = judge_score("semantic_constraint", local_judge(fake), CASE, CASE.answer, tools_city=grid_city.name)
    assert result.score == 0.9 and result.tool_calls[0]["tool"] == "place_search"
    assert fake.requests[1]["messages"][-1]["role"] == "tool"


def test_every_configured_judge_gets_the_model_client(settings):
    settings.JUDGE_MODELS = [{"name": "a", "model": "openai/x", "api_base": "http://127.0.0.1:9/v1"}]
    (judge,) = platform_judges()
    assert judge.client is not None and judge.name == "a"


def test_the_paraphraser_asks_through_the_model_client_and_its_egress_checks(settings):
    from benchmark.cases.engine.paraphrase import PARAPHRASE_CLIENTS, Paraphraser
    from benchmark.endpoints.llm import ModelError

    assert PARAPHRASE_CLIENTS.names() == ["model client"]  # registered by the runs app
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    with FakeOpenAI([reply("  How far is Kamppi from Kallio on foot?  ")]) as fake:
        paraphraser = Paraphraser(model="openai/rewriter", api_base=fake.url, api_key=SECRET)
        with pytest.raises(ModelError, match="refused"):
            paraphraser("What is the walking distance from Kamppi to Kallio?")
        assert fake.requests == []
        settings.PRIVATE_ENDPOINT_ADDRESSES = [f"127.0.0.1:{port_of(fake)}"]
        text = paraphraser("What is the walking distance from Kamppi to Kallio?")
    assert text == "How far is Kamppi from Kallio on foot?"
    assert fake.requests[0]["temperature"] == 0.7 and fake.requests[0]["messages"][0]["role"] == "system"
