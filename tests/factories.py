"""The tests' one factories module: the rows tests build, through the real services where there is one.

- The grid city: a 5 x 5 street grid ("gridtown") loaded through the real build loader into PostGIS.
- Case documents on it and staff users (curators join the "Curators" group the data migration makes).
- Releases, finished runs, trajectories and score dicts for the pages (leaderboard, run, cases). Score dicts have
  the stored shape ({metric: {value, explanation, details, source}}); a run's aggregates are computed from its
  stored trajectories by the real ``run_aggregates``; ``run_with_trials`` makes several trials per case.
- A world for the API and submission tests (``world``): users in each role, a public and a hidden release of
  grid-city cases (one per category and more), finished runs with steps and scores, a smoke test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import Group, User
from django.utils import timezone

from benchmark.cases.document import CaseDocument, ToolStep
from benchmark.cases.models import Release
from benchmark.cases.services import case_create, release_freeze
from benchmark.runs.aggregates import run_aggregates
from benchmark.runs.models import EvaluationRun, Step, Trajectory
from environment.records import PlaceRecord, RoadRecord

# ------------------------------------------------------------------ the grid city

# A 5 x 5 street grid around (24.94, 60.17), about 110 m between streets.
ORIGIN_LON, ORIGIN_LAT = 24.94, 60.17
STEP_LON, STEP_LAT = 0.002, 0.001
GRID = 5


def node_id(i: int, j: int) -> int:
    return 1000 + i * GRID + j


def node_coord(i: int, j: int) -> tuple[float, float]:
    return (ORIGIN_LON + j * STEP_LON, ORIGIN_LAT + i * STEP_LAT)


def grid_roads() -> list[RoadRecord]:
    """Rows are east-west streets, columns north-south. Row 2 is one-way eastbound for cars."""
    roads = []
    for i in range(GRID):
        nodes = tuple(node_id(i, j) for j in range(GRID))
        oneway = i == 2
        roads.append(
            RoadRecord(
                gid=100 + i,
                name=f"Row {i} Street",
                highway="residential",
                node_ids=nodes,
                coords=tuple(node_coord(i, j) for j in range(GRID)),
                walk=True,
                cycle_forward=True,
                cycle_backward=not oneway,
                drive_forward=True,
                drive_backward=not oneway,
                drive_speed_mps=8.33,
            )
        )
    for j in range(GRID):
        nodes = tuple(node_id(i, j) for i in range(GRID))
        roads.append(
            RoadRecord(
                gid=200 + j,
                name=f"Column {j} Avenue",
                highway="primary" if j == 4 else "residential",
                node_ids=nodes,
                coords=tuple(node_coord(i, j) for i in range(GRID)),
                walk=True,
                cycle_forward=True,
                cycle_backward=True,
                drive_forward=True,
                drive_backward=True,
                drive_speed_mps=16.7 if j == 4 else 8.33,
            )
        )
    return roads


PLACE_SPECS = [
    # (place_id, name, place_type, i, j, opening_hours, tag)
    ("N1", "Kahvila Koira", "Food & Beverages|Coffee House", 0, 0, "Mo-Fr 08:00-18:00", "Facility: WiFi"),
    ("N2", "Ravintola Meri", "Food & Beverages|Restaurant", 0, 2, "Mo-Su 11:00-22:00", "Cuisine: Seafood"),
    ("N3", "Kirjakauppa Lumi", "Shopping|Bookstore", 1, 1, "Mo-Sa 10:00-19:00", ""),
    ("N4", "Hotel Aurora", "Accommodation|Hotel", 2, 2, "24/7", "Facility: WiFi"),
    ("N5", "Museo Kivi", "Culture|Museum", 2, 4, "Tu-Su 10:00-17:00", "Accessibility: Wheelchair accessible"),
    ("N6", "Pub Karhu", "Food & Beverages|Pub", 3, 0, "Mo-Su 16:00-02:00", ""),
    ("N7", "Kahvila Aamu", "Food & Beverages|Coffee House", 4, 4, "Mo-Fr 07:00-15:00", "Diet: Vegan options"),
    ("N8", "Apteekki Tammi", "Healthcare|Pharmacy", 4, 0, "broken hours ((", ""),
    ("N9", "Pizzeria Tähti", "Food & Beverages|Pizzeria", 1, 3, "Mo-Su 11:00-23:00", "Cuisine: Pizza"),
    ("N10", "Puisto Valo", "Scenery Spot|Park", 3, 3, "", ""),
]


def grid_places() -> list[PlaceRecord]:
    places = []
    for pid, name, ptype, i, j, hours, tag in PLACE_SPECS:
        lon, lat = node_coord(i, j)
        places.append(
            PlaceRecord(
                place_id=pid,
                osm_type="node",
                osm_id=int(pid[1:]),
                name=name,
                place_type=ptype,
                lon=lon + 0.00005,
                lat=lat + 0.00003,
                address=f"Testikatu {pid[1:]}, 00100 Helsinki",
                opentime_week=hours,
                tag=tag,
                alias="",
            )
        )
    return places


def build_grid_city(name: str = "gridtown", seed: int = 1):
    """Load the grid city (with a generated corpus) under ``name`` and return the City row."""
    from django.contrib.gis.geos import Polygon

    from environment.build.corpus import generate_corpus
    from environment.build.loader import city_load
    from environment.build.osm import enrich_rating_cost
    from environment.models import City

    places, roads = grid_places(), grid_roads()
    city = City.objects.filter(name=name).first() or City(name=name)
    city.version, city.seed, city.scale, city.source = f"grid-{seed}", seed, 1, "tests/factories.py"
    city.bbox = Polygon.from_bbox((24.93, 60.16, 24.96, 60.18))
    counts = city_load(
        city=city,
        places=places,
        roads=roads,
        ratings=enrich_rating_cost(places, seed),
        corpus=generate_corpus(places, seed),
    )
    city.report = {"counts": counts}
    city.save(update_fields=["report"])
    return city


# ------------------------------------------------------------------ case documents and users

_document_numbers = iter(range(1, 1_000_000))


def routing_document(**overrides) -> CaseDocument:
    """A routing_L0 case: walk from Kahvila Koira (N1) via Hotel Aurora (N4) to Museo Kivi (N5)."""
    n = next(_document_numbers)
    stops = [("N1", "Kahvila Koira"), ("N4", "Hotel Aurora"), ("N5", "Museo Kivi")]
    answer = {
        "start": {"name": "Kahvila Koira", "place_id": "N1", "reason": "User-specified origin."},
        "end": {"name": "Museo Kivi", "place_id": "N5", "reason": "User-specified destination."},
        "waypoints": [{"name": "Hotel Aurora", "place_id": "N4", "reason": "User-specified stop."}],
        "optimal_order": [{"name": name, "place_id": pid, "visit_order": i} for i, (pid, name) in enumerate(stops, 1)],
        "vehicle": "walking",
        "mode": "distance",
        "total_distance_m": 812.4,
        "total_time_s": 584.9,
    }
    data = {
        "case_id": f"routing_L0_{n:04d}",
        "type": "routing_L0",
        "category": "routing",
        "level": "L0",
        "question": f"Case {n}: I walk from Kahvila Koira to Museo Kivi via Hotel Aurora. How far is it?",
        "answer": answer,
        "reference_path": [
            ToolStep(tool="place_search", arguments={"query_name": "Kahvila Koira"}, observation_sha256="a" * 64),
            ToolStep(
                tool="routing",
                arguments={"start_place_id": "N1", "end_place_id": "N4", "vehicle": "walking", "mode": "distance"},
                observation_sha256="b" * 64,
            ),
        ],
        "engine_path": [ToolStep(tool="sample_place", arguments={"num": 10})],
        "required_evidence": {"attributes": [{"place_id": "N4", "key": "tag"}], "note_ids": []},
        "constraints": {"vehicle": "walking"},
        "uniqueness": {"tool": "multi_stop_routing", "best": ["N1", "N4", "N5"]},
        "provenance": {"generator": "tests", "seed": n, "city_name": "gridtown", "city_version": "grid-1"},
        "city_name": "gridtown",
        "city_version": "grid-1",
    }
    return CaseDocument.model_validate(data | overrides)


def staff_user(username: str, *, curator: bool = False, perms: tuple[str, ...] = ()) -> User:
    """A staff user; a curator joins the "Curators" group made by the data migration."""
    from django.contrib.auth.models import Permission

    user = User.objects.create_user(username=username, password="pw", is_staff=True)
    if curator:
        user.groups.add(Group.objects.get(name="Curators"))
    for codename in perms:
        user.user_permissions.add(Permission.objects.get(codename=codename))
    return user


# ------------------------------------------------------------------ releases, runs and scores for the pages

_release_numbers = iter(range(1, 1_000_000))
# One case per cell of table 2, in the paper's order.
ALL_CELLS = [
    ("place_perception", "L0"),
    ("place_perception", "L1"),
    ("place_perception", "L2"),
    ("nearby_discovery", "L0"),
    ("nearby_discovery", "L1"),
    ("nearby_discovery", "L2"),
    ("routing", "L0"),
    ("routing", "L1"),
    ("routing", "L2"),
    ("trip_design", "L1"),
    ("trip_design", "L2"),
]


def release_with_cases(
    name: str, *, cells=ALL_CELLS, split: str = Release.PUBLIC, per_cell: int = 1, **overrides
) -> Release:
    """A frozen release of grid-city routing documents relabelled to the given cells."""
    cases = []
    for category, level in cells:
        for _ in range(per_cell):
            n = next(_release_numbers)
            doc = routing_document(
                case_id=f"{name}-{category}-{level}-{n:04d}",
                category=category,
                level=level,
                type=f"{category}_{level}",
                status="validated",
                **overrides,
            )
            cases.append(case_create(document=doc))
    return release_freeze(name=name, split=split, cases=cases, audit=False)


def metric(name: str, value, **details) -> dict:
    return {
        "name": name,
        "value": value,
        "applicable": value is not None,
        "explanation": f"{name} = {value}",
        "details": details,
        "source": "rule",
    }


def passing_scores(**overrides) -> dict:
    """Scores of a case that passes; ``overrides`` replace whole metrics (metric(...) dicts)."""
    scores = {name: metric(name, 1.0) for name in ("A", "PIoU", "RD_distance", "RD_time", "OC", "SC", "IG", "TE", "RP")}
    scores["grounding"] = metric("grounding", None, flags=[], checked=3)
    scores["pass_rate"] = metric("pass_rate", 1.0)
    return scores | overrides


def failing_scores(**overrides) -> dict:
    return passing_scores(pass_rate=metric("pass_rate", 0.0), **overrides)


def run_with_results(
    release: Release,
    *,
    name: str,
    results: list[tuple[bool | None, dict]] | None = None,
    agent: str = "litellm",
    status: str = EvaluationRun.COMPLETED,
    verified: bool = True,
    purpose: str = EvaluationRun.EVALUATION,
    endpoint=None,
    created_by=None,
    tokens: tuple[int, int] = (0, 0),
    steps: list[dict] | None = None,
    ended: str = "submitted",
    aggregate: bool = True,
    limit: int | None = None,
    model_name: str | None = None,
    description: str = "A test run written by tests/factories.py.",
) -> EvaluationRun:
    """A run with one DONE trajectory per release entry, in position order.

    ``model_name``: what a listing needs for a run without an endpoint (default: the run's name); ``description``
    too (runs.listing.listing_problems): give "" to make a run the leaderboard does not list.

    ``results``: (passed, scores) per entry (cycled when shorter); default: every case passes.
    ``steps``: the tool calls of every trajectory, as Step fields. ``limit``: only the first cases.
    """
    run = EvaluationRun.objects.create(
        name=name,
        agent=agent,
        release=release,
        status=status,
        verified=verified,
        purpose=purpose,
        endpoint=endpoint,
        created_by=created_by,
        finished_at=timezone.now() if status == EvaluationRun.COMPLETED else None,
        model_name=(name if endpoint is None else "") if model_name is None else model_name,
        description=description,
    )
    results = results or [(True, passing_scores())]
    entries = list(release.entries.order_by("position"))[:limit]
    trajectories = Trajectory.objects.bulk_create(
        [
            Trajectory(
                run=run,
                entry=entry,
                status=Trajectory.DONE,
                ended=ended,
                passed=results[i % len(results)][0],
                scores=results[i % len(results)][1],
                input_tokens=tokens[0],
                output_tokens=tokens[1],
                final_answer={"answer": "x"},
            )
            for i, entry in enumerate(entries)
        ]
    )
    Step.objects.bulk_create(
        [Step(trajectory=t, index=i, **step) for t in trajectories for i, step in enumerate(steps or [])]
    )
    if aggregate and status == EvaluationRun.COMPLETED:
        run.aggregates = run_aggregates(run=run)
        run.save(update_fields=["aggregates"])
    return run


# ------------------------------------------------------------------ runs with several trials per case


def run_with_trials(
    release: Release, *, name: str, trials: int, passed: Callable[[int, int], bool] = lambda position, trial: True
) -> EvaluationRun:
    """A completed run with ``trials`` DONE trajectories per release entry and its aggregates.

    ``passed(position, trial)``: the verdict of each trajectory (default: every one passes).
    """
    run = EvaluationRun.objects.create(
        name=name,
        agent="reference",
        release=release,
        status=EvaluationRun.COMPLETED,
        verified=True,
        finished_at=timezone.now(),
        config={"trials": trials, "seed": 0},
        description="The reference agent, several trials: tests/factories.py.",
    )
    Trajectory.objects.bulk_create(
        [
            Trajectory(
                run=run,
                entry=entry,
                trial=trial,
                status=Trajectory.DONE,
                ended="submitted",
                passed=passed(entry.position, trial),
                scores=passing_scores() if passed(entry.position, trial) else failing_scores(),
                final_answer={"answer": "x"},
            )
            for entry in release.entries.order_by("position")
            for trial in range(trials)
        ]
    )
    run.aggregates = run_aggregates(run=run)
    run.save(update_fields=["aggregates"])
    return run


# ------------------------------------------------------------------ a world for the API and submission tests

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
