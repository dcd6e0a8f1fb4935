"""The bounded-cost place_search and nearby_search answer exactly as the implementations they
replaced (kept here as slow references: every match counted and ranked, nearby_search with the
spheroid ST_DWithin and ST_Distance on every place), on the grid city and on Helsinki,
and place_search marks its count when the cap stops it. search_notes is compared too: it must
keep ranking every match in Helsinki."""

import json
import math

import pytest
from django.db import connection

from devtools.tool_bench import ArgumentMaker
from environment.tools import notes, places
from environment.tools.gateway import call_tool
from environment.tools.keywords import parse_keywords, to_tsquery_sql
from kernel.text import fold

pytestmark = pytest.mark.django_db

# ---------------------------------------------------------------- references (the code before issue 16)


def reference_place_search(ctx, query_name, **filters):
    """Count every match with a window and sort them all by relevance and rating."""
    words = places._keywords(filters.pop("place_types", None), "place_types")
    filters = {key: filters.get(key) for key in ("min_rating", "max_rating", "min_cost", "max_cost", "geo_tag")}
    clauses, params = places._where(ctx, query_name=query_name, place_types=None, **filters)
    if words:
        clauses.append("(" + " OR ".join("lower(p.place_type) LIKE %s" for _ in words) + ")")
        params += [f"%{places._escape_like(w)}%" for w in words]
    q = fold(query_name.strip())
    order = [q, f"{places._escape_like(q)}%", q]
    total, results = places._query(places.LIGHT_FIELDS, clauses, params, places._RELEVANCE, order)
    return places._listing(total, results, query_name=query_name)


def reference_nearby(ctx, center, radius_meters, **filters):
    """Spheroid ST_DWithin and ST_Distance on every place of the city, nearest first: (count, first page)."""
    clauses, params = places._where(ctx, **{key: filters.get(key) for key in FILTERS})
    if isinstance(center, str):
        shape_sql, shape_params, excluded = places._PLACE_SHAPE, [ctx.city_id, center], [center]
    else:
        route = places.route_between(ctx, center["start"], center["end"], vehicle=center["vehicle"], mode="time")
        shape_sql, shape_params = "ST_GeomFromGeoJSON(%s)::geography", [json.dumps(route.geometry)]
        excluded = [center["start"], center["end"]]
    fields = places.LIGHT_FIELDS
    sql = (
        f"SELECT count(*) OVER (), {', '.join(f'p.{f}' for f in fields)}, ST_Distance(p.location, {shape_sql}) "
        f"FROM environment_place p WHERE {' AND '.join(clauses)} AND ST_DWithin(p.location, {shape_sql}, %s) "
        f"AND NOT (p.place_id = ANY(%s)) ORDER BY {len(fields) + 2}, p.place_id LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*shape_params, *params, *shape_params, radius_meters, excluded, places.LIST_CAP])
        rows = cursor.fetchall()
    return (rows[0][0] if rows else 0), places._with_distances(fields, rows)


FILTERS = ("place_types", "min_rating", "max_rating", "min_cost", "max_cost", "geo_tag")


def reference_search_notes(ctx, keyword):
    """ts_rank over every match."""
    query_sql, query_params = to_tsquery_sql(parse_keywords(keyword))
    cols = ", ".join(f'n."{f}"' for f in notes.LIGHT_FIELDS)
    sql = (
        f"WITH q AS (SELECT {query_sql} AS query) SELECT count(*) OVER (), {cols} FROM environment_note n, q "
        "WHERE n.city_id = %s AND n.search_vector @@ q.query "
        "ORDER BY ts_rank(n.search_vector, q.query) DESC, n.liked_count DESC, n.note_id LIMIT %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*query_params, ctx.city_id, notes.AGENT_CAP])
        rows = cursor.fetchall()
    return (rows[0][0] if rows else 0), notes._rows_to_dicts(notes.LIGHT_FIELDS, [row[1:] for row in rows])


def agent(ctx, name, args):
    call = call_tool("agent", name, args, context=ctx)
    assert call.ok, call.error
    return call.result


def same(a, b):
    return json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False)


# ---------------------------------------------------------------- the same answers


def _place_search_matches_reference(ctx, argument_sets):
    for args in argument_sets:
        expected = reference_place_search(ctx, **args)
        assert same(agent(ctx, "place_search", args), expected), args


def _search_notes_matches_reference(ctx, keywords):
    for keyword in keywords:
        call = call_tool("agent", "search_notes", {"keyword": keyword}, context=ctx)
        if not call.ok:  # only stop words: refused before any ranking
            continue
        total, results = reference_search_notes(ctx, keyword)
        assert call.result["total_matched"] == total and same(call.result["results"], results), keyword


def test_place_search_matches_reference_on_grid_city(grid_ctx):
    _place_search_matches_reference(
        grid_ctx,
        [
            {"query_name": ""},
            {"query_name": "", "place_types": ["coffee house"]},
            {"query_name": "", "place_types": "Pub, Pizzeria", "min_rating": 3.0},
            {"query_name": "kahvila"},
            {"query_name": "kahvila aamu", "geo_tag": ["wifi"]},
            {"query_name": "", "geo_tag": "wifi", "max_cost": 30},
        ],
    )


def test_search_notes_matches_reference_on_grid_city(grid_ctx):
    _search_notes_matches_reference(grid_ctx, ["Koira", "Koira OR Meri", "helsinki", "Koira NOT Meri", '"Koira Meri"'])


def _nearby_matches_reference(ctx, argument_sets):
    for args in argument_sets:
        total, results = reference_nearby(ctx, **args)
        found = agent(ctx, "nearby_search", args)
        assert found["total_matched"] == total and same(found["results"], results), args


def test_nearby_matches_reference_on_grid_city(grid_ctx):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT place_id FROM environment_place WHERE city_id = %s ORDER BY place_id", [grid_ctx.city_id]
        )
        ids = [row[0] for row in cursor.fetchall()]
    route = {"start": ids[0], "end": ids[-1], "vehicle": "walking"}
    _nearby_matches_reference(
        grid_ctx,
        [
            {"center": ids[3], "radius_meters": 300},
            {"center": ids[3], "radius_meters": 5000, "place_types": ["coffee"]},
            *({"center": route, "radius_meters": radius} for radius in (1, 15, 20, 25, 60, 250, 1000)),
            {"center": route, "radius_meters": 400, "min_rating": 3.5, "geo_tag": ["wifi"]},
        ],
    )


def test_bounded_tools_match_reference_on_helsinki(helsinki_ctx):
    maker = ArgumentMaker(helsinki_ctx, seed=3)
    _place_search_matches_reference(helsinki_ctx, [maker.place_search() for _ in range(150)])
    _search_notes_matches_reference(helsinki_ctx, [maker.search_notes()["keyword"] for _ in range(60)])
    argument_sets = []
    for _ in range(80):  # routes with buffers from 1 m to the 1 km limit, some with filters
        args = maker.nearby_route()
        args["radius_meters"] = maker.rng.choice([1, 10, 19.5, 20, 30, 100, 222, 400, 1000])
        args.update(maker.rng.choice([{}, {}, {"place_types": "restaurant"}, {"min_rating": 4.0}, {"geo_tag": "wifi"}]))
        argument_sets.append(args)
    argument_sets += [maker.nearby_place() for _ in range(40)]
    _nearby_matches_reference(helsinki_ctx, argument_sets)


# ---------------------------------------------------------------- caps


def test_place_search_stops_counting_at_the_cap_and_says_so(grid_ctx, monkeypatch):
    everything = agent(grid_ctx, "place_search", {"query_name": ""})
    monkeypatch.setattr(places, "COUNT_CAP", 3)
    monkeypatch.setattr(places, "LIST_CAP", 2)
    capped = agent(grid_ctx, "place_search", {"query_name": ""})
    assert capped["total_matched"] == 3 and capped["total_matched_capped"] is True and capped["truncated"]
    assert capped["results"] == everything["results"][:2]
    assert "more than 3" in capped["note"]


# ---------------------------------------------------------------- the planar bounds along a route


def _planar_and_exact(geometry, points_sql, points_params) -> list[tuple[float, float]]:
    """(planar, exact) distances from each point of ``points_sql`` (a column ``p``; ``r.g`` is the route) to
    the route."""
    lon_m, lat_m, _stretch, _margin = places.planar_scales(geometry)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH r AS (SELECT ST_GeomFromGeoJSON(%s)::geography AS g), q AS ({points_sql}) "
            "SELECT ST_Distance(ST_Scale(q.p::geometry, %s, %s), ST_Scale(r.g::geometry, %s, %s)), "
            "ST_Distance(q.p, r.g) FROM r, q",
            [json.dumps(geometry), *points_params, lon_m, lat_m, lon_m, lat_m],
        )
        return cursor.fetchall()


def test_planar_distance_bounds_the_exact_distance_on_helsinki(helsinki_ctx):
    """Bounds A and B of places._along_route hold for every place within 1.2 km of 40 routes, without
    their margins: planar <= 1.01 x exact and exact <= stretch x planar (beyond 5 m)."""
    maker = ArgumentMaker(helsinki_ctx, seed=11)
    worst_a = worst_b = 0.0  # the largest planar / exact and exact / (stretch x planar)
    checked = 0
    for _ in range(40):
        center = maker.nearby_route()["center"]
        route = places.route_between(
            helsinki_ctx, center["start"], center["end"], vehicle=center["vehicle"], mode="time"
        )
        stretch = places.planar_scales(route.geometry)[2]
        near = "SELECT location AS p FROM environment_place, r WHERE city_id = %s AND ST_DWithin(location, r.g, 1200)"
        for planar, exact in _planar_and_exact(route.geometry, near, [helsinki_ctx.city_id]):
            if planar > 5 and exact > 5:
                worst_a = max(worst_a, planar / (1.01 * exact))
                worst_b = max(worst_b, exact / (stretch * planar))
                checked += 1
    assert checked > 10_000
    assert worst_a < 1 and worst_b < 1, (worst_a, worst_b)


def _great_circle_midpoint(a, b):
    def unit(lon, lat):
        lon, lat = math.radians(lon), math.radians(lat)
        return (math.cos(lat) * math.cos(lon), math.cos(lat) * math.sin(lon), math.sin(lat))

    x, y, z = (p + q for p, q in zip(unit(*a), unit(*b), strict=True))
    return math.degrees(math.atan2(y, x)), math.degrees(math.atan2(z, math.hypot(x, y)))


@pytest.mark.parametrize("latitude", [30.0, 60.2, 75.0])
@pytest.mark.parametrize("length_km", [1, 10, 26, 60])
def test_planar_bounds_hold_beside_long_segments(latitude, length_km):
    """A long east-west segment's great circle bows away from the straight line in longitude and
    latitude: planar_scales' margin grows with it, so both bounds hold for places 100 m north and
    south of the arc's middle (where it bows most)."""
    half = length_km * 500 / (111_320 * math.cos(math.radians(latitude)))
    a, b = (24.9 - half, latitude), (24.9 + half, latitude)
    geometry = {"type": "LineString", "coordinates": [list(a), list(b)]}
    _lon_m, _lat_m, stretch, margin = places.planar_scales(geometry)
    beside = "SELECT ST_Project(ST_SetSRID(ST_MakePoint(%s, %s), 4326)::geography, 100, a) AS p FROM unnest(%s) a"
    rows = _planar_and_exact(geometry, beside, [*_great_circle_midpoint(a, b), [0.0, math.pi]])  # north, south
    assert len(rows) == 2
    for planar, exact in rows:
        assert planar <= 1.01 * exact + margin and exact <= stretch * planar + margin, (planar, exact, margin)
    if length_km <= 10:  # city streets: the 20 m floor
        assert margin == 20.0
    if length_km >= 26 and latitude >= 60:  # past the floor: a fixed 20 m would not cover the bow
        assert margin > 20.0


def test_routes_across_the_antimeridian_or_near_a_pole_are_measured_exactly():
    assert places.planar_scales({"coordinates": [[179.99, -17.0], [-179.99, -17.0]]}) is None
    assert places.planar_scales({"coordinates": [[10.0, 86.0], [10.1, 86.0]]}) is None
    assert places.planar_scales({"coordinates": [[24.9, 60.1], [24.95, 60.2]]}) is not None


def test_nearby_along_a_route_without_planar_scales_matches_reference(helsinki_ctx, monkeypatch):
    """The exact path (every distance computed) answers as the reference does too."""
    monkeypatch.setattr(places, "planar_scales", lambda geometry: None)
    maker = ArgumentMaker(helsinki_ctx, seed=5)
    argument_sets = []
    for radius in (1, 20, 100, 400):
        args = maker.nearby_route()
        args["radius_meters"] = radius
        argument_sets.append(args)
    _nearby_matches_reference(helsinki_ctx, argument_sets)
