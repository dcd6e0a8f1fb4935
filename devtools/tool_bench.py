"""Tool latency benchmark: p50/p95 per tool over varied, seeded calls through the gateway."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from django.db import connection

from environment.selectors import note_titles, place_names
from environment.tools.context import ToolContext
from environment.tools.gateway import call_tool
from kernel.error_kinds import ErrorKind

# p95 targets in ms at Helsinki scale on the 2-core development machine (issue 2, section 6).
TARGETS_MS = {
    "place_search": 5,
    "place_detail": 5,
    "note_detail": 5,
    "nearby_search (place)": 10,
    "nearby_search (route)": 25,
    "routing": 10,
    "search_notes": 25,
    "multi_stop_routing (6 stops)": 50,
}
VEHICLES = ("walking", "cycling", "driving")
TYPES = ("restaurant", "coffee", "shop", "bar", "hotel", "museum", "pub", "office", "fast food")
TAG_WORDS = ("wifi", "vegan", "outdoor", "wheelchair", "sofa", "terrace", "dog", "board games", "pizza")
MAX_PLACES = 5000  # the sample of ids kept in memory to draw arguments from


@dataclass
class BenchRow:
    label: str
    calls: int
    errors: int
    p50_ms: float
    p95_ms: float
    target_ms: float | None


class ArgumentMaker:
    """Seeded, varied arguments drawn from the city's real ids, names and note titles."""

    def __init__(self, ctx: ToolContext, seed: int):
        self.rng = random.Random(seed)
        places = place_names(city_id=ctx.city_id)[:MAX_PLACES]
        self.place_ids = [pid for pid, _ in places]
        self.names = [name for _, name in places]
        self.by_tile: dict[str, list[str]] = {}
        for pid in self.place_ids:  # tiled cities (build_city --scale) are not connected to each other
            self.by_tile.setdefault(pid.split("N")[0].split("W")[0].split("R")[0], []).append(pid)
        notes = note_titles(city_id=ctx.city_id, limit=max(MAX_PLACES, 2000))
        self.note_ids = [note_id for note_id, _ in notes[:MAX_PLACES]]
        titles = [title for _, title in notes[:2000]]
        words = sorted({w.strip("?!.,:'\"()").lower() for t in titles for w in t.split() if len(w) > 3})
        with connection.cursor() as cursor:  # keep words that are not English stop words
            cursor.execute(
                "SELECT w FROM unnest(%s::text[]) w WHERE numnode(plainto_tsquery('english', w)) > 0 ORDER BY w",
                [words],
            )
            self.words = [row[0] for row in cursor.fetchall()]

    def same_tile(self, k: int) -> list[str]:
        tile = self.rng.choice(sorted(self.by_tile))
        return self.rng.sample(self.by_tile[tile], k)

    def place_search(self) -> dict:
        name = self.rng.choice(self.names)
        args: dict[str, object] = {"query_name": self.rng.choice([name.split()[0], name[:4], ""])}
        if self.rng.random() < 0.5:
            args["place_types"] = [self.rng.choice(TYPES)]
        if self.rng.random() < 0.3:
            args["min_rating"] = self.rng.choice([3.5, 4.0, 4.5])
        if self.rng.random() < 0.3:
            args["geo_tag"] = [self.rng.choice(TAG_WORDS)]
        return args

    def nearby_place(self) -> dict:
        args = {"center": self.rng.choice(self.place_ids), "radius_meters": self.rng.choice([50, 100, 200, 500, 1000])}
        if self.rng.random() < 0.5:
            args["place_types"] = [self.rng.choice(TYPES)]
        return args

    def nearby_route(self) -> dict:
        start, end = self.same_tile(2)
        return {
            "center": {"start": start, "end": end, "vehicle": self.rng.choice(VEHICLES)},
            "radius_meters": self.rng.choice([30, 50, 100, 200]),
        }

    def routing(self) -> dict:
        start, end = self.same_tile(2)
        return {
            "start_place_id": start,
            "end_place_id": end,
            "vehicle": self.rng.choice(VEHICLES),
            "mode": self.rng.choice(["time", "distance"]),
        }

    def search_notes(self) -> dict:
        a, b, c = self.rng.sample(self.words, 3)
        form = self.rng.choice(
            ["{a}", "{a} {b}", "{a} OR {b}", "({a} OR {b}) AND {c}", "{a} NOT {b}", '"{a} {b}"', "{n}"]
        )
        return {"keyword": form.format(a=a, b=b, c=c, n=self.rng.choice(self.names).split()[0])}

    def multi_stop(self) -> dict:
        stops = self.same_tile(6)
        args = {"stop_ids": stops, "vehicle": self.rng.choice(VEHICLES), "mode": self.rng.choice(["time", "distance"])}
        if self.rng.random() < 0.5:
            args.update(start_id=stops[0], end_id=stops[-1])
        return args


def _cases(maker: ArgumentMaker) -> list[tuple[str, str, str, Callable[[], dict]]]:
    return [
        ("place_search", "agent", "place_search", maker.place_search),
        ("place_detail", "agent", "place_detail", lambda: {"place_id": maker.rng.choice(maker.place_ids)}),
        ("note_detail", "agent", "note_detail", lambda: {"note_id": maker.rng.choice(maker.note_ids)}),
        ("nearby_search (place)", "agent", "nearby_search", maker.nearby_place),
        ("nearby_search (route)", "agent", "nearby_search", maker.nearby_route),
        ("routing", "agent", "routing", maker.routing),
        ("search_notes", "agent", "search_notes", maker.search_notes),
        ("multi_stop_routing (6 stops)", "engine", "multi_stop_routing", maker.multi_stop),
    ]


def _percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def bench_tools(
    *, ctx: ToolContext, calls: int = 300, seed: int = 0, warmup: int = 10, outputs: TextIO | None = None
) -> list[BenchRow]:
    """Time ``calls`` varied calls per tool (after ``warmup`` untimed ones) through the gateway.

    With ``outputs``, every call's arguments and observation are written there as JSON lines,
    so two implementations can be compared byte for byte on the same argument sets.
    """
    maker = ArgumentMaker(ctx, seed)
    _ = ctx.network  # build the routing graphs before timing: that is start-up, not a query
    rows = []
    for label, toolset, name, make in _cases(maker):
        timings, errors = [], 0
        for i in range(warmup + calls):
            args = make()
            started = time.perf_counter()
            call = call_tool(toolset, name, args, context=ctx)
            elapsed = (time.perf_counter() - started) * 1000
            if outputs is not None:
                record = {"tool": label, "arguments": args, "observation": call.observation()}
                outputs.write(json.dumps(record, ensure_ascii=False) + "\n")
            if i >= warmup:
                timings.append(elapsed)
                errors += call.error_kind in (ErrorKind.INVALID_PARAMETER, ErrorKind.NOT_FOUND, ErrorKind.OTHER)
        rows.append(
            BenchRow(
                label,
                calls,
                errors,
                round(_percentile(timings, 50), 2),
                round(_percentile(timings, 95), 2),
                TARGETS_MS.get(label),
            )
        )
    return rows


def format_rows(rows: list[BenchRow], city: str) -> str:
    lines = [
        f"Tool latency on city {city!r} (through the gateway, ms)",
        f"{'tool':<30} {'calls':>6} {'errors':>6} {'p50':>8} {'p95':>8} {'target p95':>11}",
    ]
    for r in rows:
        target = f"{r.target_ms:g}" if r.target_ms else "-"
        lines.append(f"{r.label:<30} {r.calls:>6} {r.errors:>6} {r.p50_ms:>8.2f} {r.p95_ms:>8.2f} {target:>11}")
    return "\n".join(lines)
