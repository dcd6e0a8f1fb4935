"""Routing engine: exact semantics on hand-built networks, then checks on the bundled Helsinki roads."""

from __future__ import annotations

import json
import math
import random

import networkx as nx
import pytest

from environment.records import RoadRecord
from environment.routing import MODES, VEHICLES, NoRoute, RoadNetwork, UnknownPlace
from environment.routing.geo import haversine_m

LON0, LAT0 = 24.940, 60.170
DLON, DLAT = 0.001, 0.0005  # about 55 m each way at Helsinki's latitude


def grid_node(r: int, c: int) -> tuple[int, tuple[float, float]]:
    return 100 + 10 * r + c, (LON0 + c * DLON, LAT0 + r * DLAT)


def make_road(
    gid, name, cells, *, highway="residential", walk=True, cycle=(True, True), drive=(True, True), speed=10.0
) -> RoadRecord:
    nodes = [grid_node(r, c) for r, c in cells]
    return RoadRecord(
        gid,
        name,
        highway,
        tuple(n for n, _ in nodes),
        tuple(p for _, p in nodes),
        walk,
        cycle[0],
        cycle[1],
        drive[0],
        drive[1],
        speed,
    )


def place_at(pid, r, c, north_m=0.0):
    _, (lon, lat) = grid_node(r, c)
    return pid, lon, lat + north_m / 111195.0


def grid_roads(row1_oneway=True) -> list[RoadRecord]:
    """A 3 x 3 street grid; Row 1 is one-way eastbound for cars and bikes when asked."""
    roads = []
    for r in range(3):
        oneway = row1_oneway and r == 1
        direction = (True, not oneway)
        roads.append(make_road(1 + r, f"Row {r}", [(r, 0), (r, 1), (r, 2)], cycle=direction, drive=direction))
    for c in range(3):
        roads.append(make_road(11 + c, f"Col {c}", [(0, c), (1, c), (2, c)]))
    return roads


@pytest.fixture
def grid():
    places = [place_at(f"P{r}{c}", r, c, north_m=3.0) for r in range(3) for c in range(3)]
    return RoadNetwork.build(grid_roads(), places)


def edge_m(a, b) -> float:
    (_, pa), (_, pb) = grid_node(*a), grid_node(*b)
    return haversine_m(*pa, *pb)


def test_route_distance_is_edge_haversine_plus_connectors(grid):
    route = grid.route("P00", "P02", vehicle="walking", mode="distance")
    expected = edge_m((0, 0), (0, 1)) + edge_m((0, 1), (0, 2)) + 2 * grid.snap("P00").offset_m
    assert route.total_distance_m == round(expected, 1)
    assert route.total_time_s == round(expected / 1.4, 1)
    assert grid.snap("P00").offset_m == pytest.approx(3.0, abs=0.01)


def test_geometry_runs_from_start_place_to_end_place(grid):
    route = grid.route("P00", "P22", vehicle="cycling", mode="time")
    coords = route.geometry["coordinates"]
    assert route.geometry["type"] == "LineString"
    assert coords[0] == list(place_at("P00", 0, 0, 3.0)[1:])
    assert coords[-1] == list(place_at("P22", 2, 2, 3.0)[1:])
    assert len(coords) == 2 + 5  # place, 5 grid nodes on a Manhattan path, place


def test_driving_honours_one_way_street(grid):
    forward = grid.route("P10", "P12", vehicle="driving", mode="distance")
    backward = grid.route("P12", "P10", vehicle="driving", mode="distance")
    walking_back = grid.route("P12", "P10", vehicle="walking", mode="distance")
    assert [s["road_name"] for s in forward.steps[:-1]] == ["Row 1"]
    assert "Row 1" not in [s["road_name"] for s in backward.steps]
    assert backward.total_distance_m > forward.total_distance_m + 100
    assert walking_back.total_distance_m == forward.total_distance_m


def fast_slow_roads() -> list[RoadRecord]:
    """A slow direct street (2 m/s) and a fast detour (20 m/s) between (0,0) and (0,2)."""
    return [
        make_road(1, "Slow Street", [(0, 0), (0, 1), (0, 2)], speed=2.0),
        make_road(2, "Fast West", [(0, 0), (1, 0)], speed=20.0),
        make_road(3, "Fast Avenue", [(1, 0), (1, 1), (1, 2)], speed=20.0),
        make_road(4, "Fast East", [(1, 2), (0, 2)], speed=20.0),
    ]


@pytest.fixture
def fast_slow():
    return RoadNetwork.build(fast_slow_roads(), [place_at("A", 0, 0), place_at("B", 0, 2)])


def test_time_and_distance_modes_pick_different_driving_paths(fast_slow):
    shortest = fast_slow.route("A", "B", vehicle="driving", mode="distance")
    fastest = fast_slow.route("A", "B", vehicle="driving", mode="time")
    assert [s["road_name"] for s in shortest.steps[:-1]] == ["Slow Street"]
    assert [s["road_name"] for s in fastest.steps[:-1]] == ["Fast West", "Fast Avenue", "Fast East"]
    assert shortest.total_distance_m < fastest.total_distance_m
    assert fastest.total_time_s < shortest.total_time_s
    slow_m = edge_m((0, 0), (0, 1)) + edge_m((0, 1), (0, 2))
    assert shortest.total_time_s == round(slow_m / 2.0 + 2 * 1.0 / 1.4, 1)  # 1 m connectors walked


def test_walking_time_mode_follows_distance_mode(fast_slow):
    by_time = fast_slow.route("A", "B", vehicle="walking", mode="time")
    by_distance = fast_slow.route("A", "B", vehicle="walking", mode="distance")
    assert by_time == by_distance


def test_avoided_way_is_not_used(fast_slow):
    route = fast_slow.route("A", "B", vehicle="driving", mode="distance", avoid_way_ids=[1])
    used = {w for step in route.steps for w in step["way_ids"]}
    assert used == {2, 3, 4}


def test_avoiding_every_connection_raises_no_route(fast_slow):
    with pytest.raises(NoRoute, match="avoiding"):
        fast_slow.route("A", "B", vehicle="walking", mode="time", avoid_way_ids={1, 3})


def test_parallel_ways_are_collapsed_not_summed():
    roads = [
        make_road(1, "Main", [(0, 0), (0, 1)], speed=5.0),
        make_road(2, "Main Express", [(0, 0), (0, 1)], speed=15.0),
    ]
    net = RoadNetwork.build(roads, [place_at("A", 0, 0), place_at("B", 0, 1)])
    route = net.route("A", "B", vehicle="driving", mode="time")
    assert route.total_distance_m == round(edge_m((0, 0), (0, 1)) + 2.0, 1)
    assert route.steps[0]["way_ids"] == [2]
    assert net.stats()["driving"]["edges"] == 2


def test_places_snap_to_largest_strongly_connected_component():
    roads = grid_roads() + [make_road(50, "Island", [(5, 5), (5, 6)])]
    net = RoadNetwork.build(roads, [place_at("near_island", 5, 5), place_at("P00", 0, 0)])
    assert net.snap("near_island", "walking").node_id == grid_node(2, 2)[0]
    assert net.route("near_island", "P00", vehicle="walking", mode="distance").total_distance_m > 0


def test_distinct_places_on_one_node_get_a_positive_route(grid):
    net = RoadNetwork.build(grid_roads(), [place_at("A", 0, 0), place_at("B", 0, 0)])
    route = net.route("A", "B", vehicle="driving", mode="time")
    assert route.total_distance_m == 2.0
    assert route.total_time_s == round(2.0 / 1.4, 1)
    assert route.steps[-1]["instruction"] == "Arrive at destination"


def test_place_to_itself_is_empty(grid):
    route = grid.route("P11", "P11", vehicle="cycling", mode="distance")
    assert (route.total_distance_m, route.total_time_s, route.steps) == (0.0, 0.0, [])


def test_unknown_place_and_bad_arguments_raise(grid):
    with pytest.raises(UnknownPlace):
        grid.route("P00", "nowhere", vehicle="walking", mode="time")
    with pytest.raises(UnknownPlace):
        grid.route("nowhere", "nowhere", vehicle="walking", mode="time")
    with pytest.raises(ValueError):
        grid.route("P00", "P01", vehicle="flying", mode="time")


def test_vehicle_without_roads_raises_no_route():
    roads = [make_road(1, "", [(0, 0), (0, 1)], highway="footway", cycle=(False, False), drive=(False, False))]
    net = RoadNetwork.build(roads, [place_at("A", 0, 0), place_at("B", 0, 1)])
    assert net.route("A", "B", vehicle="walking", mode="time").steps[0]["road_name"] == "unnamed footway"
    with pytest.raises(NoRoute):
        net.route("A", "B", vehicle="driving", mode="time")


def test_steps_group_roads_and_name_turns(grid):
    route = grid.route("P00", "P22", vehicle="walking", mode="distance", avoid_way_ids=[11, 12, 2])
    # Only Row 0 east then Col 2 north remain: heading east, north is a left turn.
    assert [s["instruction"] for s in route.steps] == [
        "Head east on Row 0",
        "Turn left onto Col 2",
        "Arrive at destination",
    ]
    assert route.steps[0]["way_ids"] == [1]
    assert sum(s["distance_m"] for s in route.steps) == pytest.approx(route.total_distance_m, abs=0.15)


def test_leg_matrix_matches_route_totals(grid):
    ids = ["P00", "P12", "P21", "P02"]
    for mode in MODES:
        legs = grid.leg_matrix(ids, vehicle="driving", mode=mode)
        assert len(legs) == 12
        for (a, b), leg in legs.items():
            route = grid.route(a, b, vehicle="driving", mode=mode)
            assert (leg.distance_m, leg.time_s) == (route.total_distance_m, route.total_time_s)


def test_same_input_gives_identical_output():
    places = [place_at(f"P{r}{c}", r, c, 2.0) for r in range(3) for c in range(3)]
    dumps = []
    for _ in range(2):
        net = RoadNetwork.build(grid_roads(), places)
        dumps.append(
            json.dumps(
                [
                    net.route(a, b, vehicle=v, mode=m).to_dict()
                    for a in net.place_ids
                    for b in net.place_ids
                    for v in VEHICLES
                    for m in MODES
                ]
            )
        )
    assert dumps[0] == dumps[1]


# -- the bundled Helsinki extract --------------------------------------------------------

EARTH_R = 6371008.8
SPEED = {"walking": 1.4, "cycling": 4.2}


@pytest.fixture(scope="module")
def helsinki():
    from environment.build.osm import read_osm
    from environment.build.pipeline import default_pbf

    extract = read_osm(default_pbf())
    places = [(p.place_id, p.lon, p.lat) for p in extract.places]
    return extract.roads, places, RoadNetwork.build(extract.roads, places)


def independent_haversine(p, q) -> float:
    (lon1, lat1), (lon2, lat2) = p, q
    a = (
        math.sin(math.radians(lat2 - lat1) / 2) ** 2
        + math.cos(math.radians(lat1)) * math.cos(math.radians(lat2)) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_R * math.asin(math.sqrt(a))


def networkx_graph(roads, vehicle: str) -> nx.DiGraph:
    """The vehicle graph rebuilt from the records with networkx, min over parallel edges."""
    graph = nx.DiGraph()
    for road in roads:
        if vehicle == "walking":
            fwd = bwd = road.walk
        elif vehicle == "cycling":
            fwd, bwd = road.cycle_forward, road.cycle_backward
        else:
            fwd, bwd = road.drive_forward, road.drive_backward
        speed = SPEED.get(vehicle, road.drive_speed_mps)
        for i in range(len(road.node_ids) - 1):
            u, v = road.node_ids[i], road.node_ids[i + 1]
            metres = independent_haversine(road.coords[i], road.coords[i + 1])
            for a, b, ok in ((u, v, fwd), (v, u, bwd)):
                if ok and a != b:
                    old = graph.get_edge_data(a, b, {})
                    graph.add_edge(
                        a,
                        b,
                        metres=min(metres, old.get("metres", math.inf)),
                        seconds=min(metres / speed, old.get("seconds", math.inf)),
                    )
    return graph


def sample_pairs(ids, count, seed):
    rng = random.Random(seed)
    return [tuple(rng.sample(ids, 2)) for _ in range(count)]


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_helsinki_distances_match_networkx(helsinki, vehicle):
    roads, _, net = helsinki
    graph = networkx_graph(roads, vehicle)
    largest = max(nx.strongly_connected_components(graph), key=len)
    assert net.stats()[vehicle]["largest_scc_nodes"] == len(largest)
    for a, b in sample_pairs(net.place_ids, 50, seed=VEHICLES.index(vehicle)):
        sa, sb = net.snap(a, vehicle), net.snap(b, vehicle)
        assert sa.node_id in largest and sb.node_id in largest
        for mode, weight in (("distance", "metres"), ("time", "seconds")):
            expected = nx.dijkstra_path_length(graph, sa.node_id, sb.node_id, weight=weight)
            if mode == "distance":
                expected += sa.connector_m + sb.connector_m
                got = net.route(a, b, vehicle=vehicle, mode=mode).total_distance_m
            else:
                expected += (sa.connector_m + sb.connector_m) / SPEED.get(vehicle, 1.4)
                got = net.route(a, b, vehicle=vehicle, mode=mode).total_time_s
            assert got == pytest.approx(expected, abs=0.051), (a, b, mode)


def test_helsinki_places_snap_to_nearest_surface_component_node(helsinki):
    roads, places, net = helsinki
    graph = net.graphs["walking"]
    surface = {n for r in roads if not r.tunnel and r.walk for n in r.node_ids}
    candidates = [i for i in graph.in_largest.nonzero()[0] if int(graph.node_ids[i]) in surface]
    nodes = [(float(graph.lon[i]), float(graph.lat[i])) for i in candidates]
    for pid, lon, lat in places[::40]:
        nearest = min(independent_haversine((lon, lat), p) for p in nodes)
        assert net.snap(pid, "walking").offset_m == pytest.approx(nearest, abs=0.01)


def test_helsinki_driving_honours_a_one_way_street(helsinki):
    roads, places, net = helsinki
    graph = net.graphs["driving"]
    in_largest = {int(n) for n in graph.node_ids[graph.in_largest]}
    oneways = [
        r
        for r in roads
        if r.drive_forward
        and not r.drive_backward
        and r.name
        and r.node_ids[0] in in_largest
        and r.node_ids[-1] in in_largest
    ]
    way = max(oneways, key=lambda r: (len(r.node_ids), r.gid))
    ends = [("ONEWAY_START", *way.coords[0]), ("ONEWAY_END", *way.coords[-1])]
    net2 = RoadNetwork.build(roads, places + ends)
    forward = net2.route("ONEWAY_START", "ONEWAY_END", vehicle="driving", mode="distance")
    backward = net2.route("ONEWAY_END", "ONEWAY_START", vehicle="driving", mode="distance")
    walk_back = net2.route("ONEWAY_END", "ONEWAY_START", vehicle="walking", mode="distance")
    assert way.gid in {w for s in forward.steps for w in s["way_ids"]}
    assert way.gid not in {w for s in backward.steps for w in s["way_ids"]}
    assert backward.total_distance_m > forward.total_distance_m
    assert walk_back.total_distance_m <= forward.total_distance_m


def test_helsinki_avoided_ways_change_the_route(helsinki):
    _, _, net = helsinki
    changed = 0
    for a, b in sample_pairs(net.place_ids, 20, seed=7):
        base = net.route(a, b, vehicle="walking", mode="distance")
        longest = max(base.steps, key=lambda s: s["distance_m"])
        avoid = set(longest["way_ids"])
        if not avoid:
            continue
        try:
            detour = net.route(a, b, vehicle="walking", mode="distance", avoid_way_ids=avoid)
        except NoRoute:
            continue
        assert avoid.isdisjoint(w for s in detour.steps for w in s["way_ids"])
        assert detour.total_distance_m >= base.total_distance_m
        changed += detour.geometry != base.geometry
    assert changed >= 10


def test_helsinki_time_and_distance_modes_differ_for_driving(helsinki):
    _, _, net = helsinki
    differing = 0
    for a, b in sample_pairs(net.place_ids, 100, seed=11):
        shortest = net.route(a, b, vehicle="driving", mode="distance")
        fastest = net.route(a, b, vehicle="driving", mode="time")
        assert shortest.total_distance_m <= fastest.total_distance_m
        assert fastest.total_time_s <= shortest.total_time_s
        differing += shortest.total_distance_m < fastest.total_distance_m
    assert differing > 0


@pytest.mark.parametrize("vehicle", VEHICLES)
def test_helsinki_self_routes_are_zero_and_others_positive(helsinki, vehicle):
    _, _, net = helsinki
    for pid in net.place_ids:
        assert net.leg(pid, pid, vehicle=vehicle, mode="time").distance_m == 0.0
    for a, b in sample_pairs(net.place_ids, 200, seed=3):
        leg = net.leg(a, b, vehicle=vehicle, mode="time")
        assert leg.distance_m >= 2.0 and leg.time_s > 0


def test_helsinki_routes_are_deterministic(helsinki):
    roads, places, net = helsinki
    rebuilt = RoadNetwork.build(roads, places)
    pairs = sample_pairs(net.place_ids, 30, seed=5)
    for vehicle in VEHICLES:  # batched Dijkstra runs fill the cache first: same answers
        rebuilt.leg_matrix([a for a, _ in pairs[:6]], vehicle=vehicle, mode="time")
    for a, b in pairs:
        for vehicle in VEHICLES:
            first = json.dumps(net.route(a, b, vehicle=vehicle, mode="time").to_dict())
            assert json.dumps(rebuilt.route(a, b, vehicle=vehicle, mode="time").to_dict()) == first
