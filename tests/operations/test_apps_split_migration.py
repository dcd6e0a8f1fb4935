"""Existing databases upgrade in place when the benchmark's models moved to their apps (benchmark.0011).

A database is migrated to benchmark.0010 (the schema the code had before the split) and filled
through the models of that state: a curator, a case in a release, an endpoint, a finished run with
a trajectory, a step, a recorded model call, a run token, a judge record, a human score, a
re-scoring and an API token. Then ``migrate`` runs to the end, and the new code reads every row
back, the curator still curates, and the migration undoes and redoes cleanly.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.db import connection

from tests import processes

from .conftest import assert_test_database

BEFORE_SPLIT = "0010_endpoint_names_per_owner"

# Runs in a child process on the scratch database, with the models as they were at benchmark.0010.
FILL_AS_BEFORE = """
from django.contrib.auth.models import Group, User
from django.db import connection
from django.db.migrations.loader import MigrationLoader

old = MigrationLoader(connection).project_state(("benchmark", "%(before)s")).apps
model = lambda name: old.get_model("benchmark", name)
curator = User.objects.create_user("split-curator", password="pw")
curator.groups.add(Group.objects.get(name="Curators"))
case = model("Case").objects.create(
    case_id="split-routing_L1-001", type="routing_L1", category="routing", level="L1", question="Which stop?",
    answer={"answer_place": {"id": "N1"}}, city_name="helsinki", city_version="v1", status="validated")
release = model("Release").objects.create(name="split-v1", content_hash="h", city_name="helsinki", city_version="v1")
entry = model("ReleaseCase").objects.create(release=release, case=case, position=0, snapshot={"case_id": case.case_id})
model("CaseEvent").objects.create(case=case, actor_id=curator.id, action="validated", reason="checked")
endpoint = model("ModelEndpoint").objects.create(name="split-model", model="openai/m", owner_id=curator.id,
                                                 api_key_encrypted="ciphertext")
run = model("EvaluationRun").objects.create(
    name="split run", agent="litellm", endpoint=endpoint, release=release, status="completed",
    config={"trials": 1}, aggregates={"table2": {"n": 1, "overall": 1.0}}, created_by_id=curator.id)
trajectory = model("Trajectory").objects.create(run=run, entry=entry, status="done", ended="submitted",
                                                final_answer={"answer_place": {"id": "N1"}}, passed=True,
                                                scores={"A": {"value": 1.0}}, input_tokens=12, output_tokens=3)
model("Step").objects.create(trajectory=trajectory, index=0, tool="place_search", arguments={"query_name": "x"},
                             observation={"places": []})
model("ModelCall").objects.create(trajectory=trajectory, sequence=0, request={"messages": []},
                                  response={"choices": []})
model("RunToken").objects.create(run=run, token_hash="t" * 64)
model("JudgeRecord").objects.create(key="k" * 64, role="sc", model="judge", prompt_version="1",
                                    verdict={"score": 1})
model("HumanScore").objects.create(case=case, metric="SC", answer={"a": 1}, score=0.5, annotator_id=curator.id)
model("RunRescore").objects.create(run=run, reason="split check", versions={"code": "x"})
model("ApiToken").objects.create(user_id=curator.id, key_hash="a" * 64)
print(run.id)
"""

READ_AS_NOW = """
import json
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from benchmark.accounts.models import ApiToken
from benchmark.cases.models import Release
from benchmark.operations.models import RunRescore
from benchmark.runs.models import EvaluationRun, HumanScore, JudgeRecord

run = EvaluationRun.objects.get(id=%(run)d)
trajectory = run.trajectories.get()
curator = User.objects.get(username="split-curator")
print(json.dumps({
    "run": [run.name, run.status, run.agent, run.config, run.aggregates, run.endpoint.name, run.release.name],
    "trajectory": [trajectory.entry.case.case_id, trajectory.passed, trajectory.final_answer, trajectory.scores,
                   trajectory.input_tokens, trajectory.output_tokens],
    "steps": list(trajectory.steps.values_list("tool", "arguments", "observation")),
    "model_calls": trajectory.model_calls.count(),
    "tokens": run.tokens.count(),
    "rescores": list(RunRescore.objects.filter(run=run).values_list("reason", flat=True)),
    "release_cases": list(Release.objects.get(name="split-v1").cases.values_list("case_id", flat=True)),
    "events": list(trajectory.entry.case.events.values_list("action", "reason")),
    "judge_records": JudgeRecord.objects.count(),
    "human_scores": list(HumanScore.objects.values_list("metric", "score")),
    "api_token": ApiToken.objects.filter(user=curator).exists(),
    "curates": curator.has_perm("cases.curate_case"),
    "content_types": sorted(ContentType.objects.filter(model__in=["case", "evaluationrun", "apitoken",
        "modelendpoint", "runrescore"]).values_list("app_label", "model")),
}))
"""

EXPECTED = {
    "run": [
        "split run",
        "completed",
        "litellm",
        {"trials": 1},
        {"table2": {"n": 1, "overall": 1.0}},
        "split-model",
        "split-v1",
    ],
    "trajectory": ["split-routing_L1-001", True, {"answer_place": {"id": "N1"}}, {"A": {"value": 1.0}}, 12, 3],
    "steps": [["place_search", {"query_name": "x"}, {"places": []}]],
    "model_calls": 1,
    "tokens": 1,
    "rescores": ["split check"],
    "release_cases": ["split-routing_L1-001"],
    "events": [["validated", "checked"]],
    "judge_records": 1,
    "human_scores": [["SC", 0.5]],
    "api_token": True,
    "curates": True,
    "content_types": [
        ["accounts", "apitoken"],
        ["cases", "case"],
        ["endpoints", "modelendpoint"],
        ["operations", "runrescore"],
        ["runs", "evaluationrun"],
    ],
}


@pytest.fixture
def scratch_url(django_db_blocker):
    """A second database of its own, dropped afterwards."""
    with django_db_blocker.unblock():
        assert_test_database()
        name = connection.settings_dict["NAME"] + "_split"
        _drop(name)
        with connection.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        db = connection.settings_dict
        url = f"postgis://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"
    try:
        yield url
    finally:
        with django_db_blocker.unblock():
            _drop(name)


def _drop(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name])
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


def _manage(url: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=processes.REPO,
        env=processes.child_env(DATABASE_URL=url),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_database_from_before_the_split_migrates_in_place_and_reads_back(scratch_url):
    _manage(scratch_url, "migrate", "--noinput", "benchmark", BEFORE_SPLIT)
    run_id = int(_manage(scratch_url, "shell", "-c", FILL_AS_BEFORE % {"before": BEFORE_SPLIT}).split()[-1])
    _manage(scratch_url, "migrate", "--noinput")
    assert json.loads(_manage(scratch_url, "shell", "-c", READ_AS_NOW % {"run": run_id}).splitlines()[-1]) == EXPECTED
    # Back to the old state and forward again: the content types follow, the rows never move.
    _manage(scratch_url, "migrate", "--noinput", "benchmark", BEFORE_SPLIT)
    _manage(scratch_url, "migrate", "--noinput")
    assert json.loads(_manage(scratch_url, "shell", "-c", READ_AS_NOW % {"run": run_id}).splitlines()[-1]) == EXPECTED
