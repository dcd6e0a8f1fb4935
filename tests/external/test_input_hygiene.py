"""Bad input from models, external agents and uploads: refused naming the field, or stored repaired, never lost.

A model's NUL, NaN or deeply nested tool arguments are tool errors it can read, recorded as
steps; a NUL in its text is stored as U+FFFD and noted; its text past 100,000 characters is cut
and noted; the trajectory is finished and scored either way. An upload with such values is
refused line by line and field by field, before anything is written.
"""

from __future__ import annotations

import asyncio
import io
import json
import math

import pytest
from django.core.management import CommandError, call_command
from mcp import Client

from benchmark.agents.base import AgentTask, RunConfig
from benchmark.agents.litellm_agent import litellm_agent
from benchmark.agents.toolbox import Toolbox
from benchmark.endpoints.llm import EndpointSpec, LLMClient, RetryPolicy
from benchmark.endpoints.models import ModelEndpoint
from benchmark.external.agents import external_run_create
from benchmark.external.upload import UploadError, run_upload
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from environment.tools.gateway import call_tool
from tests.fakes.openai_server import FakeOpenAI, reply

SUBMIT = {"name": "submit_answer", "arguments": {"result": {"answer": "yes"}}}


def nested(depth: int, leaf="x"):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# ---------------------------------------------------------------- a model's tool calls (toolbox)


def run_litellm_agent(city: str, script: list) -> tuple:
    async def go(url: str):
        spec = EndpointSpec(endpoint_id=None, model="openai/fake", api_base=url, api_key="sk-test")
        llm = LLMClient(spec, retry=RetryPolicy(base_s=0.001, cap_s=0.01))
        async with Toolbox(city=city, budget=30) as tools:
            task = AgentTask(
                question="Is Museo Kivi open?", case=None, trial=0, config=RunConfig(), tools=tools, llm=llm
            )
            return await litellm_agent(task), tools

    with FakeOpenAI(script) as fake:
        outcome, tools = asyncio.run(go(fake.url))
    return outcome, tools, fake.requests


def test_a_models_nul_nan_and_deep_arguments_are_recorded_tool_errors_naming_them(
    grid_city, django_db_blocker, settings
):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake model listens on 127.0.0.1
    script = [
        reply("Searching.", tool_calls=[{"name": "place_search", "arguments": {"query_name": "Museo\x00Kivi"}}]),
        reply(tool_calls=[{"name": "nearby_search", "arguments": {"center": "N5", "radius_meters": math.nan}}]),
        reply(tool_calls=[{"name": "submit_answer", "arguments": {"result": {"plan": nested(500)}}}]),
        reply(tool_calls=[SUBMIT]),
    ]
    with django_db_blocker.unblock():
        outcome, tools, requests = run_litellm_agent(grid_city.name, script)

    assert outcome.ended == "submitted" and outcome.final_answer == {"answer": "yes"}, outcome.error
    steps = tools.steps
    assert [s.tool for s in steps] == ["place_search", "nearby_search", "submit_answer", "submit_answer"]
    assert [s.error_kind for s in steps] == ["invalid_parameter"] * 3 + [""]
    errors = [s.observation["error"] for s in steps[:3]]
    assert [e["parameter"] for e in errors] == ["query_name", "radius_meters", "result"]
    assert errors[0]["message"] == "argument 'query_name' contains a NUL character (not allowed)"
    assert errors[1]["message"] == "argument 'radius_meters' is NaN (not a JSON number; not allowed)"
    assert "is nested deeper than 16 levels" in errors[2]["message"]
    told = json.loads(requests[1]["messages"][-1]["content"])  # the model was told, naming the argument
    assert told["error"]["parameter"] == "query_name"


# ---------------------------------------------------------------- a whole run: nothing is lost


@pytest.fixture
def fake_endpoint_run(eval_release, django_db_blocker, settings, monkeypatch):
    """Evaluate one case of the release against a scripted model; yields a runner, removes the runs after."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    monkeypatch.setenv("FAKE_KEY", "sk-test")

    def run(script: list) -> EvaluationRun:
        with FakeOpenAI(script) as fake:
            call_command(
                "evaluate",
                "--model",
                "openai/fake",
                "--api-base",
                fake.url,
                "--api-key-env",
                "FAKE_KEY",
                "--release",
                eval_release.name,
                "--limit",
                "1",
                "--sync",
                "--no-progress",
                stdout=io.StringIO(),
            )
        return EvaluationRun.objects.order_by("-id").first()

    with django_db_blocker.unblock():
        yield run
        endpoints = list(
            EvaluationRun.objects.filter(release=eval_release, endpoint__isnull=False).values_list(
                "endpoint_id", flat=True
            )
        )
        EvaluationRun.objects.filter(release=eval_release, endpoint__isnull=False).delete()
        ModelEndpoint.objects.filter(id__in=endpoints).delete()


def test_a_model_that_writes_nul_and_too_much_text_loses_no_step(fake_endpoint_run):
    long_text = "Because " + "y" * 150_000
    run = fake_endpoint_run(
        [
            reply("Think\x00ing.", tool_calls=[{"name": "place_search", "arguments": {"query_name": "Kamppi\x00"}}]),
            reply(long_text, tool_calls=[SUBMIT]),
        ]
    )

    trajectory = run.trajectories.get()
    assert trajectory.status == Trajectory.DONE and trajectory.ended == "submitted"
    assert trajectory.final_answer == {"answer": "yes"} and trajectory.scores
    steps = list(trajectory.steps.order_by("index"))
    assert [s.tool for s in steps] == ["place_search", "submit_answer"]
    assert steps[0].model_text == "Think\ufffding." and steps[0].arguments == {"query_name": "Kamppi\ufffd"}
    assert steps[0].observation["error"]["parameter"] == "query_name"
    assert steps[1].model_text.startswith("Because yyy") and "50,008 more characters not stored" in steps[1].model_text
    assert "steps[0].model_text: 1 NUL" in trajectory.error
    assert "steps[1].model_text: cut to 100,000" in trajectory.error
    calls = list(trajectory.model_calls.order_by("sequence"))
    assert len(calls) == 2 and "\ufffd" in json.dumps(calls[0].response, ensure_ascii=False)


# ---------------------------------------------------------------- run mode (external agents)


async def _external_session(server) -> dict:
    async with Client(server) as client:
        await client.call_tool("next_case", {})
        return {
            "nul": await client.call_tool("place_search", {"query_name": "Kahvila\x00"}),
            "huge": await client.call_tool("nearby_search", {"center": "N1", "radius_meters": 10**100}),
            "keyword": await client.call_tool("search_notes", {"keyword": "(" * 400 + "cafe" + ")" * 400}),
            "submit": await client.call_tool("submit_answer", {"result": {"answer": "yes"}}),
        }


def test_an_external_agents_bad_arguments_are_tool_errors_and_recorded_steps(autocommit_db, eval_release):
    from benchmark.external.mcp_server import build_run_server

    run, token = external_run_create(release=eval_release, name="external bad input", limit=1)
    replies = asyncio.run(_external_session(build_run_server(default_token=token)))

    errors = {label: replies[label].structured_content["error"] for label in ("nul", "huge", "keyword")}
    assert {label: e["parameter"] for label, e in errors.items()} == {
        "nul": "query_name",
        "huge": "radius_meters",
        "keyword": "keyword",
    }
    assert errors["nul"]["message"] == "argument 'query_name' contains a NUL character (not allowed)"
    assert replies["submit"].is_error is False
    trajectory = run.trajectories.get()
    assert trajectory.status == Trajectory.DONE and trajectory.ended == "submitted"
    steps = list(Step.objects.filter(trajectory=trajectory).order_by("index"))
    assert [s.tool for s in steps] == ["place_search", "nearby_search", "search_notes", "submit_answer"]
    assert [s.error_kind for s in steps] == ["invalid_parameter"] * 3 + [""]
    assert steps[0].arguments == {"query_name": "Kahvila\ufffd"}


# ---------------------------------------------------------------- uploads


@pytest.fixture
def upload_line(autocommit_db, eval_release) -> dict:
    """A valid line: one case, one place_search step with its real observation, and an answer."""
    snapshot = eval_release.entries.order_by("position").first().snapshot
    call = call_tool("agent", "place_search", {"query_name": "Kamppi"}, city=snapshot["city_name"])
    return {
        "case_id": snapshot["case_id"],
        "answer": {"answer": "yes"},
        "ended": "submitted",
        "trajectory": [
            {
                "tool": "place_search",
                "arguments": {"query_name": "Kamppi"},
                "observation": call.observation(),
                "text": "Searching.",
            }
        ],
    }


def _upload(release, tmp_path, text: str, name: str) -> str:
    path = tmp_path / "answers.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UploadError) as refused:
        run_upload(release=release, path=path, name=name)
    assert not EvaluationRun.objects.filter(name=name).exists()  # nothing is written
    return str(refused.value)


def _with(line: dict, **changes) -> dict:
    changed = json.loads(json.dumps(line))
    step = changed["trajectory"][0]
    for key, value in changes.items():
        if key in ("arguments", "observation", "text"):
            step[key] = value
        else:
            changed[key] = value
    return changed


BAD_VALUES = [  # (label, what changes in the second line, the field named, the reason given)
    (
        "nul in an observation",
        {"observation": {"results": [{"name": "Kamppi\x00"}]}},
        "trajectory[0].observation.results[0].name",
        "contains a NUL character (not allowed)",
    ),
    ("nul in the text", {"text": "Search\x00ing"}, "trajectory[0].text", "contains a NUL character (not allowed)"),
    ("nan in the answer", {"answer": {"total_time_s": math.nan}}, "answer.total_time_s", "is NaN"),
    (
        "infinity in arguments",
        {"arguments": {"radius_meters": math.inf}},
        "trajectory[0].arguments.radius_meters",
        "is Infinity",
    ),
    (
        "1 MB string",
        {"observation": {"results": [{"name": "k" * 1_000_000}]}},
        "trajectory[0].observation.results[0].name",
        "is 1,000,000 characters long (the limit is 100,000)",
    ),
    (
        "observation of 300 KB",
        {"observation": {"results": [{"name": "k" * 1000}] * 300}},
        "trajectory[0].observation",
        "characters of JSON (the limit is 200,000)",
    ),
    ("deep answer", {"answer": nested(30)}, "answer", "is nested deeper than 16 levels"),
]


@pytest.mark.parametrize("label, change, field, reason", BAD_VALUES, ids=[case[0] for case in BAD_VALUES])
def test_an_upload_with_a_bad_value_is_refused_naming_line_and_field(
    upload_line, eval_release, tmp_path, label, change, field, reason
):
    lines = [upload_line, _with(upload_line, trial=1, **change)]
    message = _upload(eval_release, tmp_path, "\n".join(json.dumps(line) for line in lines), name=f"bad {label}")
    assert f"line 2, field '{field}" in message and reason in message
    assert "line 1" not in message


def test_an_upload_too_deep_or_with_a_5000_digit_number_is_refused_naming_the_line(upload_line, eval_release, tmp_path):
    good = json.dumps(upload_line)
    huge = good.replace('"ended"', '"input_tokens": 1' + "0" * 5000 + ', "ended"')
    deep = '{"case_id": ' + "[" * 100_000 + "]" * 100_000 + "}"
    message = _upload(eval_release, tmp_path, "\n".join([good, huge, deep]), name="bad numbers and depth")
    assert "line 2, field 'input_tokens': is a number with 5,001 digits (the limit is 18)" in message
    assert "line 3: nested deeper than 40 levels" in message


def test_the_upload_command_reports_a_nul_as_an_error_not_a_traceback(upload_line, eval_release, tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(_with(upload_line, text="a\x00b")), encoding="utf-8")
    with pytest.raises(CommandError, match=r"line 1, field 'trajectory\[0\]\.text': contains a NUL character"):
        call_command("upload_run", str(path), "--release", eval_release.name, "--name", "nul upload")
    assert not EvaluationRun.objects.filter(name="nul upload").exists()


def test_an_upload_line_over_the_limit_is_refused_unread_and_memory_stays_bounded(upload_line, eval_release, tmp_path):
    """A 64 MB line (the review's 300 MB line took 1.1 GB when the file was read whole): refused naming
    its line, the lines after it still checked, and no more than about one line's limit held in memory."""
    import tracemalloc

    from benchmark.external.upload import MAX_LINE_BYTES, upload_check

    path = tmp_path / "answers.jsonl"
    with path.open("wb") as file:
        file.write(json.dumps(upload_line).encode() + b"\n")
        file.write(b'{"case_id": "' + b"x" * (64 * 1024 * 1024) + b'"}\n')
        file.write(b'{"case_id": "caf\xe9"}\n')  # Latin-1, not UTF-8
        file.write(json.dumps(_with(upload_line, trial=1)).encode() + b"\n")
    tracemalloc.start()
    try:
        with pytest.raises(UploadError) as refused:
            upload_check(release=eval_release, path=path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert refused.value.errors == [
        f"line 2: longer than {MAX_LINE_BYTES:,} bytes, the most one line may be",
        "line 3: not UTF-8 text (at byte 17 of the line)",
    ]
    assert peak < 3 * MAX_LINE_BYTES  # readline's buffer and its copy: about twice the limit, never the 64 MB line


def test_an_upload_split_only_at_newlines_keeps_a_line_separator_inside_a_string(upload_line, eval_release, tmp_path):
    line = _with(upload_line, text="one\u2028two")
    path = tmp_path / "answers.jsonl"
    path.write_text(json.dumps(line, ensure_ascii=False) + "\r\n\n", encoding="utf-8")
    run = run_upload(release=eval_release, path=path, name="separator upload")
    assert run.trajectories.get().steps.get().model_text == "one\u2028two"
