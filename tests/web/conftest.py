"""Shared fixtures for the site's pages (tests/web): releases, real runs, recorded trajectories, users.

Two kinds of data:
- ``web_release`` / ``web_runs``: the 22 generated Helsinki cases frozen as release "web-fixture",
  with a real reference run and a real heuristic run executed synchronously on them. Committed
  (servers in other threads, e.g. ``live_server``, see them) and removed at the end of the session.
- ``grid_release`` and ``record_trajectory``: a case on the small grid city and trajectories made of
  real tool calls through the gateway, scored by the real ``trajectory_finish``; written inside
  the test's transaction (use with ``db``).
"""

from __future__ import annotations

import csv
import io
import itertools

import pytest

from tests.web.browser import browser, chromium, site  # noqa: F401 (fixtures for every module here)

CASE_PREFIX = "webfx-"  # case_ids of the committed fixtures below
FIXTURE_RELEASES = ("web-fixture", "web-grid-hostile")
HOSTILE_BROWSER_NOTE = "web-hostile-browser"
_names = itertools.count(1)
HOSTILE_TITLE = "<script>alert('title')</script> Best <b>buns</b>"
HOSTILE_TEXT = "<img src=x onerror=alert(1)> Lovely spot"
HOSTILE_COMMENT = "</textarea><script>alert(2)</script>"


def _assert_test_database() -> None:
    from django.db import connection

    name = connection.settings_dict["NAME"]
    assert name.startswith("test_"), f"refusing to write committed fixtures into {name!r}, not a test database"


def remove_web_fixtures() -> None:
    """Delete the committed fixtures of this folder (leftovers of an interrupted session included)."""
    from benchmark.cases.models import Case, Release
    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.runs.models import EvaluationRun
    from environment.models import Note

    EvaluationRun.objects.filter(release__name__in=FIXTURE_RELEASES).delete()
    Release.objects.filter(name__in=FIXTURE_RELEASES).delete()
    ModelEndpoint.objects.filter(name=WEB_MODEL_ENDPOINT).delete()
    Case.objects.filter(case_id__startswith=CASE_PREFIX).delete()
    Note.objects.filter(note_id=HOSTILE_BROWSER_NOTE).delete()


@pytest.fixture(scope="session")
def web_release(generated_cases, django_db_blocker):
    """The 22 generated Helsinki cases (two per cell) as the public release "web-fixture", committed."""
    from benchmark.cases.services import case_create, release_freeze

    with django_db_blocker.unblock():
        _assert_test_database()
        remove_web_fixtures()
        cases = [
            case_create(
                document=document.model_copy(update={"status": "validated", "case_id": CASE_PREFIX + document.case_id})
            )
            for document in generated_cases[0]
        ]
        release = release_freeze(name="web-fixture", split="public", cases=cases)
    yield release
    with django_db_blocker.unblock():
        remove_web_fixtures()


@pytest.fixture(scope="session")
def web_runs(web_release, django_db_blocker) -> dict:
    """A reference run and a heuristic run of every case of ``web_release``, executed for real: {agent: run}."""
    from benchmark.runs.driver import run_sync
    from benchmark.runs.services import run_create

    runs = {}
    with django_db_blocker.unblock():
        for agent in ("reference", "heuristic"):
            run = run_create(agent=agent, release=web_release, name=f"web {agent}")
            run_sync(run=run, concurrency=1, progress=None)
            run.refresh_from_db()
            assert run.status == run.COMPLETED, f"the {agent} run did not complete: {run.status}"
            runs[agent] = run
    return runs


WEB_MODEL = "openai/web-fixture-model"
WEB_MODEL_ENDPOINT = "web fixture model"


@pytest.fixture(scope="session")
def web_model_run(web_runs, django_db_blocker):
    """A listed, complete, verified run of a model with a card on "web-fixture", for the model card's page: its
    stored results are the heuristic run's (no trajectory of its own; only its aggregates are read)."""
    from benchmark.endpoints.models import ModelEndpoint
    from benchmark.runs.models import EvaluationRun

    source = web_runs["heuristic"]
    with django_db_blocker.unblock():
        endpoint = ModelEndpoint.objects.create(
            name=WEB_MODEL_ENDPOINT,
            model=WEB_MODEL,
            card={"organisation": "Fixture Lab", "parameters": "7B", "open_weights": False, "server": "vLLM 0.9"},
        )
        run = EvaluationRun.objects.create(
            name="web model",
            agent="litellm",
            endpoint=endpoint,
            release=source.release,
            status=EvaluationRun.COMPLETED,
            config=source.config,
            aggregates=source.aggregates,
            description="A run whose figures are the heuristic run's, for the model card's page (tests/web).",
            started_at=source.started_at,
            finished_at=source.finished_at,
        )
    return run


# ------------------------------------------------------------------ grid-city data (inside a test's transaction)


@pytest.fixture
def make_grid_release(grid_city, db):
    """Freeze a routing case of the grid city as a new release: ``make_grid_release(split=..., **document)``."""
    from benchmark.cases.services import case_create, release_freeze
    from tests.factories import routing_document

    def make(split: str = "public", **overrides):
        case = case_create(document=routing_document(status="validated", **overrides))
        return release_freeze(name=f"grid-replay-{next(_names)}", split=split, cases=[case], audit=False)

    return make


@pytest.fixture
def grid_release(make_grid_release):
    return make_grid_release()


def recorded_trajectory(*, release, calls, answer=None, model_text: str = "", **run_options):
    """Run real tool calls on the release's city, then record and score them as one finished trajectory.

    A new run (agent "reference", ``run_options`` passed to ``run_create``; ``purpose`` set
    after) holds it. A submit_answer call is appended for ``answer`` unless it is None.
    """
    from benchmark.agents.toolbox import StepRecord
    from benchmark.runs.lifecycle import trajectory_finish
    from benchmark.runs.services import run_create
    from environment.tools.gateway import call_tool

    purpose = run_options.pop("purpose", None)
    name = run_options.pop("name", "recorded")
    run = run_create(agent="reference", release=release, name=name, rename_duplicate=True, **run_options)
    if purpose:
        run.purpose = purpose
        run.save(update_fields=["purpose"])
    calls = list(calls) + ([("submit_answer", {"result": answer})] if answer is not None else [])
    steps = []
    for index, (tool, arguments) in enumerate(calls):
        call = call_tool("agent", tool, arguments, city=release.city_name)
        steps.append(
            StepRecord(
                index=index,
                tool=tool,
                arguments=arguments,
                observation=call.observation(),
                error_kind=call.error_kind,
                latency_ms=call.latency_ms,
                model_text=model_text,
            )
        )
    trajectory = run.trajectories.get()
    trajectory_finish(
        trajectory=trajectory,
        steps=steps,
        final_answer=answer,
        ended="submitted" if answer is not None else "no_submission",
    )
    trajectory.refresh_from_db()
    return trajectory


@pytest.fixture
def record_trajectory(db):
    """``recorded_trajectory`` inside the test's transaction."""
    return recorded_trajectory


def hostile_note_create(*, city, note_id: str = "hostile-1"):
    """A note (with one comment) whose title, text and comment try to inject markup, searchable for "buns"."""
    from django.db import connection
    from django.utils import timezone

    from environment.models import Comment, Note

    note = Note.objects.create(
        city=city,
        note_id=note_id,
        kind="about",
        title=HOSTILE_TITLE,
        desc=HOSTILE_TEXT,
        time=timezone.now(),
        liked_count=7,
        collected_count=1,
        comment_count=1,
        share_count=0,
        tag_list="bakery",
    )
    Comment.objects.create(
        note=note, comment_id=f"{note_id}-c1", time=timezone.now(), content=HOSTILE_COMMENT, like_count=3
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE environment_note SET search_vector = to_tsvector('english', title || ' ' || \"desc\") "
            "WHERE id = %s",
            [note.pk],
        )
    return note


def every_tool_calls(note_id: str) -> list:
    """One call of each agent tool on the grid city (and a failing one), reading note ``note_id``."""
    return [
        ("place_search", {"query_name": "Kahvila"}),
        ("nearby_search", {"center": "N4", "radius_meters": 250}),
        ("nearby_search", {"center": {"start": "N1", "end": "N5", "vehicle": "walking"}, "radius_meters": 60}),
        ("routing", {"start_place_id": "N1", "end_place_id": "N4", "vehicle": "walking", "mode": "distance"}),
        ("place_detail", {"place_id": "N4"}),
        ("search_notes", {"keyword": "buns"}),
        ("note_detail", {"note_id": note_id}),
        ("routing", {"start_place_id": "N1", "end_place_id": "N404"}),
    ]


@pytest.fixture
def users(db) -> dict:
    """An anonymous-free set of users: a signed-in member, a curator (Curators group) and a staff member."""
    from django.contrib.auth.models import Group, User

    member = User.objects.create_user("member", password="pw")
    curator = User.objects.create_user("curator", password="pw")
    curator.groups.add(Group.objects.get(name="Curators"))
    staff = User.objects.create_user("staffer", password="pw", is_staff=True)
    return {"member": member, "curator": curator, "staff": staff}


def read_csv(response) -> list[dict]:
    """A CSV download's rows as dicts keyed by its header."""
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8"))))
