"""Turn-by-turn steps: consecutive path edges grouped by road name, with turn instructions."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from environment.routing.geo import compass_word

ARRIVE = "Arrive at destination"


@dataclass(frozen=True)
class Segment:
    """One traversed edge: the road it belongs to, its cost, and its travel bearing."""

    road_name: str
    way_id: int
    length_m: float
    time_s: float
    bearing: float


def road_label(name: str, highway: str) -> str:
    """The name a step shows: the OSM name, or "unnamed <highway class>" for unnamed ways."""
    if name:
        return name
    return "unnamed " + (highway or "road").replace("_", " ")


def turn_phrase(before: float, after: float) -> str:
    """Instruction verb for a change of bearing, e.g. "Turn left onto" or "Continue onto"."""
    delta = (after - before + 540.0) % 360.0 - 180.0  # (-180, 180], positive = clockwise
    side = "right" if delta > 0 else "left"
    size = abs(delta)
    if size < 20:
        return "Continue onto"
    if size < 45:
        return f"Turn slight {side} onto"
    if size < 120:
        return f"Turn {side} onto"
    if size < 170:
        return f"Turn sharp {side} onto"
    return "Make a U-turn onto"


def _group(segments: Sequence[Segment]) -> list[list[Segment]]:
    groups: list[list[Segment]] = []
    for seg in segments:
        if groups and groups[-1][0].road_name == seg.road_name:
            groups[-1].append(seg)
        else:
            groups.append([seg])
    return groups


def _bearings(group: Sequence[Segment]) -> tuple[float, float]:
    """Bearing entering and leaving a group, ignoring zero-length edges where possible."""
    moving = [s for s in group if s.length_m > 0] or list(group)
    return moving[0].bearing, moving[-1].bearing


def _step(
    instruction: str,
    road_name: str,
    way_ids: list[int],
    extra: Sequence[Sequence[float]],
    group: Sequence[Segment] = (),
) -> dict:
    lengths = [s.length_m for s in group] + [e[0] for e in extra]
    times = [s.time_s for s in group] + [e[1] for e in extra]
    return {
        "instruction": instruction,
        "road_name": road_name,
        "way_ids": way_ids,
        "distance_m": round(math.fsum(lengths), 1),
        "time_s": round(math.fsum(times), 1),
    }


def build_steps(
    segments: Sequence[Segment],
    start_connector: tuple[float, float],
    end_connector: tuple[float, float],
    direct_bearing: float,
) -> list[dict]:
    """Steps for a path; the place-to-road connectors (metres, seconds) join the first/last step.

    ``direct_bearing`` (start place to end place) orients the single step of a route that
    uses no road edge (both places snapped to the same node).
    """
    groups = _group(segments)
    if not groups:
        both = [start_connector, end_connector]
        head = f"Head {compass_word(direct_bearing)} to destination"
        return [_step(head, "", [], both), _step(ARRIVE, "", [], [])]
    steps = []
    previous_exit = 0.0
    for i, group in enumerate(groups):
        enter, leave = _bearings(group)
        name = group[0].road_name
        if i == 0:
            instruction = f"Head {compass_word(enter)} on {name}"
        else:
            instruction = f"{turn_phrase(previous_exit, enter)} {name}"
        way_ids = list(dict.fromkeys(s.way_id for s in group))
        extra = ([start_connector] if i == 0 else []) + ([end_connector] if i == len(groups) - 1 else [])
        steps.append(_step(instruction, name, way_ids, extra, group))
        previous_exit = leave
    steps.append(_step(ARRIVE, "", [], []))
    return steps
