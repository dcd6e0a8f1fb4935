"""routing and multi_stop_routing through the gateway on the grid city."""

import itertools

import pytest

from environment.tools.gateway import call_tool

pytestmark = pytest.mark.django_db
PLACES = [f"N{i}" for i in range(1, 11)]


def route(ctx, **args):
    return call_tool("agent", "routing", args, context=ctx)


def way_ids(call):
    return {w for step in call.result["steps"] for w in step["way_ids"]}


def test_routing_returns_totals_geometry_and_steps(grid_ctx):
    call = route(grid_ctx, start_place_id="N1", end_place_id="N5", vehicle="walking", mode="distance")
    result = call.result
    assert call.ok and result["total_distance_m"] > 0 and result["total_time_s"] > 0
    assert result["geometry"]["type"] == "LineString" and len(result["geometry"]["coordinates"]) >= 2
    assert all({"road_name", "way_ids", "instruction"} <= set(step) for step in result["steps"])
    assert result["total_time_s"] == pytest.approx(result["total_distance_m"] / 1.4, rel=0.01)


def test_driving_honours_oneway_but_walking_ignores_it(grid_ctx):
    east = route(grid_ctx, start_place_id="N4", end_place_id="N5", vehicle="driving", mode="distance")
    west = route(grid_ctx, start_place_id="N5", end_place_id="N4", vehicle="driving", mode="distance")
    assert 102 in way_ids(east) and 102 not in way_ids(west)
    assert west.result["total_distance_m"] > east.result["total_distance_m"]
    walk_east = route(grid_ctx, start_place_id="N4", end_place_id="N5", vehicle="walking", mode="distance")
    walk_west = route(grid_ctx, start_place_id="N5", end_place_id="N4", vehicle="walking", mode="distance")
    assert walk_west.result["total_distance_m"] == pytest.approx(walk_east.result["total_distance_m"], abs=0.2)


def test_avoid_way_ids_changes_the_path(grid_ctx):
    plain = route(grid_ctx, start_place_id="N4", end_place_id="N5", vehicle="driving")
    avoided = route(grid_ctx, start_place_id="N4", end_place_id="N5", vehicle="driving", avoid_way_ids=[102])
    assert 102 in way_ids(plain) and 102 not in way_ids(avoided)
    assert avoided.result["total_distance_m"] > plain.result["total_distance_m"]
    assert avoided.result["avoid_way_ids"] == [102]


def test_avoiding_every_way_is_an_honest_no_route(grid_ctx):
    every = list(range(100, 105)) + list(range(200, 205))
    call = route(grid_ctx, start_place_id="N1", end_place_id="N7", vehicle="walking", avoid_way_ids=every)
    assert not call.ok and call.error_kind == "empty_result" and "no walking route" in call.error["message"]


def test_time_and_distance_modes_differ_for_driving(grid_ctx):
    differs = False
    for a, b in itertools.permutations(PLACES, 2):
        fast = route(grid_ctx, start_place_id=a, end_place_id=b, vehicle="driving", mode="time").result
        short = route(grid_ctx, start_place_id=a, end_place_id=b, vehicle="driving", mode="distance").result
        assert fast["total_time_s"] <= short["total_time_s"] + 0.1
        assert short["total_distance_m"] <= fast["total_distance_m"] + 0.1
        differs |= fast["total_time_s"] < short["total_time_s"] - 1
    assert differs


@pytest.mark.parametrize(
    "args, kind, parameter",
    [
        ({"start_place_id": "N1", "end_place_id": "N1"}, "invalid_parameter", "end_place_id"),
        ({"start_place_id": "N1", "end_place_id": "N404"}, "not_found", "end_place_id"),
        ({"start_place_id": "X", "end_place_id": "N2"}, "not_found", "start_place_id"),
        ({"start_place_id": "N1", "end_place_id": "N2", "vehicle": "plane"}, "invalid_parameter", "vehicle"),
        ({"start_place_id": "N1", "end_place_id": "N2", "mode": "fast"}, "invalid_parameter", "mode"),
        ({"start_place_id": "N1", "end_place_id": "N2", "avoid_way_ids": ["x"]}, "invalid_parameter", "avoid_way_ids"),
        ({"start_place_id": "N1"}, "invalid_parameter", "end_place_id"),
    ],
)
def test_routing_rejects_bad_input(grid_ctx, args, kind, parameter):
    call = route(grid_ctx, **args)
    assert not call.ok and call.error_kind == kind and call.error["parameter"] == parameter


def test_multi_stop_routing_lists_every_ordering_sorted(grid_ctx):
    call = call_tool(
        "engine",
        "multi_stop_routing",
        {"stop_ids": ["N1", "N3", "N5", "N7"], "vehicle": "walking", "mode": "distance"},
        context=grid_ctx,
    )
    orderings = call.result["orderings"]
    assert call.result["total_orderings"] == 24 and len(orderings) == 24
    totals = [o["total_distance_m"] for o in orderings]
    assert totals == sorted(totals)


def test_multi_stop_totals_equal_the_sum_of_routing_calls(grid_ctx):
    call = call_tool(
        "engine",
        "multi_stop_routing",
        {"stop_ids": ["N1", "N9", "N5", "N7"], "start_id": "N1", "end_id": "N7", "vehicle": "driving"},
        context=grid_ctx,
    )
    assert call.result["total_orderings"] == 2
    for ordering in call.result["orderings"]:
        order = [p["place_id"] for p in ordering["order"]]
        assert order[0] == "N1" and order[-1] == "N7"
        legs = [
            route(grid_ctx, start_place_id=a, end_place_id=b, vehicle="driving").result
            for a, b in zip(order, order[1:])
        ]
        assert ordering["total_time_s"] == round(sum(leg["total_time_s"] for leg in legs), 1)
        assert ordering["total_distance_m"] == round(sum(leg["total_distance_m"] for leg in legs), 1)


@pytest.mark.parametrize(
    "args, parameter",
    [
        ({"stop_ids": ["N1"]}, "stop_ids"),
        ({"stop_ids": [f"N{i}" for i in range(1, 9)]}, "stop_ids"),
        ({"stop_ids": ["N1", "N2", "N1"]}, "stop_ids"),
        ({"stop_ids": ["N1", "N2"], "start_id": "N3"}, "start_id"),
        ({"stop_ids": ["N1", "N2"], "start_id": "N1", "end_id": "N1"}, "end_id"),
        ({"stop_ids": ["N1", "N404"]}, "stop_ids"),
        ({"stop_ids": ["N1", "N2"], "max_orderings": 0}, "max_orderings"),
    ],
)
def test_multi_stop_routing_rejects_bad_input(grid_ctx, args, parameter):
    call = call_tool("engine", "multi_stop_routing", args, context=grid_ctx)
    assert not call.ok and call.error["parameter"] == parameter


def test_every_place_routes_to_itself_in_zero_only_via_the_network(grid_ctx):
    net = grid_ctx.network
    for vehicle in ("walking", "cycling", "driving"):
        for a in PLACES:
            assert net.route(a, a, vehicle=vehicle, mode="time").total_distance_m == 0
            for b in PLACES:
                if a != b:
                    assert net.route(a, b, vehicle=vehicle, mode="time").total_distance_m > 0
