"""The OSM reading stage: places and roads from the bundled Helsinki extract and tiny.osm."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from environment.build.osm import enrich_rating_cost, parse_maxspeed, read_osm
from environment.build.pipeline import default_pbf
from environment.taxonomy import TOP_TYPES, place_type_for

TINY = Path(__file__).parent / "data" / "tiny.osm"


@pytest.fixture(scope="module")
def helsinki():
    return read_osm(default_pbf())


@pytest.fixture(scope="module")
def tiny():
    return read_osm(TINY)


@pytest.fixture(scope="module")
def tiny_roads(tiny):
    return {road.gid: road for road in tiny.roads}


def _place(extract, place_id):
    return next(place for place in extract.places if place.place_id == place_id)


def test_helsinki_counts_match_the_extract(helsinki):
    by_type = Counter(place.osm_type for place in helsinki.places)
    assert abs(by_type["node"] - 1401) <= 5
    assert abs(by_type["way"] - 54) <= 2
    assert abs(by_type["relation"] - 4) <= 1
    assert abs(len(helsinki.places) - 1459) <= 5


def test_helsinki_place_ids_are_unique_and_sorted(helsinki):
    ids = [place.place_id for place in helsinki.places]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    assert [road.gid for road in helsinki.roads] == sorted(road.gid for road in helsinki.roads)


def test_every_place_has_a_two_level_type_from_the_top_list(helsinki):
    for place in helsinki.places:
        top, sub = place.place_type.split("|")
        assert top in TOP_TYPES and sub, place


def test_places_lie_inside_the_extract(helsinki):
    for place in helsinki.places:
        assert 24.93 <= place.lon <= 24.96 and 60.16 <= place.lat <= 60.18, place


def test_real_cafe_is_read_with_address_hours_and_tags(helsinki):
    cafe = _place(helsinki, "N1007416273")
    assert cafe.name == "Théhuone"
    assert cafe.place_type == "Food & Beverages|Coffee House"
    assert cafe.address == "Eerikinkatu 10, 00100 Helsinki"
    assert cafe.opentime_week == "Mo-Fr 10:00-19:00; Sa 10:00-18:00"
    assert cafe.tag == "Cuisine: Tee; Smoking: No smoking"
    assert cafe.osm_tags["shop"] == "tea"


def test_real_cathedral_way_has_aliases_in_order(helsinki):
    cathedral = _place(helsinki, "W419479428")
    assert cathedral.name == "Helsingin tuomiokirkko"
    assert cathedral.alias == "Suurkirkko | Helsinki Cathedral | Helsingfors domkyrka"
    assert cathedral.address == "Unioninkatu 29, 00170 Helsinki"
    assert (24.951 < cathedral.lon < 24.953) and (60.170 < cathedral.lat < 60.171)


def test_multipolygon_relation_is_a_place_once(helsinki):
    hotel = _place(helsinki, "R5608")
    assert hotel.name == "Marski by Scandic"
    assert hotel.place_type == "Accommodation|Hotel"
    assert hotel.address == "Mannerheimintie 10, 00100 Helsinki"
    assert sum(place.name == "Marski by Scandic" for place in helsinki.places) == 1


def test_helsinki_roads_have_every_mode(helsinki):
    roads = helsinki.roads
    assert len(roads) > 2000
    assert all(len(road.node_ids) == len(road.coords) >= 2 for road in roads)
    assert sum(road.walk for road in roads) > 2000
    assert sum(road.drive_forward != road.drive_backward for road in roads) > 100
    assert {"platform", "construction", "elevator"}.isdisjoint(road.highway for road in roads)


def test_tiny_keeps_named_pois_only_and_relation_once(tiny):
    assert [place.place_id for place in tiny.places] == ["N74", "R301", "W201"]
    assert _place(tiny, "W201").place_type == "Food & Beverages|Pizzeria"
    park = _place(tiny, "R301")
    assert park.place_type == "Scenery Spot|Park"
    assert 24.952 < park.lon < 24.954 and 60.172 < park.lat < 60.174


def test_tiny_cafe_attributes(tiny):
    cafe = _place(tiny, "N74")
    assert cafe.address == "Testikatu 5, 00100 Helsinki"
    assert cafe.alias == "Testi | Test Cafe"
    assert cafe.opentime_week == "Mo-Fr 08:00-18:00"
    assert cafe.tag == (
        "Cuisine: Coffee shop, Cake; Diet: Vegan only; Facility: Outdoor seating, WiFi; "
        "Accessibility: Limited wheelchair access; Service: Takeaway; Brand: Testi; "
        "Payment: Visa"
    )


def _drive(road):
    return road.drive_forward, road.drive_backward


def _cycle(road):
    return road.cycle_forward, road.cycle_backward


def test_oneway_is_forward_only_for_cars_and_bikes_but_not_walkers(tiny_roads):
    road = tiny_roads[101]
    assert road.name == "Oneway Street"
    assert _drive(road) == (True, False) and _cycle(road) == (True, False) and road.walk


def test_oneway_minus_one_is_backward_only(tiny_roads):
    assert _drive(tiny_roads[102]) == (False, True)
    assert _cycle(tiny_roads[102]) == (False, True)


def test_roundabout_implies_oneway(tiny_roads):
    assert _drive(tiny_roads[103]) == (True, False)
    assert _cycle(tiny_roads[103]) == (True, False)


def test_oneway_bicycle_no_and_contraflow_lane_let_bikes_both_ways(tiny_roads):
    for gid in (104, 105):
        assert _cycle(tiny_roads[gid]) == (True, True)
        assert _drive(tiny_roads[gid]) == (True, False)


def test_footway_is_walkable_not_drivable_and_bikes_need_permission(tiny_roads):
    assert tiny_roads[106].walk and _drive(tiny_roads[106]) == (False, False)
    assert _cycle(tiny_roads[106]) == (False, False)
    assert _cycle(tiny_roads[115]) == (True, True)


def test_motorway_is_not_walkable_and_is_oneway(tiny_roads):
    motorway = tiny_roads[107]
    assert not motorway.walk and _cycle(motorway) == (False, False)
    assert _drive(motorway) == (True, False)
    assert motorway.name == "E18"
    assert tiny_roads[123].walk  # trunk with foot=yes


def test_steps_are_not_cyclable_unless_bicycle_yes(tiny_roads):
    assert tiny_roads[108].walk and _cycle(tiny_roads[108]) == (False, False)
    assert _cycle(tiny_roads[109]) == (True, True)


def test_private_access_closes_every_mode_unless_foot_yes(tiny_roads):
    private = tiny_roads[110]
    assert not private.walk and _cycle(private) == (False, False)
    assert _drive(private) == (False, False) and private.drive_speed_mps == 0.0
    assert tiny_roads[111].walk and _drive(tiny_roads[111]) == (False, False)


def test_mode_specific_bans(tiny_roads):
    assert _cycle(tiny_roads[116]) == (False, False) and _drive(tiny_roads[116]) == (True, True)
    assert _drive(tiny_roads[119]) == (False, False) and _cycle(tiny_roads[119]) == (True, True)
    assert _cycle(tiny_roads[122]) == (False, False)  # bicycle=use_sidepath
    assert not tiny_roads[124].walk and _cycle(tiny_roads[124]) == (True, True)


def test_oneway_cycleway_and_pedestrian_street(tiny_roads):
    assert _cycle(tiny_roads[120]) == (True, False) and tiny_roads[120].walk
    assert tiny_roads[121].walk and _drive(tiny_roads[121]) == (False, False)


def test_non_road_highways_are_skipped(tiny_roads):
    assert 117 not in tiny_roads and 118 not in tiny_roads


def test_drive_speed_from_maxspeed_or_class_default(tiny_roads):
    assert tiny_roads[112].drive_speed_mps == pytest.approx(30 * 1.609344 / 3.6)
    assert tiny_roads[113].drive_speed_mps == pytest.approx(50 / 3.6)
    assert tiny_roads[114].drive_speed_mps == pytest.approx(40 / 3.6)
    assert tiny_roads[122].drive_speed_mps == pytest.approx(40 / 3.6)
    assert tiny_roads[107].drive_speed_mps == pytest.approx(100 / 3.6)


@pytest.mark.parametrize(
    ("raw", "kmh"),
    [
        ("50", 50),
        ("30 mph", 48.28032),
        ("FI:urban", 50),
        ("FI:rural", 80),
        ("60 km/h", 60),
        ("30;50", 30),
        ("signals", None),
        ("", None),
    ],
)
def test_parse_maxspeed(raw, kmh):
    assert parse_maxspeed(raw) == (pytest.approx(kmh) if kmh is not None else None)


def test_place_type_falls_back_without_dropping_anything():
    assert place_type_for({"shop": "yes"}) == "Shopping|Other Shop"
    assert place_type_for({"shop": "funeral_directors"}) == "Shopping|Other Funeral Directors"
    assert place_type_for({"shop": "yes", "office": "company"}) == "Business|Office"
    assert place_type_for({"amenity": "restaurant", "cuisine": "sushi"}) == ("Food & Beverages|Sushi Restaurant")
    with pytest.raises(ValueError):
        place_type_for({"highway": "bus_stop"})


def test_enrichment_is_deterministic_independent_and_bounded(helsinki):
    places = helsinki.places
    first = enrich_rating_cost(places, seed=7)
    assert first == enrich_rating_cost(list(reversed(places)), seed=7)
    subset = enrich_rating_cost(places[::3], seed=7)
    assert all(first[place_id] == value for place_id, value in subset.items())
    assert first != enrich_rating_cost(places, seed=8)
    ratings = [rating for rating, _ in first.values() if rating is not None]
    assert all(1.0 <= rating <= 5.0 and round(rating, 1) == rating for rating in ratings)
    assert 3.8 <= sum(ratings) / len(ratings) <= 4.5


def test_enrichment_costs_follow_the_place_type(helsinki):
    values = enrich_rating_cost(helsinki.places, seed=1)
    by_type = {place.place_id: place.place_type for place in helsinki.places}
    for place_id, (_, cost) in values.items():
        place_type = by_type[place_id]
        if place_type == "Food & Beverages|Coffee House":
            assert 5 <= cost <= 15
        elif place_type == "Accommodation|Hotel":
            assert 80 <= cost <= 250
        elif place_type.startswith(("Business|", "Culture|Memorial", "Scenery Spot|Park")):
            assert cost is None


def test_enrichment_of_a_renamed_place_depends_only_on_its_id(tiny):
    cafe = _place(tiny, "N74")
    renamed = replace(cafe, name="Another Name")
    assert enrich_rating_cost([cafe], 3) == enrich_rating_cost([renamed], 3)
