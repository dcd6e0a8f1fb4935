"""Rows for the API and submission tests: users in each role, a public and a hidden release of
grid-city cases (one per category and more), finished runs with steps and scores, a smoke test."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import Group, User

from benchmark.cases.models import Release
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from tests.benchmark.factories import routing_document

SECRET = "sk-test-secret-0123456789abcdefXYZ"
# (category, level, type) of the cases of a release: every category, and more than one per category.
CELLS = [
    ("place_perception", "L0", "place_L0"),
    ("nearby_discovery", "L0", "nearby_L0"),
    ("routing", "L0", "routing_L0"),
    ("routing", "L1", "routing_L1"),
    ("trip_design", "L1", "trip_L1"),
    ("place_perception", "L1", "place_L1"),
]


@dataclass
class World:
    public: Release
    hidden: Release
    owner: User
    other: User
    curator: User
    staff: User
    evaluation: EvaluationRun  # on the public release
    hidden_run: EvaluationRun  # on the hidden release
    smoke: EvaluationRun  # the owner's smoke test


def user(username: str, *, staff: bool = False, curator: bool = False) -> User:
    account = User.objects.create_user(username=username, password="pw", is_staff=staff)
    if curator:
        account.groups.add(Group.objects.get(name="Curators"))
    return account


def release(name: str, *, split: str = Release.PUBLIC, cells=CELLS) -> Release:
    """A frozen release of grid-city cases, one per entry of ``cells``."""
    from benchmark.cases.services import case_create, release_freeze

    cases = []
    for position, (category, level, type_) in enumerate(cells):
        document = routing_document(
            case_id=f"{name}-{position:02d}-{type_}",
            category=category,
            level=level,
            type=type_,
            status="validated",
            question=f"{name} case {position}: walk from Kahvila Koira to Museo Kivi via Hotel Aurora. How far is it?",
        )
        cases.append(case_create(document=document))
    return release_freeze(name=name, split=split, cases=cases, audit=False)


def finished_run(
    release_: Release,
    *,
    name: str,
    created_by: User | None = None,
    endpoint=None,
    purpose: str = EvaluationRun.EVALUATION,
) -> EvaluationRun:
    """A completed run whose trajectories each made two tool calls and submitted; every other one passed."""
    from benchmark.runs.aggregates import run_aggregates
    from benchmark.runs.services import run_create

    run = run_create(
        agent="litellm" if endpoint else "reference",
        release=release_,
        endpoint=endpoint,
        name=name,
        created_by=created_by,
    )
    for i, trajectory in enumerate(run.trajectories.order_by("entry__position")):
        _finish(trajectory, passed=i % 2 == 0)
    run.purpose, run.status = purpose, EvaluationRun.COMPLETED
    run.aggregates = run_aggregates(run=run)
    run.save()
    return run


def _finish(trajectory: Trajectory, *, passed: bool) -> None:
    Step.objects.bulk_create(
        [
            Step(
                trajectory=trajectory,
                index=0,
                tool="place_search",
                arguments={"query_name": "Kahvila Koira"},
                observation={"places": [{"place_id": "N1"}]},
                latency_ms=3.0,
                model_text="Looking it up.",
                input_tokens=100,
                output_tokens=20,
            ),
            Step(
                trajectory=trajectory,
                index=1,
                tool="submit_answer",
                arguments={"result": {"name": "Museo Kivi"}},
                observation={"result": {"name": "Museo Kivi"}},
                latency_ms=1.0,
            ),
        ]
    )
    value = 1.0 if passed else 0.0
    trajectory.scores = {
        "pass_rate": {
            "name": "pass_rate",
            "value": value,
            "source": "rule",
            "applicable": True,
            "explanation": "passes" if passed else "fails",
            "details": {},
        },
        "PIoU": {
            "name": "PIoU",
            "value": value,
            "source": "rule",
            "applicable": True,
            "explanation": "1 shared of 1 places in either answer: PIoU = 1",
            "details": {"reference": ["N5-REFERENCE-ONLY"], "predicted": ["N5"]},
        },
    }
    trajectory.passed, trajectory.ended, trajectory.status = passed, "submitted", Trajectory.DONE
    trajectory.final_answer = {"name": "Museo Kivi", "place_id": "N5"}
    trajectory.input_tokens, trajectory.output_tokens = 100, 20
    trajectory.save()


def endpoint(name: str, owner: User):
    from benchmark.endpoints.services import endpoint_create

    return endpoint_create(
        name=name,
        model="openai/gpt-4o-mini",
        api_base="http://127.0.0.1:9/v1",
        api_key=SECRET,
        params={"max_tokens": 512},
        concurrency=2,
        owner=owner,
    )


def world(prefix: str = "api") -> World:
    """Every role and kind of row the visibility rules distinguish (needs ALLOW_PRIVATE_ENDPOINTS)."""
    owner, other = user(f"{prefix}-owner"), user(f"{prefix}-other")
    curator, staff = user(f"{prefix}-curator", curator=True), user(f"{prefix}-staff", staff=True)
    public, hidden = release(f"{prefix}-public"), release(f"{prefix}-hidden", split=Release.HIDDEN)
    evaluation = finished_run(
        public, name=f"{prefix} model", created_by=owner, endpoint=endpoint(f"{prefix} model", owner)
    )
    hidden_run = finished_run(hidden, name=f"{prefix} reference")
    smoke = finished_run(
        public,
        name=f"{prefix} smoke",
        created_by=owner,
        endpoint=endpoint(f"{prefix} smoke", owner),
        purpose=EvaluationRun.SMOKE,
    )
    return World(
        public=public,
        hidden=hidden,
        owner=owner,
        other=other,
        curator=curator,
        staff=staff,
        evaluation=evaluation,
        hidden_run=hidden_run,
        smoke=smoke,
    )
