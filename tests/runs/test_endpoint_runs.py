"""A model endpoint evaluated end to end (litellm agent, real HTTP to a scripted endpoint), and replayed."""

from __future__ import annotations

import io
import json
import re
import socket
import time

import pytest
from django.core.management import call_command

from benchmark.endpoints.llm import full_requests
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun, ModelCall, Step, Trajectory
from devtools.fake_endpoint import ScriptedEndpoint

SECRET = "sk-live-test-0123456789abcdef"


def evaluate(*args: str) -> str:
    out = io.StringIO()
    call_command("evaluate", *args, "--no-progress", stdout=out)
    return out.getvalue()


@pytest.fixture
def endpoint(eval_release, django_db_blocker):
    with django_db_blocker.unblock():
        scripted = ScriptedEndpoint.for_release(eval_release).start()
    yield scripted
    scripted.stop()


def test_an_endpoint_run_passes_every_case_records_every_call_and_replays(
    endpoint, eval_release, django_db_blocker, settings, monkeypatch, caplog
):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    monkeypatch.setenv("SCRIPTED_KEY", SECRET)
    with django_db_blocker.unblock():
        text = evaluate(
            "--model",
            "openai/scripted",
            "--api-base",
            endpoint.url,
            "--api-key-env",
            "SCRIPTED_KEY",
            "--release",
            eval_release.name,
            "--sync",
            "--concurrency",
            "2",
        )
        run = EvaluationRun.objects.order_by("-id").first()
        try:
            assert run.status == EvaluationRun.COMPLETED and "overall                 100.0%" in text
            trajectories = list(run.trajectories.all())
            assert len(trajectories) == 22 and all(t.passed and t.ended == "submitted" for t in trajectories)
            assert all(t.input_tokens > 0 and t.output_tokens > 0 for t in trajectories)
            calls = ModelCall.objects.filter(trajectory__run=run)
            assert calls.count() == endpoint.served
            first = trajectories[0].model_calls.order_by("sequence")
            whole = full_requests(list(first.values_list("request", flat=True)))  # as sent, from the deltas
            assert len(whole) > 1 and all(r["messages"][0]["role"] == "system" and r["tools"] for r in whole)
            assert [len(r["messages"]) for r in whole] == sorted({len(r["messages"]) for r in whole})
            scores = {t.entry_id: json.dumps(t.scores, sort_keys=True) for t in trajectories}
            stored = json.dumps(
                [
                    list(calls.values_list("request", "response", "error")),
                    list(Step.objects.filter(trajectory__run=run).values_list("arguments", "observation")),
                    [t.scores for t in trajectories],
                ]
            )
            assert SECRET not in stored and SECRET not in caplog.text
            assert SECRET not in run.endpoint.api_key_encrypted and run.endpoint.api_key_encrypted

            served = endpoint.served
            replay_text = evaluate("--replay", str(run.id), "--sync")
            replay = EvaluationRun.objects.order_by("-id").first()
            assert replay.replay_of_id == run.id and endpoint.served == served  # nobody was asked
            assert re.search(r"overall\s+100\.0%", replay_text)
            assert {t.entry_id: json.dumps(t.scores, sort_keys=True) for t in replay.trajectories.all()} == scores
            for original in trajectories:
                again = replay.trajectories.get(entry_id=original.entry_id, trial=original.trial)
                assert list(again.steps.values_list("tool", "arguments", "observation")) == list(
                    original.steps.values_list("tool", "arguments", "observation")
                )
                assert list(again.model_calls.values_list("sequence", "request", "response")) == list(
                    original.model_calls.values_list("sequence", "request", "response")
                )
        finally:
            endpoints = list(
                EvaluationRun.objects.filter(release=eval_release, endpoint__isnull=False).values_list(
                    "endpoint_id", flat=True
                )
            )
            EvaluationRun.objects.filter(release=eval_release, endpoint__isnull=False).delete()
            ModelEndpoint.objects.filter(id__in=endpoints).delete()


def test_a_private_endpoint_is_refused_unless_allowed(endpoint, eval_release, django_db_blocker, settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    from django.core.management import CommandError

    with django_db_blocker.unblock():
        with pytest.raises(CommandError, match="loopback"):
            evaluate("--model", "openai/scripted", "--api-base", endpoint.url, "--release", eval_release.name, "--sync")
        assert Trajectory.objects.filter(run__release=eval_release, run__endpoint__isnull=False).count() == 0


def test_the_scripted_endpoint_takes_a_benchmarks_connections_at_once_without_dropping_any():
    """With socketserver's backlog of 5, the kernel drops connection attempts past the queue and the client tries
    again a second later: a benchmark would count that second as the harness's latency."""
    endpoint = ScriptedEndpoint({}).start()
    host, port = endpoint.server.server_address[:2]
    opened, started = [], time.monotonic()
    try:
        for _ in range(128):  # bench_evaluation's 128 cases in flight, each connecting as it starts
            opened.append(socket.create_connection((host, port), timeout=5))
        assert time.monotonic() - started < 0.9, "a connection attempt was dropped and retried"
    finally:
        for sock in opened:
            sock.close()
        endpoint.stop()


class _MixedEndpoint(ScriptedEndpoint):
    """The scripted agent, but for a few questions: no answer at all (prose), an endpoint error, a context
    overflow, and an answer too slow for the case's wall clock."""

    def __init__(self, paths: dict[str, list[dict]], *, behaviour: dict[str, str], slow_s: float):
        super().__init__(paths)
        self.behaviour, self.slow_s = behaviour, slow_s

    def answer(self, body: dict) -> tuple[int, dict]:
        question = next(
            (
                m["content"]
                for m in body.get("messages", [])
                if m.get("role") == "user" and isinstance(m["content"], str)
            ),
            "",
        )
        made = sum(len(m.get("tool_calls") or []) for m in body.get("messages", []) if m.get("role") == "assistant")
        kind = self.behaviour.get(question, "")
        if kind == "error":
            with self.lock:
                self.served += 1
            return 400, {"error": {"message": "scripted refusal of this request", "type": "invalid_request_error"}}
        if kind == "context" and made >= 1:
            with self.lock:
                self.served += 1
            message = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000"
            return 400, {
                "error": {"message": message, "type": "invalid_request_error", "code": "context_length_exceeded"}
            }
        if kind == "slow" and made >= 1:
            time.sleep(self.slow_s)
        return super().answer(body)


def test_a_replay_repeats_passes_failures_errors_and_timeouts_exactly(
    eval_release, django_db_blocker, settings, monkeypatch
):
    """Replay identity on a run where cases pass, fail (no submission), end in an endpoint error, in a context
    overflow and in a timeout: every ending, error, verdict, score, step and model call comes back the same."""
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    monkeypatch.setenv("SCRIPTED_KEY", SECRET)
    with django_db_blocker.unblock():
        entries = list(eval_release.entries.order_by("position"))
        paths = {
            e.snapshot["question"]: [
                {"tool": s["tool"], "arguments": s["arguments"]} for s in e.snapshot["reference_path"]
            ]
            for e in entries
        }
        questions = [e.snapshot["question"] for e in entries]
        paths[questions[0]] = []  # prose, never a tool call: no_submission
        behaviour = {questions[1]: "error", questions[2]: "context", questions[3]: "slow"}
        endpoint = _MixedEndpoint(paths, behaviour=behaviour, slow_s=15.0).start()
        try:
            evaluate(
                "--model", "openai/scripted", "--api-base", endpoint.url, "--api-key-env", "SCRIPTED_KEY",
                "--release", eval_release.name, "--sync", "--concurrency", "4", "--timeout-s", "10",
            )  # fmt: skip
            run = EvaluationRun.objects.order_by("-id").first()
            endings = {t.entry.snapshot["question"]: t.ended for t in run.trajectories.select_related("entry")}
            assert [endings[q] for q in questions[:4]] == [
                "no_submission",
                "model_error",
                "context_exceeded",
                "timeout",
            ]
            assert sum(t.passed is True for t in run.trajectories.all()) == len(entries) - 4
            served = endpoint.served
            evaluate("--replay", str(run.id), "--sync")
            replay = EvaluationRun.objects.order_by("-id").first()
            assert replay.replay_of_id == run.id and endpoint.served == served  # nobody was asked
            for original in run.trajectories.all():
                again = replay.trajectories.get(entry_id=original.entry_id, trial=original.trial)
                assert (again.ended, again.error, again.passed, again.final_answer) == (
                    original.ended,
                    original.error,
                    original.passed,
                    original.final_answer,
                ), original.entry.snapshot["case_id"]
                assert json.dumps(again.scores, sort_keys=True) == json.dumps(original.scores, sort_keys=True)
                assert list(again.steps.values_list("tool", "arguments", "observation", "error_kind")) == list(
                    original.steps.values_list("tool", "arguments", "observation", "error_kind")
                )
                assert list(again.model_calls.values_list("sequence", "request", "response", "error")) == list(
                    original.model_calls.values_list("sequence", "request", "response", "error")
                )
        finally:
            endpoint.stop()
            ids = list(
                EvaluationRun.objects.filter(release=eval_release, endpoint__isnull=False).values_list(
                    "endpoint_id", flat=True
                )
            )
            EvaluationRun.objects.filter(release=eval_release, endpoint__isnull=False).delete()
            ModelEndpoint.objects.filter(id__in=ids).delete()
