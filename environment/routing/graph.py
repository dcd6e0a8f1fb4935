"""One directed road graph per vehicle, its weighted CSR variants and cached Dijkstra runs."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, dijkstra
from scipy.spatial import cKDTree

from environment.records import RoadRecord
from environment.routing.geo import LocalProjection, haversine_m_array

WALK_SPEED_MPS = 1.4
CYCLE_SPEED_MPS = 4.2
VARIANT_CACHE_SIZE = 8  # weighted graphs (weight x avoid-set) kept per vehicle
SOURCE_CACHE_SIZE = 128  # single-source Dijkstra results kept per weighted graph


class LRU:
    """A small thread-safe least-recently-used mapping."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)


@dataclass(frozen=True)
class EdgeArrays:
    """Every directed edge of one vehicle (parallel edges not yet collapsed), index-aligned."""

    src: np.ndarray  # node index
    dst: np.ndarray  # node index
    length: np.ndarray  # metres
    time: np.ndarray  # seconds
    road: np.ndarray  # index into the network's road list

    def weight(self, name: str) -> np.ndarray:
        return self.length if name == "distance" else self.time


def _road_directions(road: RoadRecord, vehicle: str) -> tuple[bool, bool, float]:
    """(forward allowed, backward allowed, speed m/s) of one road for one vehicle."""
    if vehicle == "walking":
        return road.walk, road.walk, WALK_SPEED_MPS
    if vehicle == "cycling":
        return road.cycle_forward, road.cycle_backward, CYCLE_SPEED_MPS
    speed = float(road.drive_speed_mps)
    if not speed > 0:  # a drivable way without a usable speed cannot carry a car
        return False, False, 1.0
    return road.drive_forward, road.drive_backward, speed


class VehicleGraph:
    """The directed graph of one vehicle: nodes, edges, largest SCC and place snapping."""

    def __init__(self, roads: Sequence[RoadRecord], vehicle: str, projection: LocalProjection):
        self.vehicle = vehicle
        self._variants = LRU(VARIANT_CACHE_SIZE)
        self._build_edges(roads, vehicle)
        self._find_largest_component()
        self._projection = projection
        # Places snap to surface nodes: a street-level cafe must not start its route in a
        # service tunnel 20 m below it (Helsinki's Kamppi tunnels). Fall back to any node.
        surface = self.in_largest & self.on_surface
        comp = np.nonzero(surface if surface.any() else self.in_largest)[0]
        self._snap_nodes = comp
        xy = projection.project(self.lon[comp], self.lat[comp])
        self._tree = cKDTree(xy) if len(comp) else None

    def _build_edges(self, roads: Sequence[RoadRecord], vehicle: str) -> None:
        src_ids, dst_ids, roads_ix, speeds = [], [], [], []
        coords: dict[int, tuple[float, float]] = {}
        used_nodes: list[int] = []
        surface_nodes: list[int] = []
        for ix, road in enumerate(roads):
            fwd, bwd, speed = _road_directions(road, vehicle)
            if not (fwd or bwd):
                continue
            used_nodes.extend(road.node_ids)
            if not road.tunnel:
                surface_nodes.extend(road.node_ids)
            for node, lonlat in zip(road.node_ids, road.coords):
                coords.setdefault(node, lonlat)
            for u, v in zip(road.node_ids[:-1], road.node_ids[1:]):
                if u == v:
                    continue
                for a, b, ok in ((u, v, fwd), (v, u, bwd)):
                    if ok:
                        src_ids.append(a)
                        dst_ids.append(b)
                        roads_ix.append(ix)
                        speeds.append(speed)
        self.node_ids = np.unique(np.asarray(used_nodes, dtype=np.int64))
        self.on_surface = np.isin(self.node_ids, np.asarray(surface_nodes, dtype=np.int64))
        self.lon = np.array([coords[n][0] for n in self.node_ids.tolist()], dtype=float)
        self.lat = np.array([coords[n][1] for n in self.node_ids.tolist()], dtype=float)
        src = np.searchsorted(self.node_ids, np.asarray(src_ids, dtype=np.int64))
        dst = np.searchsorted(self.node_ids, np.asarray(dst_ids, dtype=np.int64))
        length = haversine_m_array(self.lon[src], self.lat[src], self.lon[dst], self.lat[dst])
        time = length / np.asarray(speeds, dtype=float) if len(speeds) else length.copy()
        self.edges = EdgeArrays(src, dst, length, time, np.asarray(roads_ix, dtype=np.int64))

    def _find_largest_component(self) -> None:
        n = len(self.node_ids)
        self.in_largest = np.zeros(n, dtype=bool)
        if n == 0:
            return
        full = self.variant("distance", ())
        _, labels = connected_components(full.csr, directed=True, connection="strong")
        sizes = np.bincount(labels)
        # Ties between equal-sized components go to the one holding the smallest OSM node id.
        first_node = np.full(len(sizes), n, dtype=np.int64)
        np.minimum.at(first_node, labels, np.arange(n))
        best = min(range(len(sizes)), key=lambda c: (-sizes[c], first_node[c]))
        self.in_largest = labels == best

    @property
    def node_count(self) -> int:
        return len(self.node_ids)

    def snap(self, lons, lats) -> tuple[np.ndarray, np.ndarray]:
        """Nearest largest-component node index and haversine offset (m) for each point."""
        if self._tree is None:
            raise LookupError(f"the {self.vehicle} graph has no nodes")
        _, pos = self._tree.query(self._projection.project(lons, lats), k=1)
        nodes = self._snap_nodes[np.asarray(pos, dtype=np.int64)]
        offsets = haversine_m_array(np.asarray(lons), np.asarray(lats), self.lon[nodes], self.lat[nodes])
        return nodes, offsets

    def variant(self, weight: str, avoid_roads: tuple[int, ...]) -> WeightedGraph:
        """The collapsed CSR graph for one weight without the edges of ``avoid_roads``."""
        key = (weight, avoid_roads)
        found = self._variants.get(key)
        if found is None:
            mask = ~np.isin(self.edges.road, np.asarray(avoid_roads, dtype=np.int64))
            found = WeightedGraph(self.edges, self.edges.weight(weight), mask, self.node_count)
            self._variants.put(key, found)
        return found


class WeightedGraph:
    """A CSR matrix with parallel edges collapsed to their minimum weight, plus a Dijkstra cache.

    scipy sums duplicate (u, v) entries when it builds CSR from COO, so duplicates are removed
    here first: for each (u, v) keep the lightest edge, ties to the lower road index.
    """

    def __init__(self, edges: EdgeArrays, weight: np.ndarray, mask: np.ndarray, n: int):
        idx = np.nonzero(mask)[0]
        order = np.lexsort((idx, edges.road[idx], weight[idx], edges.dst[idx], edges.src[idx]))
        ordered = idx[order]
        keys = edges.src[ordered] * n + edges.dst[ordered]
        first = np.ones(len(keys), dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
        self.edge_index = ordered[first]  # kept edges, sorted by (src, dst)
        self.keys = keys[first]
        self.n = n
        indptr = np.searchsorted(edges.src[self.edge_index], np.arange(n + 1))
        # Built straight from (data, indices, indptr) so zero-length edges stay explicit edges.
        self.csr = sp.csr_matrix(
            (weight[self.edge_index], edges.dst[self.edge_index].astype(np.int32), indptr), shape=(n, n)
        )
        self._sources = LRU(SOURCE_CACHE_SIZE)

    @property
    def edge_count(self) -> int:
        return len(self.edge_index)

    def shortest_from(self, sources: Sequence[int]) -> list[tuple[np.ndarray, np.ndarray]]:
        """(distances, predecessors) from each source node, computing only uncached ones."""
        results = {s: self._sources.get(s) for s in sources}
        missing = sorted({s for s, r in results.items() if r is None})
        if missing:
            dist, pred = dijkstra(self.csr, directed=True, indices=missing, return_predecessors=True)
            for row, s in enumerate(missing):
                results[s] = (dist[row], pred[row])
                self._sources.put(s, results[s])
        return [results[s] for s in sources]

    def path(self, source: int, target: int) -> tuple[list[int], np.ndarray] | None:
        """Node indices and kept edge indices of the shortest path, or None if unreachable."""
        dist, pred = self.shortest_from([source])[0]
        if not np.isfinite(dist[target]):
            return None
        nodes = [target]
        while nodes[-1] != source:
            nodes.append(int(pred[nodes[-1]]))
        nodes.reverse()
        arr = np.asarray(nodes, dtype=np.int64)
        pos = np.searchsorted(self.keys, arr[:-1] * self.n + arr[1:])
        return nodes, self.edge_index[pos]
