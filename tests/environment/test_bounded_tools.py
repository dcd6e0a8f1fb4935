"""The bounded-cost place_search and route-buffer nearby_search answer exactly as the
implementations they replaced (kept here as slow references), on the grid city and on Helsinki,
and place_search marks its count when the cap stops it. search_notes is compared too: it must
keep ranking every match in Helsinki."""

import json

import pytest
from django.db import connection

from environment.bench import ArgumentMaker
from environment.text import fold
from environment.tools import notes, places
from environment.tools.gateway import call_tool
from environment.tools.keywords import parse_keywords, to_tsquery_sql

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


def reference_route_nearby(ctx, center, radius_meters):
    """The spheroid ST_DWithin and ST_Distance against every place in the route's box."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(places, "_route_candidates", lambda *args: None)  # no candidate subquery: the whole box
        return places.nearby_search(ctx, places.RouteCenter(**center), float(radius_meters))


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


def test_bounded_tools_match_reference_on_helsinki(helsinki_ctx):
    maker = ArgumentMaker(helsinki_ctx, seed=3)
    _place_search_matches_reference(helsinki_ctx, [maker.place_search() for _ in range(150)])
    _search_notes_matches_reference(helsinki_ctx, [maker.search_notes()["keyword"] for _ in range(60)])
    for _ in range(60):
        args = maker.nearby_route()
        args["radius_meters"] = maker.rng.choice([1, 10, 30, 100, 400, 1000])
        expected = reference_route_nearby(helsinki_ctx, **args)
        assert same(agent(helsinki_ctx, "nearby_search", args), expected), args


# ---------------------------------------------------------------- caps


def test_place_search_stops_counting_at_the_cap_and_says_so(grid_ctx, monkeypatch):
    everything = agent(grid_ctx, "place_search", {"query_name": ""})
    monkeypatch.setattr(places, "COUNT_CAP", 3)
    monkeypatch.setattr(places, "LIST_CAP", 2)
    capped = agent(grid_ctx, "place_search", {"query_name": ""})
    assert capped["total_matched"] == 3 and capped["total_matched_capped"] is True and capped["truncated"]
    assert capped["results"] == everything["results"][:2]
    assert "more than 3" in capped["note"]
