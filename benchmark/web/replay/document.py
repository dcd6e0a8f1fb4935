"""The replay of one trajectory: everything its page and its replay.json show (read-only).

One document per trajectory (``replay_payload``): each tool call with its map features, its
observation as a table and the notes it retrieved; the agent's final answer drawn on the map
(numbered stops, each leg routed with the answer's vehicle and mode) with its 'fetched before
cited' flags; the case's reference answer drawn the same way; the metric values with their
explanations. Who sees what follows ``benchmark.board.visibility``: on a hidden release a
non-curator (the run's owner included) gets the verdict, the metric values and, per step, only
the tool, error kind, latency and tokens; no reference, no final answer, no arguments,
observations, notes or model text, no map and no explanation (``_withheld``).

Queries per trajectory are bounded (no query per step): the trajectory, its steps, the run's
visibility, the viewer's permissions, the city, the places it mentions, and one query for
every route buffer together.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.db import connection

from benchmark.board.visibility import can_see_answers, per_case_visible, run_visible, scores_shown, step_shown
from benchmark.runs.models import Trajectory
from benchmark.web.process_caveat import NOTE_TOOLS, notes_caveat, trivially_high
from benchmark.web.replay.steps import Places, line, mentioned_place_ids, parsed, point, route_center, step_features
from benchmark.web.replay.summary import failure_summary
from benchmark.web.replay.tables import observation_table, retrieved_notes
from environment.selectors import place_points
from environment.tools.context import CityNotBuilt
from judging.answers import PredictedAnswer, normalise_answer
from judging.grounding import fetched_before_cited
from judging.types import Step as JudgingStep
from judging.types import Trajectory as JudgingTrajectory

METRICS = (
    ("pass_rate", "Pass (PR@0.9)"),
    ("A", "Attribute accuracy"),
    ("PIoU", "Place-set IoU"),
    ("RD_distance", "Routing deviation, distance"),
    ("RD_time", "Routing deviation, time"),
    ("OC", "Order consistency"),
    ("SC", "Semantic constraint"),
    ("IG", "Information grounding"),
    ("TE", "Tool efficiency"),
    ("RP", "Reasoning purity"),
    ("tokens", "Tokens"),
    ("grounding", "Fetched before cited"),
)
HIDDEN_EXPLANATION = "Hidden: this release keeps its answers, and what would reveal them, for curators."
WITHHELD_STEP = "Withheld: on a hidden release what the agent sent and saw is for curators."
VEHICLES, MODES = ("walking", "cycling", "driving"), ("time", "distance")


def trajectory_get(*, pk: int, user) -> Trajectory | None:
    """The trajectory ``pk`` with its run, release and case, when ``user`` may see its run and its per-case result
    (``per_case_visible``: not a hidden release's, unless a curator or staff); else None."""
    trajectory = Trajectory.objects.select_related("run__release", "entry").filter(pk=pk).first()
    if trajectory is None or not run_visible(user=user, run=trajectory.run):
        return None
    if not per_case_visible(user=user, release=trajectory.run.release):
        return None
    return trajectory


def replay_payload(*, trajectory: Trajectory, user) -> dict:
    """The replay document of ``trajectory`` as ``user`` may see it (see the module docstring).

    Args:
        trajectory: a trajectory from ``trajectory_get`` (run, release and entry loaded).
        user: the viewer; decides whether the answers, what the agent saw and the reference are included.
    """
    run, release, snapshot = trajectory.run, trajectory.run.release, trajectory.entry.snapshot
    show = can_see_answers(user=user, release=release)
    steps = list(trajectory.steps.order_by("index"))
    world = _world(release.city_name)
    head = {
        "trajectory": _trajectory_head(trajectory, show=show),
        "run": {"id": run.id, "name": run.name, "agent": run.agent, "purpose": run.purpose, "verified": run.verified},
        "release": {"name": release.name, "split": release.split},
        "case": {k: snapshot.get(k, "") for k in ("case_id", "type", "category", "level", "question")},
        "answers_visible": show,
        "city": {
            "name": release.city_name,
            "built": world is not None,
            "same_version": world is not None and world.context.city_version == release.city_version,
        },
    }
    body = _shown(trajectory, steps, snapshot, world) if show else _withheld(trajectory, steps, snapshot)
    caveat = notes_caveat(calls=len(steps), note_calls=sum(1 for s in steps if s.tool in NOTE_TOOLS))
    for metric in body["metrics"]:
        metric["trivial"] = trivially_high(metric["name"], metric["value"], caveat=caveat)
    return {**head, **body, "process_caveat": caveat if any(m["trivial"] for m in body["metrics"]) else ""}


def _shown(trajectory: Trajectory, steps: list, snapshot: dict, world) -> dict:
    """Everything: steps with their features, tables and notes, the answer, the reference, explanations."""
    observations = [parsed(s.observation) for s in steps]
    answer = _normalise(trajectory.final_answer, world)
    reference = _normalise(snapshot.get("answer"), world)
    ids = {pid for s, o in zip(steps, observations) for pid in mentioned_place_ids([s.arguments, o])}
    ids |= set(answer.place_ids) | set(reference.place_ids)
    places = _places(world, ids)
    flags = _flags(trajectory, answer, steps, observations)
    required = set(snapshot.get("required_evidence", {}).get("note_ids") or [])
    drawn_answer = _drawn_answer(answer, places, world, {f["value"] for f in flags if f["kind"] == "place_id"})
    return {
        "steps": _steps(steps, observations, places, world, required, drawn_answer),
        "answer": {
            "submitted": answer.submitted,
            "raw": trajectory.final_answer,
            "text": _pretty(trajectory.final_answer),
            "flags": flags,
            "problems": list(answer.problems),
            "withheld": False,
            **drawn_answer,
        },
        "reference": _reference(snapshot.get("answer"), reference, places, world),
        "failure": failure_summary(
            trajectory=trajectory,
            category=snapshot.get("category", ""),
            steps=steps,
            observations=observations,
            answer=answer,
            reference=reference,
            places=places,
        ),
        "metrics": _metrics(trajectory.scores or {}, show=True, places=places),
        "missing_place_ids": sorted(ids - set(places.points)),
    }


def _withheld(trajectory: Trajectory, steps: list, snapshot: dict) -> dict:
    """A hidden release for a non-curator: how each step went, the verdict and metric values, nothing else."""
    shown = [
        step_shown(
            {
                "index": s.index,
                "tool": s.tool,
                "arguments": s.arguments,
                "error_kind": s.error_kind,
                "latency_ms": round(s.latency_ms, 1),
                "model_text": s.model_text,
                "input_tokens": s.input_tokens,
                "output_tokens": s.output_tokens,
            },
            full=False,
        )
        for s in steps
    ]
    withheld = {"summary": [WITHHELD_STEP], "columns": [], "rows": []}
    return {
        "steps": [
            {
                **step,
                "position": position,
                "number": position + 1,
                "arguments_text": "",
                "table": withheld,
                "notes": [],
                "features": [],
                "withheld": True,
            }
            for position, step in enumerate(shown)
        ],
        "answer": {
            "submitted": trajectory.final_answer is not None,
            "raw": None,
            "text": "",
            "flags": [],
            "problems": [],
            "withheld": True,
            **_drawn_answer(None, Places(), None, set()),
        },
        "reference": None,
        "failure": failure_summary(trajectory=trajectory, category=snapshot.get("category", ""), steps=steps),
        "metrics": _metrics(scores_shown(trajectory.scores or {}, full=False), show=False),
        "missing_place_ids": [],
    }


def replay_map_data(*, payload: dict, key: str = "A", label: str = "") -> dict:
    """The part of a payload the page's script draws: one track (its steps' features and the answer)."""
    return {
        "key": key,
        "label": label or payload["run"]["name"],
        "trajectory": payload["trajectory"]["id"],
        "steps": [{"tool": s["tool"], "features": s["features"]} for s in payload["steps"]],
        "answer": payload["answer"]["features"],
    }


# ------------------------------------------------------------------ pieces


def _trajectory_head(t: Trajectory, *, show: bool) -> dict:
    return {
        "id": t.id,
        "status": t.status,
        "ended": t.ended,
        "passed": t.passed,
        "trial": t.trial,
        "error": t.error if show else None,  # visibility.TRAJECTORY_PRIVATE_FIELDS
        "input_tokens": t.input_tokens,
        "output_tokens": t.output_tokens,
        "started_at": t.started_at.isoformat() if t.started_at else None,
        "finished_at": t.finished_at.isoformat() if t.finished_at else None,
    }


def _reference(raw: Any, reference: PredictedAnswer | None, places: Places, world) -> dict | None:
    if reference is None:
        return None
    return {"raw": raw, "text": _pretty(raw), **_drawn_answer(reference, places, world, set())}


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


def _world(city_name: str):
    from benchmark.runs.scoring.world import city_world

    try:
        return city_world(city_name)
    except CityNotBuilt:
        return None


def _normalise(answer: Any, world) -> PredictedAnswer:
    return normalise_answer(answer, resolve_name=world.resolve_name if world else None)


def _places(world, ids: set[str]) -> Places:
    if world is None or not ids:
        return Places()
    return Places(place_points(city_name=world.context.city_name, place_ids=ids))


def _flags(trajectory: Trajectory, answer: PredictedAnswer, steps, observations) -> list[dict]:
    """The 'fetched before cited' flags scoring stored, or the same check run now (unscored rows)."""
    stored = (trajectory.scores or {}).get("grounding", {}).get("details", {}).get("flags")
    if isinstance(stored, list):
        return stored
    if not answer.submitted:
        return []
    judged = JudgingTrajectory(
        steps=[
            JudgingStep(index=s.index, tool=s.tool, arguments=s.arguments, observation=o)
            for s, o in zip(steps, observations)
        ]
    )
    return fetched_before_cited(answer, judged)[0]


def _route(world, start: str, end: str, vehicle: str, mode: str):
    from environment.routing import RoutingError

    try:
        return world.context.network.route(start, end, vehicle=vehicle, mode=mode)
    except (RoutingError, ValueError):
        return None


def _drawn_answer(answer: PredictedAnswer | None, places: Places, world, flagged: set[str]) -> dict:
    """Numbered stops (visit order first) and the legs between them, routed as the answer says."""
    if answer is None:
        return {"stops": [], "features": [], "vehicle": "", "mode": ""}
    vehicle = answer.vehicle if answer.vehicle in VEHICLES else "driving"
    mode = answer.mode if answer.mode in MODES else "time"
    order = list(dict.fromkeys([*answer.visit_order, *answer.place_ids]))
    stops, features = [], []
    for number, pid in enumerate(order, 1):
        p = places.get(pid)
        stops.append(
            {
                "number": number,
                "place_id": pid,
                "name": p.name if p else "",
                "on_map": p is not None,
                "flagged": pid in flagged,
            }
        )
        if p:
            features.append(point(p, "stop", number=number, flagged=pid in flagged))
    for leg, (a, b) in enumerate(zip(answer.visit_order, answer.visit_order[1:]), 1):
        route = _route(world, a, b, vehicle, mode) if world and a in places.points and b in places.points else None
        if route:
            features.append(
                line(
                    route.geometry,
                    "leg",
                    leg=leg,
                    **_leg_ends(places, a, b),
                    total_distance_m=route.total_distance_m,
                    total_time_s=route.total_time_s,
                )
            )
    return {"stops": stops, "features": features, "vehicle": vehicle, "mode": mode}


def _leg_ends(places: Places, start: str, end: str) -> dict:
    """The places a leg joins, by id and name, so the map can name the leg."""
    a, b = places.points[start], places.points[end]
    return {"from": start, "to": end, "from_name": a.name, "to_name": b.name}


def _steps(steps, observations, places: Places, world, required, drawn_answer: dict) -> list[dict]:
    extras = _route_center_extras(steps, observations, world)
    out = []
    for position, (step, observation) in enumerate(zip(steps, observations)):
        features = step_features(step.tool, step.arguments, observation, places, extras.get(position))
        if step.tool == "submit_answer" and position == len(steps) - 1:
            features = drawn_answer["features"]
        elif step.tool == "submit_answer" and isinstance(observation, dict) and "result" in observation:
            features = _drawn_answer(_normalise(observation["result"], world), places, world, set())["features"]
        out.append(
            {
                "position": position,
                "index": step.index,
                "number": position + 1,
                "tool": step.tool,
                "arguments": step.arguments,
                "arguments_text": json.dumps(step.arguments, ensure_ascii=False, indent=1),
                "error_kind": step.error_kind,
                "latency_ms": round(step.latency_ms, 1),
                "model_text": step.model_text,
                "input_tokens": step.input_tokens,
                "output_tokens": step.output_tokens,
                "table": observation_table(step.tool, observation),
                "notes": retrieved_notes(step.tool, observation, required),
                "features": features,
                "withheld": False,
            }
        )
    return out


def _route_center_extras(steps, observations, world) -> dict[int, dict]:
    """For each nearby_search along a route: the route line, and its buffer (one query for all)."""
    wanted = {}
    for position, (step, observation) in enumerate(zip(steps, observations)):
        center = route_center(step.arguments) if step.tool == "nearby_search" else None
        radius = observation.get("radius_meters") if isinstance(observation, dict) else None
        if center and world and isinstance(radius, int | float) and "error" not in observation:
            route = _route(world, center["start"], center["end"], center["vehicle"], "time")
            if route:
                wanted[position] = (route.geometry, float(radius))
    if not wanted:
        return {}
    buffers = _buffers([w for w in wanted.values()])
    return {
        position: {"route": geometry, "buffer": buffer}
        for (position, (geometry, _)), buffer in zip(wanted.items(), buffers)
    }


def _buffers(lines: list[tuple[dict, float]]) -> list[dict]:
    """Buffers in metres around route lines (PostGIS geography), as GeoJSON polygons."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT ST_AsGeoJSON(ST_Buffer(ST_GeomFromGeoJSON(g)::geography, r, 'quad_segs=4')::geometry, 6) "
            "FROM unnest(%s::text[], %s::float8[]) WITH ORDINALITY AS u(g, r, n) ORDER BY n",
            [[json.dumps(g) for g, _ in lines], [r for _, r in lines]],
        )
        return [json.loads(row[0]) for row in cursor.fetchall()]


def _with_names(text: str, places: Places) -> str:
    """``text`` with each place_id of the trajectory's places written as "Name (place_id)"."""
    if not places.points:
        return text
    pattern = r"\b(" + "|".join(re.escape(pid) for pid in sorted(places.points, key=len, reverse=True)) + r")\b"
    return re.sub(pattern, lambda m: f"{places.points[m.group(1)].name} ({m.group(1)})", text)


def _metrics(scores: dict, *, show: bool, places: Places | None = None) -> list[dict]:
    places = places or Places()
    out = []
    for name, label in METRICS:
        result = scores.get(name)
        if not isinstance(result, dict):
            continue
        out.append(
            {
                "name": name,
                "label": label,
                "value": result.get("value"),
                "source": result.get("source", ""),
                "applicable": result.get("applicable", result.get("value") is not None),
                "explanation": _with_names(str(result.get("explanation", "")), places) if show else HIDDEN_EXPLANATION,
                "hidden": not show,
            }
        )
    return out
