"""The real local model: SmolLM2-135M-Instruct on llama-cpp-python's server, submitted and run as a user's model.

Nothing here is scripted: the server is started from the installed packages, the model answers, and whatever it
answers is parsed, recorded, scored, shown on the leaderboard and replayed byte for byte.
"""

from __future__ import annotations

import io
import json

import httpx
import pytest
from django.core.management import call_command

from benchmark.board.leaderboard import leaderboard_rows
from benchmark.endpoints.llm import full_requests
from benchmark.endpoints.local_model.chat_format import FORMAT_NAME
from benchmark.endpoints.local_model.server import (
    MODEL_ALIAS,
    local_server_start,
    local_server_status,
    local_server_stop,
)
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun, ModelCall
from benchmark.submissions.local_model import local_model_evaluate
from kernel.vocabulary import Ending
from tests.processes import free_port


@pytest.fixture(scope="module")
def port():
    """A local model server for the module, on a port of its own; always stopped."""
    chosen = free_port()
    server = local_server_start(port=chosen)
    yield server.port
    local_server_stop(port=chosen)
    assert local_server_status(port=chosen) is None


def test_the_server_answers_with_the_packaged_model_and_reads_tool_calls_back(port):
    models = httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=10).json()
    assert [m["id"] for m in models["data"]] == [MODEL_ALIAS]
    tool = {
        "type": "function",
        "function": {
            "name": "echo",
            "description": "Repeat a word.",
            "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]},
        },
    }
    messages = [
        {"role": "system", "content": "Answer with a tool call."},
        {"role": "user", "content": "Echo the word 'Hemingway's'."},
        {"role": "assistant", "content": "", "tool_calls": [_call("echo", {"word": "Hemingway's"})]},
        {"role": "tool", "tool_call_id": "call_0", "content": '{"word": "Hemingway\'s"}'},
    ]
    body = {"model": MODEL_ALIAS, "messages": messages, "tools": [tool], "temperature": 0, "max_tokens": 24}
    answer = httpx.post(f"http://127.0.0.1:{port}/v1/chat/completions", json=body, timeout=120).json()
    message = answer["choices"][0]["message"]
    assert answer["usage"]["prompt_tokens"] > 50 and answer["usage"]["completion_tokens"] > 0
    assert message["role"] == "assistant" and (message.get("content") is not None or message.get("tool_calls"))
    assert "&#39;" not in json.dumps(message)  # the prompt is not HTML-escaped (chatml-function-calling's bug)


def test_the_local_model_is_submitted_run_scored_listed_and_replayed_byte_for_byte(
    port, eval_release, django_db_blocker, settings
):
    settings.ALLOW_PRIVATE_ENDPOINTS = False  # the allow-list alone lets the local server through
    settings.PRIVATE_ENDPOINT_ADDRESSES = [f"127.0.0.1:{port}"]
    settings.LOCAL_MODEL_PORT = port
    with django_db_blocker.unblock():
        try:
            done = local_model_evaluate(release=eval_release, per_cell=1)
            full = done.full
            assert full.status == EvaluationRun.COMPLETED and full.purpose == EvaluationRun.EVALUATION
            trajectories = list(full.trajectories.select_related("entry__case"))
            cells = {(t.entry.case.category, t.entry.case.level) for t in trajectories}
            assert len(trajectories) == len(cells) == 11  # one case of each cell: a stratified sample
            assert all(t.ended in set(Ending) and t.scores and t.passed is not None for t in trajectories)
            assert all(t.input_tokens > 1000 for t in trajectories)  # the real prompt, tools included, counted
            assert all(t.error for t in trajectories if t.ended != Ending.SUBMITTED)  # every ending explained

            first = full_requests(
                list(trajectories[0].model_calls.order_by("sequence").values_list("request", flat=True))
            )
            assert {t["function"]["name"] for t in first[0]["tools"]} >= {"place_search", "submit_answer"}
            calls = ModelCall.objects.filter(trajectory__run=full)
            assert calls.exists() and all(c.response["choices"][0]["message"]["role"] == "assistant" for c in calls)

            row = next(r for r in leaderboard_rows(release=eval_release, user=None) if r["run_id"] == full.id)
            assert row["model"] == f"openai/{MODEL_ALIAS}" and "135M" in row["card"] and "Q4_1" in row["card"]
            assert row["cost"] == 0 and row["n"] == 11 and not row["complete"] and row["rank"] is None
            assert row["section"] == "partial" and "submitted by" in row["description"]
            assert row["avg_tokens"] > 1000

            out = io.StringIO()
            call_command("evaluate", "--replay", str(full.id), "--sync", "--no-progress", stdout=out)
            replay = EvaluationRun.objects.get(replay_of=full)
            for original in trajectories:
                again = replay.trajectories.get(entry_id=original.entry_id, trial=original.trial)
                assert (again.ended, again.error, again.passed) == (original.ended, original.error, original.passed)
                assert json.dumps(again.scores, sort_keys=True) == json.dumps(original.scores, sort_keys=True)
                assert list(again.steps.values_list("tool", "arguments", "observation")) == list(
                    original.steps.values_list("tool", "arguments", "observation")
                )
                assert list(again.model_calls.values_list("sequence", "request", "response")) == list(
                    original.model_calls.values_list("sequence", "request", "response")
                )
        finally:
            endpoints = ModelEndpoint.objects.filter(name__contains="SmolLM2")
            EvaluationRun.objects.filter(endpoint__in=endpoints).delete()
            endpoints.delete()


def test_the_local_model_judges_through_the_model_client_its_replies_parsed_kept_and_cached(port, settings):
    from benchmark.runs.scoring.model_clients import with_model_client
    from judging.judges import InMemoryJudgeCache, JudgeConfig, judge_score
    from tests.judging.test_judges import CASE

    settings.ALLOW_PRIVATE_ENDPOINTS = False
    settings.PRIVATE_ENDPOINT_ADDRESSES = [f"127.0.0.1:{port}"]
    judge = with_model_client(
        JudgeConfig(
            name="smollm2",
            model=f"openai/{MODEL_ALIAS}",
            api_base=f"http://127.0.0.1:{port}/v1",
            params={"max_tokens": 128},
        )
    )
    cache = InMemoryJudgeCache()
    first = judge_score("semantic_constraint", judge, CASE, CASE.answer, cache=cache)
    assert first.raw and all(isinstance(reply, str) for reply in first.raw)  # every reply kept verbatim
    again = judge_score("semantic_constraint", judge, CASE, CASE.answer, cache=cache)
    if first.score is not None:  # a verdict the parser accepted: 0..1, cached
        assert 0 <= first.score <= 1 and again.cached and again.score == first.score
    else:  # what a 135M judge mostly writes: told what was wrong twice, then no score (never a 0), not cached
        assert first.failure.startswith("malformed reply") and len(first.raw) == 3 and not again.cached


def test_the_server_uses_the_lifeplanner_chat_format():
    from benchmark.endpoints.local_model.server import local_server_command

    command = local_server_command(port=1, context=8192, threads=2)
    assert command[command.index("--chat_format") + 1] == FORMAT_NAME
    assert command[command.index("--model") + 1].endswith("SmolLM2-135M-Instruct.Q4_1.gguf")


def _call(name: str, arguments: dict) -> dict:
    return {"id": "call_0", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
