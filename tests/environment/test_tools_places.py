"""place_search, place_detail, nearby_search and sample_place on the grid city (real PostGIS)."""

import math

import pytest

from environment.tools.gateway import call_tool
from environment.tools.places import DETAIL_FIELDS, ENGINE_FIELDS, LIGHT_FIELDS

pytestmark = pytest.mark.django_db


def agent(ctx, name, **args):
    return call_tool("agent", name, args, context=ctx)


def engine(ctx, name, **args):
    return call_tool("engine", name, args, context=ctx)


def ids(call):
    return [r["place_id"] for r in call.result["results"]]


def haversine(lon1, lat1, lon2, lat2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(a))


def test_place_search_matches_name_words_case_and_accent_insensitively(grid_ctx):
    assert ids(agent(grid_ctx, "place_search", query_name="TAHTI")) == ["N9"]
    assert sorted(ids(agent(grid_ctx, "place_search", query_name="kahvila"))) == ["N1", "N7"]


def test_place_search_returns_lightweight_records(grid_ctx):
    call = agent(grid_ctx, "place_search", query_name="Museo Kivi")
    assert call.ok and list(call.result["results"][0]) == list(LIGHT_FIELDS)
    full = engine(grid_ctx, "place_search", query_name="Museo Kivi")
    assert list(full.result["results"][0]) == list(ENGINE_FIELDS)


def test_place_search_ranks_exact_name_first(grid_ctx):
    call = agent(grid_ctx, "place_search", query_name="kahvila aamu")
    assert ids(call)[0] == "N7"


def test_place_search_filters_by_type_rating_and_tag(grid_ctx):
    coffee = agent(grid_ctx, "place_search", query_name="", place_types=["coffee house"])
    assert sorted(ids(coffee)) == ["N1", "N7"]
    comma = agent(grid_ctx, "place_search", query_name="", place_types="Pub, Pizzeria")
    assert sorted(ids(comma)) == ["N6", "N9"]
    wifi = agent(grid_ctx, "place_search", query_name="", geo_tag=["wifi"])
    assert {"N1", "N4"} <= set(ids(wifi))
    rated = agent(grid_ctx, "place_search", query_name="", min_rating=4.0)
    assert all(r["rating"] >= 4.0 for r in rated.result["results"])
    ratings = [r["rating"] for r in agent(grid_ctx, "place_search", query_name="").result["results"]]
    rated_first = [r for r in ratings if r is not None]
    assert ratings[: len(rated_first)] == sorted(rated_first, reverse=True)


def test_place_search_empty_result_is_labelled(grid_ctx):
    call = agent(grid_ctx, "place_search", query_name="no such place anywhere")
    assert call.ok and call.result["total_matched"] == 0 and call.error_kind == "empty_result"


@pytest.mark.parametrize(
    "args, parameter",
    [
        ({"query_name": "", "min_rating": 7}, "min_rating"),
        ({"query_name": "", "max_rating": 0.5}, "max_rating"),
        ({"query_name": "", "min_rating": 4.5, "max_rating": 3}, "min_rating"),
        ({"query_name": "", "min_cost": -5}, "min_cost"),
        ({"query_name": "", "geo_tag": [" ", ""]}, "geo_tag"),
        ({"query_name": 5}, "query_name"),
        ({}, "query_name"),
        ({"query_name": "x", "colour": "red"}, "colour"),
    ],
)
def test_place_search_rejects_bad_input_naming_the_parameter(grid_ctx, args, parameter):
    call = call_tool("agent", "place_search", args, context=grid_ctx)
    assert not call.ok and call.error_kind == "invalid_parameter"
    assert call.error["parameter"] == parameter and call.error["message"]


def test_place_detail_shows_table9_fields_but_never_memory(grid_ctx):
    call = agent(grid_ctx, "place_detail", place_id="N8")
    assert list(call.result) == list(DETAIL_FIELDS)
    assert call.result["opentime_week"] == "broken hours (("
    assert "long_mem" not in call.result and "short_mem" not in call.result


def test_place_detail_unknown_id_is_not_found(grid_ctx):
    call = agent(grid_ctx, "place_detail", place_id="N999")
    assert call.error_kind == "not_found" and call.error["parameter"] == "place_id"


def test_nearby_search_around_a_place_sorts_by_true_distance(grid_ctx):
    call = agent(grid_ctx, "nearby_search", center="N4", radius_meters=300)
    results = call.result["results"]
    assert "N4" not in ids(call) and results
    distances = [r["distance_m"] for r in results]
    assert distances == sorted(distances) and max(distances) <= 300
    from environment.models import Place

    where = {p.place_id: p.location for p in Place.objects.filter(city_id=grid_ctx.city_id)}
    for r in results:
        expected = haversine(where["N4"].x, where["N4"].y, where[r["place_id"]].x, where[r["place_id"]].y)
        assert r["distance_m"] == pytest.approx(expected, rel=0.005)


def test_nearby_search_radius_includes_exactly_the_places_within_it(grid_ctx):
    wide = agent(grid_ctx, "nearby_search", center="N4", radius_meters=5000)
    assert len(wide.result["results"]) == 9
    cut = wide.result["results"][3]["distance_m"] + 0.5
    narrow = agent(grid_ctx, "nearby_search", center="N4", radius_meters=cut)
    assert ids(narrow) == ids(wide)[:4]


@pytest.mark.parametrize("radius", [-10, 0, 5001, "far"])
def test_nearby_search_rejects_bad_radius(grid_ctx, radius):
    call = agent(grid_ctx, "nearby_search", center="N4", radius_meters=radius)
    assert call.error_kind == "invalid_parameter" and call.error["parameter"] == "radius_meters"


def test_nearby_search_along_a_route(grid_ctx):
    call = agent(grid_ctx, "nearby_search", center={"start": "N6", "end": "N5", "vehicle": "walking"}, radius_meters=60)
    assert call.ok
    found = ids(call)
    assert "N6" not in found and "N5" not in found
    assert all(r["distance_m"] <= 60 for r in call.result["results"])
    assert call.result["center"]["total_distance_m"] > 0


def test_nearby_search_route_errors_name_the_route_field(grid_ctx):
    same = agent(grid_ctx, "nearby_search", center={"start": "N1", "end": "N1"})
    assert same.error_kind == "invalid_parameter" and same.error["parameter"] == "center.end"
    unknown = agent(grid_ctx, "nearby_search", center={"start": "N1", "end": "X1"})
    assert unknown.error_kind == "not_found" and unknown.error["parameter"] == "center.end"
    vehicle = agent(grid_ctx, "nearby_search", center={"start": "N1", "end": "N2", "vehicle": "plane"})
    assert vehicle.error_kind == "invalid_parameter" and vehicle.error["parameter"] == "center"
    huge = agent(grid_ctx, "nearby_search", center={"start": "N1", "end": "N2"}, radius_meters=2000)
    assert huge.error["parameter"] == "radius_meters"


def test_engine_nearby_search_returns_memory_fields(grid_ctx):
    call = engine(grid_ctx, "nearby_search", center="N4", radius_meters=400)
    assert call.ok and set(ENGINE_FIELDS) <= set(call.result["results"][0])


def test_sample_place_is_deterministic_per_seed(grid_ctx):
    first = engine(grid_ctx, "sample_place", num_samples=5, seed=3)
    again = engine(grid_ctx, "sample_place", num_samples=5, seed=3)
    other = engine(grid_ctx, "sample_place", num_samples=5, seed=4)
    assert first.result == again.result and len(first.result["pois"]) == 5
    assert [p["place_id"] for p in first.result["pois"]] != [p["place_id"] for p in other.result["pois"]]
    assert engine(grid_ctx, "sample_place", num_samples=0).error["parameter"] == "num_samples"
