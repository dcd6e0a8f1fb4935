"""The litellm agent (the paper's standard scaffold) against a scripted OpenAI-compatible endpoint over HTTP."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from benchmark.agents.base import AGENTS, AgentTask, RunConfig
from benchmark.agents.litellm_agent import REMINDER, litellm_agent, system_prompt
from benchmark.agents.toolbox import Toolbox
from benchmark.endpoints.llm import EndpointSpec, LLMClient, RetryPolicy
from tests.fakes.openai_server import FakeOpenAI, error, reply

QUESTION = "What are the opening hours of Museo Kivi?"
ANSWER = {"answer": "Tu-Su 10:00-17:00", "name": "Museo Kivi", "place_id": "N5"}
AGENT_TOOLS = {
    "place_search",
    "place_detail",
    "nearby_search",
    "routing",
    "search_notes",
    "note_detail",
    "submit_answer",
}
SEARCH = {"name": "place_search", "arguments": {"query_name": "Museo Kivi"}}
DETAIL = {"name": "place_detail", "arguments": {"place_id": "N5"}}
SUBMIT = {"name": "submit_answer", "arguments": {"result": ANSWER}}


@pytest.fixture(autouse=True)
def private_endpoints_on(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake endpoint listens on 127.0.0.1 (the egress checks allow it so)


@pytest.fixture
def run_agent(grid_city, django_db_blocker):
    """Run the litellm agent on gridtown against ``script``: (outcome, toolbox, fake requests, recorded calls)."""

    def run(script, *, budget: int = 30, config=None, replay=None, retry=None):
        calls: list[dict] = []

        async def go(url: str):
            spec = EndpointSpec(endpoint_id=None, model="openai/fake", api_base=url, api_key="sk-secret-123")
            llm = LLMClient(
                spec,
                record=lambda **call: calls.append(call),
                replay=replay,
                retry=retry or RetryPolicy(base_s=0.001, cap_s=0.01),
            )
            async with Toolbox(city=grid_city.name, budget=budget) as tools:
                task = AgentTask(
                    question=QUESTION,
                    case=None,
                    trial=0,
                    config=config or RunConfig(tool_budget=budget),
                    tools=tools,
                    llm=llm,
                )
                return await litellm_agent(task), tools

        with FakeOpenAI(script) as fake, django_db_blocker.unblock():
            outcome, tools = asyncio.run(go(fake.url))
        return outcome, tools, fake.requests, calls

    return run


def test_litellm_agent_is_registered():
    assert AGENTS.get("litellm") is litellm_agent


def test_a_search_detail_submit_conversation_ends_submitted_with_every_step_recorded(run_agent):
    script = [
        reply("Searching for the museum.", tool_calls=[SEARCH], prompt_tokens=100, completion_tokens=10),
        reply("Reading its details.", tool_calls=[DETAIL], prompt_tokens=200, completion_tokens=20),
        reply(None, tool_calls=[SUBMIT], prompt_tokens=300, completion_tokens=30),
    ]
    outcome, tools, requests, calls = run_agent(script)

    assert outcome.ended == "submitted" and outcome.error == ""
    assert outcome.final_answer == ANSWER
    assert (outcome.input_tokens, outcome.output_tokens) == (600, 60)
    steps = tools.steps
    assert [s.tool for s in steps] == ["place_search", "place_detail", "submit_answer"]
    assert [s.arguments for s in steps] == [SEARCH["arguments"], DETAIL["arguments"], SUBMIT["arguments"]]
    assert [r["place_id"] for r in steps[0].observation["results"]] == ["N5"]
    assert steps[1].observation["opentime_week"] == "Tu-Su 10:00-17:00"
    assert [s.error_kind for s in steps] == ["", "", ""]
    assert [s.model_text for s in steps] == ["Searching for the museum.", "Reading its details.", ""]
    assert [(s.input_tokens, s.output_tokens) for s in steps] == [(100, 10), (200, 20), (300, 30)]

    first = requests[0]
    assert first["temperature"] == 0
    assert first["messages"][0] == {"role": "system", "content": system_prompt(QUESTION)}
    assert first["messages"][0]["content"].startswith("You are a geographic information assistant.")
    assert first["messages"][0]["content"].endswith(f"Now answer the following question: {QUESTION}")
    assert {t["function"]["name"] for t in first["tools"]} == AGENT_TOOLS and len(first["tools"]) == 7
    assert all(t["type"] == "function" and t["function"]["parameters"]["type"] == "object" for t in first["tools"])
    tool_turn = requests[1]["messages"][-1]
    assert tool_turn["role"] == "tool" and tool_turn["tool_call_id"] == "call_0"
    assert json.loads(tool_turn["content"]) == steps[0].observation
    assert [c["sequence"] for c in calls] == [0, 1, 2] and all(c["attempts"] == 1 for c in calls)


def test_a_tool_call_with_broken_json_is_a_recorded_invalid_parameter_and_the_model_recovers(run_agent):
    broken = reply("Let me look.", tool_calls=[DETAIL])
    broken["body"]["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = "{not json"
    outcome, tools, requests, _ = run_agent([broken, reply(tool_calls=[DETAIL]), reply(tool_calls=[SUBMIT])])

    assert outcome.ended == "submitted" and outcome.final_answer == ANSWER
    assert [s.tool for s in tools.steps] == ["place_detail", "place_detail", "submit_answer"]
    assert tools.steps[0].error_kind == "invalid_parameter" and tools.steps[0].arguments == "{not json"
    told = json.loads(requests[1]["messages"][-1]["content"])
    assert told["error"]["kind"] == "invalid_parameter" and "not valid JSON" in told["error"]["message"]
    assert tools.steps[1].error_kind == ""


def test_plain_text_gets_one_reminder_then_ends_without_submission(run_agent):
    plain_json = reply(json.dumps(ANSWER))  # figure 9 forbids JSON as plain text: it is not taken as the answer
    outcome, tools, requests, _ = run_agent([plain_json])

    assert outcome.ended == "no_submission" and outcome.final_answer is None
    assert len(requests) == 2 and tools.steps == []
    assert requests[1]["messages"][-1] == {"role": "user", "content": REMINDER}
    assert sum(m["content"] == REMINDER for m in requests[1]["messages"]) == 1


def test_a_reminded_model_that_then_submits_is_submitted(run_agent):
    outcome, _, requests, _ = run_agent([reply("It opens at ten."), reply(tool_calls=[SUBMIT])])
    assert outcome.ended == "submitted" and outcome.final_answer == ANSWER and len(requests) == 2


def test_a_model_that_keeps_calling_tools_is_stopped_by_a_budget_of_three(run_agent):
    outcome, tools, requests, _ = run_agent([reply(tool_calls=[SEARCH])], budget=3)
    assert outcome.ended == "budget_exhausted"
    assert len(tools.steps) == 3 and len(requests) == 4
    assert outcome.final_answer is None


def test_an_endpoint_that_always_fails_ends_model_error_with_the_error_recorded(run_agent):
    outcome, tools, requests, calls = run_agent([error(500)], retry=RetryPolicy(max_attempts=3, base_s=0.001))
    assert outcome.ended == "model_error"
    assert "InternalServerError" in outcome.error
    assert len(requests) == 3 and tools.steps == []
    assert len(calls) == 1 and calls[0]["attempts"] == 3 and "InternalServerError" in calls[0]["error"]


def test_an_agent_past_its_wall_clock_time_ends_timeout(run_agent):
    config = SimpleNamespace(temperature=0.0, tool_budget=30, timeout_s=0.5)
    outcome, _, _, calls = run_agent([reply(tool_calls=[SEARCH], delay_s=2)], config=config)
    assert outcome.ended == "timeout"
    assert calls and calls[0]["error"].startswith("cancelled")


def test_the_run_temperature_is_sent(run_agent):
    _, _, requests, _ = run_agent([reply(tool_calls=[SUBMIT])], config=RunConfig(temperature=0.7))
    assert requests[0]["temperature"] == 0.7


def test_a_replayed_run_repeats_the_recorded_trajectory_without_calling_the_model(run_agent):
    script = [reply("Searching.", tool_calls=[SEARCH]), reply(tool_calls=[DETAIL]), reply(tool_calls=[SUBMIT])]
    original, original_tools, _, calls = run_agent(script)
    recording = {c["sequence"]: c["response"] for c in calls}

    replayed, tools, requests, _ = run_agent([error(500)], replay=recording)
    assert requests == []
    assert replayed.ended == "submitted" and replayed.final_answer == original.final_answer
    assert [(s.tool, s.arguments) for s in tools.steps] == [(s.tool, s.arguments) for s in original_tools.steps]
    assert (replayed.input_tokens, replayed.output_tokens) == (original.input_tokens, original.output_tokens)


# --- what a real model does besides calling tools (issue 44) ----------------------------------------------


def test_a_tool_call_written_as_text_is_recorded_never_run_and_ends_tool_call_as_text(run_agent):
    written = '<tool_call>\n{"name": "place_search", "arguments": {"query_name": "Museo Kivi"}}\n</tool_call>'
    outcome, tools, requests, calls = run_agent([reply(written), reply(written)])

    assert outcome.ended == "tool_call_as_text" and tools.steps == []  # nothing was run
    assert "recorded and not run" in outcome.error and "<tool_call>" in outcome.error
    assert requests[1]["messages"][-1] == {"role": "user", "content": REMINDER}
    assert [c["response"]["choices"][0]["message"]["content"] for c in calls] == [written, written]


def test_a_json_object_naming_a_tool_in_prose_is_a_tool_call_as_text(run_agent):
    text = 'I will call {"name": "submit_answer", "arguments": {"result": {"answer": "10:00"}}} now.'
    outcome, tools, _, _ = run_agent([reply(text)])
    assert outcome.ended == "tool_call_as_text" and tools.steps == [] and outcome.final_answer is None


def test_an_empty_reply_twice_ends_no_submission_saying_it_was_empty(run_agent):
    outcome, tools, requests, _ = run_agent([reply("")])
    assert outcome.ended == "no_submission" and len(requests) == 2 and tools.steps == []
    assert outcome.error.endswith("its last reply was an empty reply")


def test_a_reply_cut_at_the_token_limit_says_so(run_agent):
    cut = reply("la " * 50)
    cut["body"]["choices"][0]["finish_reason"] = "length"
    outcome, _, _, _ = run_agent([cut])
    assert outcome.ended == "no_submission" and "cut at the token limit" in outcome.error


def test_an_unknown_tool_is_a_recorded_tool_error_the_model_reads(run_agent):
    unknown = {"name": "book_table", "arguments": {"place_id": "N5"}}
    outcome, tools, requests, _ = run_agent([reply(tool_calls=[unknown]), reply(tool_calls=[SUBMIT])])
    assert outcome.ended == "submitted"
    assert tools.steps[0].tool == "book_table" and tools.steps[0].error_kind != ""
    told = json.loads(requests[1]["messages"][-1]["content"])
    assert "error" in told and "book_table" in json.dumps(told)


@pytest.mark.parametrize(
    "message",
    [
        # llama-cpp-python's server (llama_cpp/server/errors.py), as it words a prompt past n_ctx
        "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens "
        "(8999 in the messages, 1 in the completion). Please reduce the length of the messages or completion.",
        # llama.cpp's own server
        "the request exceeds the available context size, try increasing it",
    ],
)
def test_a_conversation_past_the_models_context_ends_context_exceeded_without_retries(run_agent, message):
    outcome, tools, requests, calls = run_agent([reply(tool_calls=[SEARCH]), error(400, message)])
    assert outcome.ended == "context_exceeded", outcome.error
    assert "no longer fits the model's context" in outcome.error
    assert len(requests) == 2 and calls[1]["attempts"] == 1  # a refusal a retry cannot fix
    assert len(tools.steps) == 1  # what was done before stays recorded
