"""External agents over the run-mode MCP server (real HTTP, the SDK's own client) and uploaded runs.

No django_db mark: the release is committed (eval_release) and the server runs in another
process, so these tests work in autocommit through django_db_blocker.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import httpx2
import pytest
from django.core.management import CommandError, call_command
from django.test import Client as WebClient
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from benchmark.agents.config import RunConfig
from benchmark.cases.document import observation_digest
from benchmark.external.agents import external_next_case, external_run_create, run_token_create, token_hash
from benchmark.external.upload import UploadError, run_upload
from benchmark.runs.models import EvaluationRun, RunToken, Step, Trajectory
from environment.tools.gateway import call_tool
from environment.tools.registry import tools_for

# ---------------------------------------------------------------- fixtures (run_url, autocommit_db: conftest.py)


@pytest.fixture
def snapshots(autocommit_db, eval_release) -> dict[str, dict]:
    return {entry.snapshot["case_id"]: entry.snapshot for entry in eval_release.entries.all()}


def _client(url: str, token: str | None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=60)))


def _text(result) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


# ---------------------------------------------------------------- external agents over MCP


async def _solve(url: str, token: str, snapshots: dict) -> dict:
    """List the tools, take a case, ask for it again, replay its reference path, then ask for the next."""
    async with _client(url, token) as client:
        tools = [t.name for t in (await client.list_tools()).tools]
        case = (await client.call_tool("next_case", {})).structured_content
        again = (await client.call_tool("next_case", {})).structured_content
        replies = [
            await client.call_tool(step["tool"], step["arguments"])
            for step in snapshots[case["case_id"]]["reference_path"]
        ]
        after = (await client.call_tool("next_case", {})).structured_content
    return {"tools": tools, "case": case, "again": again, "replies": replies, "after": after}


def test_an_external_agent_solves_a_case_over_http_and_the_server_records_every_step(
    run_url, autocommit_db, eval_release, snapshots
):
    run, token = external_run_create(release=eval_release, name="external http", limit=1)
    assert RunToken.objects.get(run=run).token_hash == token_hash(token)  # only the hash is stored

    seen = asyncio.run(_solve(run_url, token, snapshots))

    assert sorted(seen["tools"]) == sorted([t.name for t in tools_for("agent")] + ["next_case"])
    case, trajectory = seen["case"], run.trajectories.get()
    assert case["trajectory_id"] == trajectory.id and case["question"] == trajectory.entry.snapshot["question"]
    assert case["remaining"] == 0 and case["tool_budget"] == 30
    assert seen["again"]["trajectory_id"] == trajectory.id  # a held case is handed out again, not a new one
    assert not any(reply.is_error for reply in seen["replies"])
    assert seen["after"]["done"] is True

    trajectory.refresh_from_db()
    assert trajectory.status == Trajectory.DONE and trajectory.ended == "submitted" and trajectory.passed is True
    assert trajectory.scores["pass_rate"]["value"] == 1.0
    path = snapshots[case["case_id"]]["reference_path"]
    steps = list(trajectory.steps.order_by("index"))
    assert [(s.index, s.tool, s.arguments) for s in steps] == [
        (i, p["tool"], p["arguments"]) for i, p in enumerate(path)
    ]
    for step, reference in zip(steps, path):  # the observation recorded is the one the case was written from
        assert step.latency_ms > 0
        if reference["observation_sha256"]:
            assert observation_digest(step.observation) == reference["observation_sha256"]
    run.refresh_from_db()
    assert run.status == EvaluationRun.COMPLETED and run.aggregates["table2"]["overall"]["value"] == 100.0


async def _refused(url: str, token: str | None) -> list:
    async with _client(url, token) as client:
        return [
            await client.call_tool("next_case", {}),
            await client.call_tool("place_search", {"query_name": "Kahvila"}),
        ]


def test_a_wrong_or_missing_token_is_refused_with_a_clear_error(run_url, autocommit_db, eval_release):
    run, _ = external_run_create(release=eval_release, name="external refused", limit=1)
    for token, reason in (("lpr_not-a-token", "unknown run token"), (None, "Authorization: Bearer")):
        for result in asyncio.run(_refused(run_url, token)):
            assert result.is_error and result.structured_content["error"]["kind"] == "unauthorized"
            assert "run token refused" in _text(result) and reason in _text(result)
    assert run.trajectories.filter(status=Trajectory.QUEUED).count() == 1
    assert not Step.objects.filter(trajectory__run=run).exists()


async def _overspend(url: str, token: str, snapshots: dict) -> tuple[list, dict]:
    async with _client(url, token) as client:
        case = (await client.call_tool("next_case", {})).structured_content
        step = next(s for s in snapshots[case["case_id"]]["reference_path"] if s["tool"] != "submit_answer")
        replies = [await client.call_tool(step["tool"], step["arguments"]) for _ in range(3)]
        after = (await client.call_tool("next_case", {})).structured_content
    return replies, after


def test_the_tool_budget_is_enforced_and_closes_the_case(run_url, autocommit_db, eval_release, snapshots):
    run, token = external_run_create(
        release=eval_release, name="external budget", limit=1, config=RunConfig(tool_budget=2)
    )

    replies, after = asyncio.run(_overspend(run_url, token, snapshots))

    assert [r.is_error for r in replies] == [False, False, True]
    assert replies[2].structured_content["error"]["kind"] == "budget_exhausted"
    assert "budget of 2 calls" in _text(replies[2])
    assert after["done"] is True
    trajectory = run.trajectories.get()
    assert trajectory.status == Trajectory.DONE and trajectory.ended == "budget_exhausted"
    assert trajectory.passed is False and trajectory.steps.count() == 2


async def _in_process(server) -> tuple:
    async with Client(server) as client:
        return (
            await client.call_tool("next_case", {}),
            await client.call_tool("place_search", {"query_name": "Kahvila"}),
        )


def test_without_request_headers_the_server_uses_the_token_it_was_started_with(autocommit_db, eval_release):
    """The stdio case (serve_run_mcp --transport stdio with LIFEPLANNER_RUN_TOKEN), driven in process."""
    from benchmark.external.mcp_server import build_run_server

    run, token = external_run_create(release=eval_release, name="external stdio", limit=1)
    case, search = asyncio.run(_in_process(build_run_server(default_token=token)))
    assert case.structured_content["trajectory_id"] == run.trajectories.get().id and not search.is_error
    assert list(Step.objects.filter(trajectory__run=run).values_list("tool", flat=True)) == ["place_search"]
    refused, _ = asyncio.run(_in_process(build_run_server()))
    assert refused.is_error and "no run token" in _text(refused)


# In a test transaction (rolled back): no other process is involved. Being marked, it also makes
# pytest-django set up the test database when this module runs on its own; without any marked test
# in the session, pytest-django would leave the connection on the development database.
@pytest.mark.django_db
def test_each_token_holds_its_own_case_and_a_tool_call_needs_one(eval_release):
    from benchmark.external.agents import NoCaseInProgress, RunTokenRefused, external_tool_call, run_tokens_revoke

    run, first = external_run_create(release=eval_release, name="external parallel", limit=3)
    second = run_token_create(run=run)
    with pytest.raises(NoCaseInProgress, match="call next_case"):
        external_tool_call(token=first, tool="place_search", arguments={"query_name": "Kahvila"})
    a, b = external_next_case(token=first), external_next_case(token=second)
    assert a["trajectory_id"] != b["trajectory_id"] and a["remaining"] == 2 and b["remaining"] == 2
    assert external_next_case(token=first)["trajectory_id"] == a["trajectory_id"]
    assert run_tokens_revoke(run=run) == 2
    with pytest.raises(RunTokenRefused, match="revoked"):
        external_next_case(token=first)


def test_the_external_run_command_prints_the_token_once_with_instructions(autocommit_db, eval_release):
    out = io.StringIO()
    call_command("external_run", "--release", eval_release.name, "--limit", "2", "--port", "9911", stdout=out)
    text = out.getvalue()
    run = EvaluationRun.objects.filter(agent="external").latest("id")
    token = next(word for word in text.split() if word.startswith("lpr_"))
    assert run.status == EvaluationRun.RUNNING and run.trajectories.count() == 2
    assert "http://127.0.0.1:9911/mcp" in text and f"Authorization: Bearer {token}" in text
    assert external_next_case(token=token)["trajectory_id"] in set(run.trajectories.values_list("id", flat=True))


# ---------------------------------------------------------------- uploads


def _reference_line(snapshot: dict, trial: int = 0) -> dict:
    """What an agent that followed the reference path elsewhere would upload (observations from the gateway)."""
    trajectory, answer = [], None
    for step in snapshot["reference_path"]:
        call = call_tool("agent", step["tool"], step["arguments"], city=snapshot["city_name"])
        trajectory.append(
            {
                "tool": step["tool"],
                "arguments": step["arguments"],
                "observation": call.observation(),
                "error_kind": call.error_kind,
                "latency_ms": call.latency_ms,
            }
        )
        if step["tool"] == "submit_answer" and call.ok:
            answer = call.result["result"]
    return {
        "case_id": snapshot["case_id"],
        "trial": trial,
        "answer": answer,
        "ended": "submitted",
        "trajectory": trajectory,
        "input_tokens": 100,
        "output_tokens": 20,
    }


def _write(tmp_path: Path, lines: list) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def test_an_upload_is_scored_like_a_run_and_marked_self_reported(autocommit_db, eval_release, snapshots, tmp_path):
    chosen = list(snapshots.values())[:3]
    path = _write(tmp_path, [_reference_line(s) for s in chosen] + [_reference_line(chosen[0], trial=1)])

    run = run_upload(release=eval_release, path=path, name="elsewhere")

    assert run.agent == "upload" and run.verified is False and run.status == EvaluationRun.COMPLETED
    trajectories = list(run.trajectories.select_related("entry"))
    assert len(trajectories) == 4 and all(t.passed and t.ended == "submitted" for t in trajectories)
    for t in trajectories:
        assert t.steps.count() == len(t.entry.snapshot["reference_path"]) and t.input_tokens == 100
    assert run.aggregates["table2"]["overall"]["value"] == 100.0
    assert run.aggregates["table2"]["n"] == 4  # over every line (the run once completed after its first)


def test_the_upload_command_reports_the_run_as_self_reported(autocommit_db, eval_release, snapshots, tmp_path):
    path = _write(tmp_path, [_reference_line(next(iter(snapshots.values())))])
    out = io.StringIO()
    call_command("upload_run", str(path), "--release", eval_release.name, "--name", "cli upload", stdout=out)
    assert "upload" in out.getvalue() and "unverified" in out.getvalue()
    assert EvaluationRun.objects.get(name="cli upload").verified is False


def test_an_upload_without_a_model_name_and_description_is_scored_but_refused_a_listing(
    autocommit_db, eval_release, snapshots, tmp_path
):
    from benchmark.board.leaderboard import leaderboard_rows

    path = _write(tmp_path, [_reference_line(s) for s in snapshots.values()])  # every case: a complete run
    out = io.StringIO()
    call_command("upload_run", str(path), "--release", eval_release.name, "--name", "anonymous upload", stdout=out)
    assert "Not listed on the leaderboard: it names no model (model_name); it does not say who ran it" in out.getvalue()
    anonymous = EvaluationRun.objects.get(name="anonymous upload")
    assert anonymous.aggregates["table2"]["overall"]["value"] == 100.0  # scored all the same
    assert anonymous.id not in [r["run_id"] for r in leaderboard_rows(release=eval_release, user=None)]
    assert (
        "not listed on the leaderboard: it names no model" in WebClient().get(f"/runs/{anonymous.id}/").content.decode()
    )

    out = io.StringIO()
    call_command(
        "upload_run",
        str(path),
        "--release",
        eval_release.name,
        "--name",
        "declared upload",
        "--model",
        "Reference-Path-1B",
        "--description",
        "Our lab's agent, run on our own cluster with the paper's prompt.",
        stdout=out,
    )
    assert "Listed on the leaderboard as self-reported" in out.getvalue()
    declared = EvaluationRun.objects.get(name="declared upload")
    [row] = [r for r in leaderboard_rows(release=eval_release, user=None) if r["run_id"] == declared.id]
    assert row["section"] == "self_reported", (row["n"], row["expected"], row["status"])
    assert row["rank"] is None and row["model"] == "Reference-Path-1B"
    page = WebClient().get(f"/runs/{declared.id}/").content.decode()
    assert "Reference-Path-1B" in page and "run on our own cluster" in page
    too_long = "x" * 2001
    with pytest.raises(ValueError, match="description must be text of at most 2000 characters"):
        run_upload(release=eval_release, path=path, name="long", model_name="m", description=too_long)
    with pytest.raises(ValueError, match="model_name must be one line"):
        run_upload(release=eval_release, path=path, name="two lines", model_name="a\nb", description="d")


def test_a_malformed_line_is_refused_naming_its_line_and_field(autocommit_db, eval_release, snapshots, tmp_path):
    good = _reference_line(next(iter(snapshots.values())))
    no_ending = {k: v for k, v in good.items() if k != "ended"}
    bad_step = {**good, "trial": 1, "trajectory": [{"arguments": {}, "observation": None}]}
    path = _write(tmp_path, [good, no_ending, bad_step, "{not json"])

    with pytest.raises(UploadError) as refused:
        run_upload(release=eval_release, path=path, name="malformed")

    message = str(refused.value)
    assert "line 2, field 'ended': Field required" in message
    assert "line 3, field 'trajectory.0.tool': Field required" in message
    assert "line 4: not valid JSON" in message
    assert not EvaluationRun.objects.filter(name="malformed").exists()  # nothing is written


def test_an_unknown_case_id_is_refused(autocommit_db, eval_release, snapshots, tmp_path):
    good = _reference_line(next(iter(snapshots.values())))
    path = _write(tmp_path, [good, {**good, "case_id": "no-such-case"}])

    with pytest.raises(CommandError, match="line 2: unknown case_id 'no-such-case'"):
        call_command("upload_run", str(path), "--release", eval_release.name, "--name", "unknown")
    assert not EvaluationRun.objects.filter(name="unknown").exists()
