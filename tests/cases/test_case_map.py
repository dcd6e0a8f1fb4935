import pytest

from benchmark.cases.selectors import case_map_geojson, case_place_ids, case_route_stops
from benchmark.cases.services import case_create
from tests.factories import routing_document

pytestmark = pytest.mark.django_db


def test_case_place_ids_follow_the_visiting_order_without_repeats():
    answer = routing_document().answer
    assert case_place_ids(answer) == ["N1", "N4", "N5"]
    assert case_place_ids({"name": "Museo Kivi", "place_id": "N5"}) == ["N5"]
    assert case_place_ids([{"place_id": "N2"}, {"place_id": "N3"}, "free text"]) == ["N2", "N3"]
    assert case_place_ids("True") == []


def test_case_route_stops_fall_back_to_start_waypoints_end():
    answer = {"start": {"place_id": "N1"}, "waypoints": [{"place_id": "N9"}], "end": {"place_id": "N7"}}
    assert case_route_stops(answer) == ["N1", "N9", "N7"]
    assert case_route_stops({"place_id": "N5"}) == []


def test_case_map_geojson_has_numbered_places_and_routed_legs(grid_city):
    case = case_create(document=routing_document())
    data = case_map_geojson(case)
    places = [f for f in data["features"] if f["properties"]["kind"] == "place"]
    legs = [f for f in data["features"] if f["properties"]["kind"] == "route"]
    assert [(p["properties"]["number"], p["properties"]["place_id"]) for p in places] == [
        (1, "N1"),
        (2, "N4"),
        (3, "N5"),
    ]
    assert places[0]["geometry"]["coordinates"] == pytest.approx([24.94005, 60.17003])
    assert [(leg["properties"]["from"], leg["properties"]["to"]) for leg in legs] == [("N1", "N4"), ("N4", "N5")]
    assert all(leg["geometry"]["type"] == "LineString" and len(leg["geometry"]["coordinates"]) >= 2 for leg in legs)
    assert legs[0]["properties"]["total_distance_m"] > 200  # two blocks east, two south on the grid
    assert data["missing_place_ids"] == [] and data["route_errors"] == []


def test_case_map_geojson_lists_unknown_places_and_unroutable_legs(grid_city):
    answer = {"start": {"place_id": "N1"}, "end": {"place_id": "N999"}, "vehicle": "walking"}
    case = case_create(document=routing_document(answer=answer))
    data = case_map_geojson(case)
    assert [f["properties"]["place_id"] for f in data["features"]] == ["N1"]
    assert data["missing_place_ids"] == ["N999"]
    assert len(data["route_errors"]) == 1 and "N999" in data["route_errors"][0]
