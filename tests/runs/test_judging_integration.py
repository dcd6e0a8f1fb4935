"""Judges wired into scoring: the DB cache, the rules fallback, human scores and calibration."""

import io
import json

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command

from benchmark.cases.services import case_create
from benchmark.runs.models import HumanScore, JudgeRecord
from benchmark.runs.scoring.judge_cache import DatabaseJudgeCache
from benchmark.runs.scoring.model_clients import with_model_client
from benchmark.runs.scoring.services import answer_score
from judging.judges import JudgeConfig
from tests.fakes.openai_server import FakeOpenAI, reply

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def judges_on_this_machine(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the fake judge answers on 127.0.0.1


def verdict(score: float):
    return lambda body: reply(json.dumps({"score": score, "explanation": f"scripted {score}"}))


@pytest.fixture
def trip_case(generated_cases):
    return next(d for d in generated_cases[0] if d.type == "trip_L2")


def test_judged_sc_is_cached_in_the_database(trip_case):
    with FakeOpenAI([verdict(0.95)]) as fake:
        judges = [
            with_model_client(JudgeConfig(name="j1", model="openai/judge-one", api_base=fake.url, api_key="sk-test"))
        ]
        first = answer_score(
            document=trip_case, answer=trip_case.answer, trajectory=None, judges=judges, cache=DatabaseJudgeCache()
        )
        asked = len(fake.requests)
        again = answer_score(
            document=trip_case, answer=trip_case.answer, trajectory=None, judges=judges, cache=DatabaseJudgeCache()
        )
    assert first["SC"].source == "judges" and first["SC"].value == 0.95
    assert again["SC"].value == 0.95 and len(fake.requests) == asked  # the re-score asked nobody
    assert JudgeRecord.objects.filter(model="openai/judge-one", role="semantic_constraint").exists()
    assert "sk-test" not in json.dumps(list(JudgeRecord.objects.values_list("verdict", flat=True)))


def test_when_every_judge_fails_sc_falls_back_to_the_rules_and_says_so(trip_case):
    with FakeOpenAI([reply("I think it is fine, no JSON here")]) as fake:
        judges = [
            with_model_client(JudgeConfig(name="j1", model="openai/judge-one", api_base=fake.url, api_key="sk-test"))
        ]
        results = answer_score(document=trip_case, answer=trip_case.answer, trajectory=None, judges=judges)
    assert results["SC"].source == "rules" and results["SC"].value == 1.0
    assert "judges failed" in results["SC"].explanation
    assert results["SC"].details["judges"]["failed"][0]["failure"].startswith("malformed reply")


def test_curators_enter_human_scores_and_others_cannot(client, trip_case):
    case = case_create(document=trip_case)
    curator = User.objects.create_user("cur", password="pw", is_staff=True)
    curator.groups.add(Group.objects.get(name="Curators"))
    staff = User.objects.create_user("staff", password="pw", is_staff=True)
    form = {
        "case": case.pk,
        "metric": "SC",
        "answer": json.dumps(trip_case.answer),
        "trajectory": "{}",
        "score": "0.75",
        "note": "checked by hand",
    }
    client.force_login(staff)
    assert client.post("/admin/runs/humanscore/add/", form).status_code == 403
    client.force_login(curator)
    response = client.post("/admin/runs/humanscore/add/", form)
    assert response.status_code == 302
    stored = HumanScore.objects.get()
    assert stored.score == 0.75 and stored.annotator == curator


def test_calibrate_judges_reports_agreement_and_recommends(trip_case, settings, monkeypatch):
    case = case_create(document=trip_case)
    for value in (0.8, 0.9, 0.7):
        HumanScore.objects.create(case=case, metric="SC", answer={**trip_case.answer, "note": value}, score=value)
    monkeypatch.setenv("FAKE_JUDGE_KEY", "sk-test")
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the judges ask through the model client: its egress checks apply
    with FakeOpenAI([verdict(0.8)]) as close, FakeOpenAI([verdict(0.1)]) as far:
        settings.JUDGE_MODELS = [
            {"name": "close", "model": "openai/close", "api_base": close.url, "api_key_env": "FAKE_JUDGE_KEY"},
            {"name": "far", "model": "openai/far", "api_base": far.url, "api_key_env": "FAKE_JUDGE_KEY"},
        ]
        out = io.StringIO()
        call_command("calibrate_judges", "--metric", "SC", "--top", "1", stdout=out)
    text = out.getvalue()
    assert "(6 pairs)" in text and "Recommended ensemble: close" in text
    close_row = next(line for line in text.splitlines() if line.startswith("close") and "overall" in line)
    assert "0.067" in close_row
