"""In-process routing on the city's OpenStreetMap roads (pure Python: numpy + scipy).

Route numbers are part of the benchmark (answers and grading compare them), so the rules
below are exact and deterministic: the same roads and places always give the same output,
byte for byte.

Graphs
    One directed graph per vehicle in ``VEHICLES``. Its nodes are the OSM node ids of the
    ways that vehicle may use; each consecutive node pair of a way gives one edge in each
    allowed direction: walking both directions when ``walk``; cycling per
    ``cycle_forward`` / ``cycle_backward``; driving per ``drive_forward`` /
    ``drive_backward`` (ways whose ``drive_speed_mps`` is not positive are not drivable).
    Edge length is the haversine distance between the node coordinates (Earth radius
    6,371,008.8 m). Edge time is length / speed: walking 1.4 m/s, cycling 4.2 m/s, driving
    the way's ``drive_speed_mps``.
    Parallel edges between the same ordered node pair (two ways sharing nodes) are
    collapsed before the CSR matrix is built, separately for each weight: the lightest edge
    wins, ties to the way listed first. The kept edge's way is the one steps name and
    ``avoid_way_ids`` match.

Places
    Each place snaps to the nearest node (equirectangular metres around the network's mean
    coordinate) of the largest strongly connected component of each vehicle's graph, so
    every place reaches every other place when nothing is avoided. A route's distance
    includes the straight connector place -> node at both ends, each counted as at least
    1.0 m, so two different places never get a zero-length route. Connector time uses the
    vehicle's speed, except driving, where it is 1.4 m/s (park and walk).

Routes
    ``mode="distance"`` minimises metres and ``mode="time"`` seconds (scipy Dijkstra); both
    report the chosen path's total metres and seconds, each rounded to 0.1 (sums are exact,
    ``math.fsum``). Walking and cycling have one speed everywhere, so their time mode uses
    the distance graph and always picks the same path as distance mode. A place to itself
    is 0 m, 0 s, with a two-point geometry at the place and no steps. ``avoid_way_ids`` removes every
    edge of those ways; snapping does not change; if nothing connects the two snapped nodes
    any more, :class:`NoRoute` is raised. Unknown ids raise :class:`UnknownPlace`; bad
    vehicle or mode strings raise ``ValueError``.

Steps
    Consecutive edges are grouped by way name (unnamed ways by highway class, shown as e.g.
    ``"unnamed footway"``). The first step is "Head <compass> on <road>", later ones "Continue
    onto", "Turn [slight|sharp] left/right onto" or "Make a U-turn onto" from the change of
    bearing (< 20 degrees continue, < 45 slight, < 120 turn, < 170 sharp), then a final
    "Arrive at destination" step of 0 m. Connectors are added to the first and last road
    step, so step distances sum to the total up to rounding. ``way_ids`` lists each step's
    distinct ways in travel order.

Multi-stop tools use :meth:`RoadNetwork.leg_matrix` (totals of every ordered pair, one
batched Dijkstra call, the same numbers as :meth:`RoadNetwork.route`) and build geometry
only for the chosen order. Single-source Dijkstra results are cached per vehicle, weight,
avoided ways and source (LRU).
"""

from environment.routing.network import (
    CONNECTOR_SPEED_MPS,
    MIN_CONNECTOR_M,
    MODES,
    VEHICLES,
    Leg,
    NoRoute,
    RoadNetwork,
    Route,
    RoutingError,
    Snap,
    UnknownPlace,
)

__all__ = [
    "CONNECTOR_SPEED_MPS",
    "MIN_CONNECTOR_M",
    "MODES",
    "VEHICLES",
    "Leg",
    "NoRoute",
    "RoadNetwork",
    "Route",
    "RoutingError",
    "Snap",
    "UnknownPlace",
]
