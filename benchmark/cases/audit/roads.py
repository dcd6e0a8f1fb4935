"""Shortest paths for the verifier: its own graphs and path measures over the city's road data.

It reads the per-vehicle edge lists and the place-to-road snaps of the environment's road
network (the data), but none of its path code: the graph is assembled here from the raw edge
list (parallel edges collapsed to the lightest, never summed), searched without the tool's
caches, and the other quantity of a route is measured here along the chosen path, so a fault
in the routing tool's graph handling shows up as a disagreement. Costs follow the routing
tool's definitions: a route is optimised for time or distance (walking and cycling move at
a constant speed, so both follow the shortest path), and the connectors between a place and
its road node count at least 1 m, at walking speed for drivers.

The shortest paths themselves are scipy's Dijkstra on the graph assembled here.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from environment.routing.network import CONNECTOR_SPEED_MPS, MIN_CONNECTOR_M

_CONSTANT_SPEED = ("walking", "cycling")
CACHE_SIZE = 256


class _Graph:
    """One vehicle's graph for one weight, assembled here from the raw edge list: parallel edges
    collapse to the lightest (so nothing is summed), each kept edge remembers its length and time."""

    def __init__(self, edges, n: int, weight: str, reverse: bool):
        src, dst = (edges.dst, edges.src) if reverse else (edges.src, edges.dst)
        w = edges.length if weight == "distance" else edges.time
        order = np.lexsort((w, dst, src))
        src, dst = src[order], dst[order]
        keep = np.ones(len(src), dtype=bool)
        keep[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
        self.src, self.dst = src[keep], dst[keep]
        self.length, self.time = edges.length[order][keep], edges.time[order][keep]
        weights = (self.length if weight == "distance" else self.time).copy()
        weights[weights == 0] = 1e-9  # a zero-length edge stays an edge in sparse form
        self.csr = sp.csr_matrix((weights, (self.src, self.dst)), shape=(n, n))
        self.keys = self.src.astype(np.int64) * n + self.dst
        self.n = n

    def search(self, node: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        cost, pred = dijkstra(self.csr, directed=True, indices=node, return_predecessors=True)
        # Length and time along each shortest path: sum the tree edges to the root by pointer jumping.
        parent = pred.astype(np.int64)
        has = parent >= 0
        edge = np.searchsorted(self.keys, np.where(has, parent, 0) * self.n + np.arange(self.n))
        edge = np.minimum(edge, len(self.keys) - 1)
        dist = np.where(has, self.length[edge], 0.0)
        secs = np.where(has, self.time[edge], 0.0)
        while has.any():
            up = np.where(has, parent, 0)
            dist = dist + np.where(has, dist[up], 0.0)
            secs = secs + np.where(has, secs[up], 0.0)
            parent = np.where(has, parent[up], -1)
            has = parent >= 0
        unreachable = ~np.isfinite(cost)
        dist[unreachable] = secs[unreachable] = np.inf
        return cost, dist, secs


class Roads:
    def __init__(self, network):
        self.network = network
        self._graphs: dict[tuple[str, str, bool], _Graph] = {}
        self._cache: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def weight_of(self, vehicle: str, mode: str) -> str:
        return "distance" if mode == "distance" or vehicle in _CONSTANT_SPEED else "time"

    def search(self, vehicle: str, mode: str, node: int, reverse: bool = False):
        """(cost, distance, time) arrays from ``node`` to every node (or to ``node`` when reverse),
        optimising the weight the routing tool optimises for ``mode``."""
        weight = self.weight_of(vehicle, mode)
        key = (vehicle, weight, node, reverse)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
            graph = self._graphs.get((vehicle, weight, reverse))
            if graph is None:
                vg = self.network.graphs[vehicle]
                graph = self._graphs[(vehicle, weight, reverse)] = _Graph(vg.edges, vg.node_count, weight, reverse)
        result = graph.search(node)
        with self._lock:
            self._cache[key] = result
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return result

    # -- places ----------------------------------------------------------------------------
    def snap(self, place_id: str, vehicle: str) -> tuple[int, float]:
        """(node index, connector metres) where the place joins the vehicle's graph."""
        snap = self.network.snap(place_id, vehicle)
        ids = self.network.graphs[vehicle].node_ids
        index = int(np.searchsorted(ids, snap.node_id))
        return index, max(snap.offset_m, MIN_CONNECTOR_M)

    def _connector(self, metres: float, vehicle: str, mode: str) -> tuple[float, float, float]:
        seconds = metres / CONNECTOR_SPEED_MPS[vehicle]
        return (metres if self.weight_of(vehicle, mode) == "distance" else seconds), metres, seconds

    def leg(self, a: str, b: str, vehicle: str, mode: str) -> tuple[float, float]:
        """(distance_m, time_s) of the route from place a to place b."""
        if a == b:
            return 0.0, 0.0
        (na, ca), (nb, cb) = self.snap(a, vehicle), self.snap(b, vehicle)
        _, dist, secs = self.search(vehicle, mode, na)
        if not math.isfinite(dist[nb]):
            raise LookupError(f"no {vehicle} route from {a} to {b}")
        extra_m = ca + cb
        extra_s = extra_m / CONNECTOR_SPEED_MPS[vehicle]
        return dist[nb] + extra_m, secs[nb] + extra_s

    def legs_from(self, a: str, targets: list[str], vehicle: str, mode: str, *, reverse: bool = False) -> dict:
        """{target: (distance_m, time_s)} of every route a -> target (or target -> a when reverse),
        from one search."""
        na, ca = self.snap(a, vehicle)
        _, dist, secs = self.search(vehicle, mode, na, reverse=reverse)
        out = {}
        for target in targets:
            if target == a:
                continue
            nt, ct = self.snap(target, vehicle)
            if math.isfinite(dist[nt]):
                extra = ca + ct
                out[target] = (dist[nt] + extra, secs[nt] + extra / CONNECTOR_SPEED_MPS[vehicle])
        return out


def cost_of(totals: tuple[float, float], mode: str) -> float:
    """The optimised quantity of (distance_m, time_s)."""
    return totals[0] if mode == "distance" else totals[1]
