"""The routing facade: places snapped onto per-vehicle graphs, routes, legs and matrices."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np

from environment.records import RoadRecord
from environment.routing.geo import LocalProjection, bearing_deg
from environment.routing.graph import CYCLE_SPEED_MPS, WALK_SPEED_MPS, VehicleGraph
from environment.routing.steps import Segment, build_steps, road_label

VEHICLES = ("walking", "cycling", "driving")
MODES = ("time", "distance")
# Speed on the straight place-to-road connectors; a driver parks at the road and walks.
CONNECTOR_SPEED_MPS = {"walking": WALK_SPEED_MPS, "cycling": CYCLE_SPEED_MPS, "driving": WALK_SPEED_MPS}
MIN_CONNECTOR_M = 1.0  # so that two places on one node never get a zero-length route
_CONSTANT_SPEED = ("walking", "cycling")  # time is proportional to distance on every edge


class RoutingError(Exception):
    """Base class of routing failures."""


class UnknownPlace(RoutingError, LookupError):
    """The place id is not part of the network."""

    def __init__(self, place_id: str) -> None:
        super().__init__(f"unknown place id {place_id!r}")
        self.place_id = place_id


class NoRoute(RoutingError):
    """No path joins the two places for this vehicle (and avoided ways)."""


@dataclass(frozen=True)
class Snap:
    """Where a place joins one vehicle's graph."""

    node_id: int  # OSM node id (in the vehicle's largest strongly connected component)
    offset_m: float  # straight-line distance place -> node
    connector_m: float  # offset_m, at least MIN_CONNECTOR_M; what a route counts


@dataclass(frozen=True)
class Leg:
    """The totals of one routed pair, exactly as :meth:`RoadNetwork.route` reports them."""

    distance_m: float
    time_s: float


@dataclass(frozen=True)
class Route:
    total_distance_m: float
    total_time_s: float
    geometry: dict = field(hash=False)
    steps: list = field(hash=False)

    def to_dict(self) -> dict:
        return {
            "total_distance_m": self.total_distance_m,
            "total_time_s": self.total_time_s,
            "geometry": self.geometry,
            "steps": self.steps,
        }


@dataclass(frozen=True)
class _Solved:
    vehicle: str
    start: str
    end: str
    nodes: list
    edges: np.ndarray
    leg: Leg


class RoadNetwork:
    """Per-vehicle road graphs of one city plus the places snapped onto them."""

    def __init__(self, roads: Sequence[RoadRecord], places: Sequence[tuple[str, float, float]]):
        self._roads = list(roads)
        self._road_gids = np.array([r.gid for r in self._roads], dtype=np.int64)
        self._labels = [road_label(r.name, r.highway) for r in self._roads]
        self._places: dict[str, tuple[float, float]] = {}
        for place_id, lon, lat in places:
            if place_id in self._places:
                raise ValueError(f"duplicate place id {place_id!r}")
            self._places[place_id] = (float(lon), float(lat))
        self.place_ids = tuple(self._places)
        all_lon = [c[0] for r in self._roads for c in r.coords] or [p[0] for p in self._places.values()] or [0.0]
        all_lat = [c[1] for r in self._roads for c in r.coords] or [p[1] for p in self._places.values()] or [0.0]
        projection = LocalProjection(math.fsum(all_lon) / len(all_lon), math.fsum(all_lat) / len(all_lat))
        self.graphs = {v: VehicleGraph(self._roads, v, projection) for v in VEHICLES}
        self._snaps = {v: self._snap_all(self.graphs[v]) for v in VEHICLES}

    @classmethod
    def build(cls, roads: Sequence[RoadRecord], places: Sequence[tuple[str, float, float]]) -> RoadNetwork:
        """Build every vehicle graph and snap every place (a few hundred ms for a city centre)."""
        return cls(roads, places)

    def _snap_all(self, graph: VehicleGraph) -> dict[str, tuple[int, float]]:
        if not self._places or not graph.in_largest.any():
            return {}
        lons = [p[0] for p in self._places.values()]
        lats = [p[1] for p in self._places.values()]
        nodes, offsets = graph.snap(lons, lats)
        return {pid: (int(n), float(o)) for pid, n, o in zip(self._places, nodes, offsets)}

    # -- queries -----------------------------------------------------------------------

    def snap(self, place_id: str, vehicle: str = "walking") -> Snap:
        """Where ``place_id`` joins the ``vehicle`` graph."""
        _check(vehicle, "time")
        node, offset = self._snap_of(place_id, vehicle)
        return Snap(int(self.graphs[vehicle].node_ids[node]), offset, max(offset, MIN_CONNECTOR_M))

    def stats(self) -> dict[str, dict]:
        """Graph sizes per vehicle: nodes, collapsed directed edges, largest SCC size."""
        out = {}
        for vehicle, graph in self.graphs.items():
            out[vehicle] = {
                "nodes": graph.node_count,
                "edges": graph.variant("distance", ()).edge_count,
                "largest_scc_nodes": int(graph.in_largest.sum()),
            }
        return out

    def route(
        self, start_place_id: str, end_place_id: str, *, vehicle: str, mode: str, avoid_way_ids: Collection[int] = ()
    ) -> Route:
        """The optimal route for ``mode`` ("time" or "distance") with geometry and steps."""
        solved = self._solve(start_place_id, end_place_id, vehicle, mode, avoid_way_ids)
        return Route(solved.leg.distance_m, solved.leg.time_s, self._geometry(solved), self._steps(solved))

    def leg(
        self, start_place_id: str, end_place_id: str, *, vehicle: str, mode: str, avoid_way_ids: Collection[int] = ()
    ) -> Leg:
        """The totals of :meth:`route` without building geometry or steps."""
        return self._solve(start_place_id, end_place_id, vehicle, mode, avoid_way_ids).leg

    def leg_matrix(
        self, place_ids: Sequence[str], *, vehicle: str, mode: str, avoid_way_ids: Collection[int] = ()
    ) -> dict[tuple[str, str], Leg]:
        """Totals for every ordered pair of distinct ``place_ids`` (one batched Dijkstra run).

        Raises NoRoute if any pair is unreachable.
        """
        _check(vehicle, mode)
        ids = list(dict.fromkeys(place_ids))
        snaps = [self._snap_of(p, vehicle) for p in ids]
        graph = self._weighted(vehicle, mode, avoid_way_ids)
        graph.shortest_from(sorted({node for node, _ in snaps}))
        return {
            (a, b): self.leg(a, b, vehicle=vehicle, mode=mode, avoid_way_ids=avoid_way_ids)
            for a in ids
            for b in ids
            if a != b
        }

    # -- internals -----------------------------------------------------------------------

    def _snap_of(self, place_id: str, vehicle: str) -> tuple[int, float]:
        if place_id not in self._places:
            raise UnknownPlace(place_id)
        snap = self._snaps[vehicle].get(place_id)
        if snap is None:
            raise NoRoute(f"no {vehicle} road network to attach place {place_id!r} to")
        return snap

    def _avoid_key(self, avoid_way_ids: Collection[int]) -> tuple[int, ...]:
        if not avoid_way_ids:
            return ()
        hit = np.isin(self._road_gids, np.asarray(sorted({int(w) for w in avoid_way_ids}), dtype=np.int64))
        return tuple(np.nonzero(hit)[0].tolist())

    def _weighted(self, vehicle: str, mode: str, avoid_way_ids: Collection[int]):
        weight = "distance" if (mode == "distance" or vehicle in _CONSTANT_SPEED) else "time"
        return self.graphs[vehicle].variant(weight, self._avoid_key(avoid_way_ids))

    def _solve(self, start: str, end: str, vehicle: str, mode: str, avoid_way_ids) -> _Solved:
        _check(vehicle, mode)
        if start == end:
            if start not in self._places:
                raise UnknownPlace(start)
            return _Solved(vehicle, start, end, [], np.zeros(0, dtype=np.int64), Leg(0.0, 0.0))
        (a_node, a_off), (b_node, b_off) = self._snap_of(start, vehicle), self._snap_of(end, vehicle)
        found = self._weighted(vehicle, mode, avoid_way_ids).path(a_node, b_node)
        if found is None:
            avoided = f" while avoiding ways {sorted(set(avoid_way_ids))}" if avoid_way_ids else ""
            raise NoRoute(f"no {vehicle} route from {start!r} to {end!r}{avoided}")
        nodes, edges = found
        connectors = [max(a_off, MIN_CONNECTOR_M), max(b_off, MIN_CONNECTOR_M)]
        speed = CONNECTOR_SPEED_MPS[vehicle]
        arrays = self.graphs[vehicle].edges
        distance = math.fsum(arrays.length[edges].tolist() + connectors)
        time = math.fsum(arrays.time[edges].tolist() + [c / speed for c in connectors])
        return _Solved(vehicle, start, end, nodes, edges, Leg(round(distance, 1), round(time, 1)))

    def _geometry(self, solved: _Solved) -> dict:
        graph = self.graphs[solved.vehicle]
        coords = [list(self._places[solved.start])]
        coords += [[float(graph.lon[n]), float(graph.lat[n])] for n in solved.nodes]
        coords.append(list(self._places[solved.end]))
        return {"type": "LineString", "coordinates": coords}

    def _steps(self, solved: _Solved) -> list[dict]:
        if solved.start == solved.end:
            return []
        graph = self.graphs[solved.vehicle]
        arrays = graph.edges
        segments = []
        for e in solved.edges.tolist():
            u, v, road = int(arrays.src[e]), int(arrays.dst[e]), int(arrays.road[e])
            bearing = bearing_deg(graph.lon[u], graph.lat[u], graph.lon[v], graph.lat[v])
            segments.append(
                Segment(
                    self._labels[road],
                    int(self._road_gids[road]),
                    float(arrays.length[e]),
                    float(arrays.time[e]),
                    bearing,
                )
            )
        speed = CONNECTOR_SPEED_MPS[solved.vehicle]
        a_off = max(self._snaps[solved.vehicle][solved.start][1], MIN_CONNECTOR_M)
        b_off = max(self._snaps[solved.vehicle][solved.end][1], MIN_CONNECTOR_M)
        (alon, alat), (blon, blat) = self._places[solved.start], self._places[solved.end]
        return build_steps(
            segments, (a_off, a_off / speed), (b_off, b_off / speed), bearing_deg(alon, alat, blon, blat)
        )


def _check(vehicle: str, mode: str) -> None:
    if vehicle not in VEHICLES:
        raise ValueError(f"vehicle must be one of {VEHICLES}, got {vehicle!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
