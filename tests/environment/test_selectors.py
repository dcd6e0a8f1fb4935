"""environment.selectors, the reads other apps make of the world, on the grid city (real PostGIS)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest
from django.contrib.gis.geos import Point

from environment import selectors
from environment.models import City, EvidenceLabel, Note, Place, SocialFact
from environment.tools.gateway import call_tool
from tests.factories import PLACE_SPECS, node_coord

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_city(grid_city):
    """A second city, built after the grid, holding a place N1 of its own and a note the grid lacks."""
    city = City.objects.create(name="othertown", version="other-1", seed=0, source="tests")
    place = Place.objects.create(
        city=city,
        place_id="N1",
        osm_type="node",
        osm_id=1,
        name="Elsewhere Cafe",
        place_type="Food & Beverages|Coffee House",
        top_type="Food & Beverages",
        location=Point(25.5, 61.5, srid=4326),
    )
    Note.objects.create(
        city=city,
        note_id="other-note",
        place=place,
        kind="about",
        title="t",
        desc="d",
        time=datetime(2025, 1, 1, tzinfo=UTC),
        liked_count=0,
        collected_count=0,
        comment_count=0,
        share_count=0,
    )
    SocialFact.objects.create(
        place=place, kind=SocialFact.STATIC, key="other_key", label="Other", note_ids=["other-note"]
    )
    return city


def grid_position(place_id: str) -> tuple[float, float]:
    i, j = next((i, j) for pid, _, _, i, j, _, _ in PLACE_SPECS if pid == place_id)
    lon, lat = node_coord(i, j)
    return lon + 0.00005, lat + 0.00003  # where grid_places puts a place: just off its street corner


# ------------------------------------------------------------------ cities


def test_city_version_get_is_the_built_version_or_none(grid_city):
    assert selectors.city_version_get(name="gridtown") == grid_city.version
    assert selectors.city_version_get(name="atlantis") is None


def test_city_versions_leave_out_cities_that_are_not_built(grid_city):
    assert selectors.city_versions(names={"gridtown", "atlantis"}) == {"gridtown": grid_city.version}
    assert selectors.city_versions(names=[]) == {}


def test_city_rows_list_the_newest_build_first(grid_city, other_city):
    rows = selectors.city_rows()
    names = [row.name for row in rows]
    assert names.index("othertown") < names.index("gridtown")
    grid = rows[names.index("gridtown")]
    assert (grid.version, grid.seed, grid.scale) == (grid_city.version, grid_city.seed, 1)
    assert grid.report["counts"] == grid_city.report["counts"]


# ------------------------------------------------------------------ places


def test_place_get_returns_the_visible_fields_only(grid_ctx):
    place = selectors.place_get(city_id=grid_ctx.city_id, place_id="N5")
    assert tuple(place) == selectors.PLACE_FIELDS  # no hidden memories, no folded search columns
    assert place["name"] == "Museo Kivi" and place["tag"].startswith("Accessibility: Wheelchair accessible")
    assert place["opentime_week"] == "Tu-Su 10:00-17:00" and place["alias"] == ""


def test_place_get_is_none_for_a_place_the_city_lacks(grid_ctx, other_city):
    assert selectors.place_get(city_id=grid_ctx.city_id, place_id="N99") is None
    assert selectors.place_get(city_id=grid_ctx.city_id, place_id="N1")["name"] == "Kahvila Koira"


def test_place_records_are_every_place_of_the_city_by_place_id(grid_ctx, other_city):
    records = selectors.place_rows(city_id=grid_ctx.city_id)
    assert [r.place_id for r in records] == sorted(pid for pid, *_ in PLACE_SPECS)  # N1, N10, N2, ...
    museum = next(r for r in records if r.place_id == "N5")
    assert (museum.name, museum.place_type) == ("Museo Kivi", "Culture|Museum")
    assert (museum.lon, museum.lat) == pytest.approx(grid_position("N5"), abs=1e-9)


def test_place_points_read_only_the_named_city(grid_city, other_city):
    grid = selectors.place_points(city_name="gridtown", place_ids=["N2", "N1", "N99"])
    assert list(grid) == ["N1", "N2"] and grid["N1"].name == "Kahvila Koira"
    assert (grid["N2"].lon, grid["N2"].lat) == pytest.approx(grid_position("N2"), abs=1e-9)
    other = selectors.place_points(city_name="othertown", place_ids={"N1", "N2"})
    assert other == {"N1": selectors.PlacePoint("N1", "Elsewhere Cafe", 25.5, 61.5)}
    assert selectors.place_points(city_name="atlantis", place_ids=["N1"]) == {}


def test_place_names_are_every_place_of_the_city_by_place_id(grid_ctx, other_city):
    names = selectors.place_names(city_id=grid_ctx.city_id)
    assert names == sorted((pid, name) for pid, name, *_ in PLACE_SPECS)


def test_place_distance_is_what_nearby_search_reports(grid_ctx):
    call = call_tool("agent", "nearby_search", {"center": "N4", "radius_meters": 5000}, context=grid_ctx)
    assert len(call.result["results"]) == 9
    for result in call.result["results"]:
        metres = selectors.place_distance_m(city_id=grid_ctx.city_id, a="N4", b=result["place_id"])
        assert round(metres, 1) == result["distance_m"]


def test_place_distance_is_none_when_a_place_is_missing(grid_ctx, other_city):
    assert selectors.place_distance_m(city_id=grid_ctx.city_id, a="N4", b="N99") is None
    assert selectors.place_distance_m(city_id=other_city.id, a="N1", b="N4") is None  # N4 is the grid's only


def test_place_line_distance_measures_to_the_nearest_point_of_the_line(grid_ctx):
    lon, lat = grid_position("N4")
    through = {"type": "LineString", "coordinates": [[lon - 0.001, lat], [lon + 0.001, lat]]}
    assert selectors.place_line_distance_m(city_id=grid_ctx.city_id, place_id="N4", line=through) < 0.01
    north = {"type": "LineString", "coordinates": [[lon - 0.001, lat + 0.001], [lon + 0.001, lat + 0.001]]}
    metres = selectors.place_line_distance_m(city_id=grid_ctx.city_id, place_id="N4", line=north)
    assert metres == pytest.approx(111.4, abs=0.5)  # 0.001 degrees of latitude
    assert selectors.place_line_distance_m(city_id=grid_ctx.city_id, place_id="N99", line=north) is None


# ------------------------------------------------------------------ hidden facts and notes


@pytest.fixture
def bookstore_facts(grid_ctx):
    """Two facts on the bookstore (N3), of a kind each, with known keys and notes."""
    place = Place.objects.get(city_id=grid_ctx.city_id, place_id="N3")
    notes = list(Note.objects.filter(city_id=grid_ctx.city_id).order_by("note_id").values_list("note_id", flat=True))
    SocialFact.objects.create(
        place=place, kind=SocialFact.STATIC, key="test_reading_corner", label="Reading corner", note_ids=notes[:2]
    )
    SocialFact.objects.create(
        place=place,
        kind=SocialFact.SHORT_TERM,
        key="test_author_visit",
        label="Author visit",
        note_ids=notes[2:3],
        valid_from=date(2026, 12, 1),
        valid_until=date(2026, 12, 10),
    )
    SocialFact.objects.create(
        place=place, kind=SocialFact.LONG_TERM, key="test_reading_corner", label="Again", note_ids=notes[1:4]
    )
    return notes


def test_fact_keys_hold_only_the_kinds_asked_for(grid_ctx, bookstore_facts, other_city):
    keys = selectors.fact_keys(city_id=grid_ctx.city_id, kinds=("static", "long_term"))
    assert "test_reading_corner" in keys["N3"] and "test_author_visit" not in keys["N3"]
    assert all("other_key" not in found for found in keys.values())
    short = selectors.fact_keys(city_id=grid_ctx.city_id, kinds=["short_term"])
    assert "test_author_visit" in short["N3"] and "test_reading_corner" not in short["N3"]
    every = SocialFact.objects.filter(place__city_id=grid_ctx.city_id)
    assert sum(
        map(len, selectors.fact_keys(city_id=grid_ctx.city_id, kinds=("static", "long_term", "short_term")).values())
    ) == len(set(every.values_list("place__place_id", "key")))


def test_fact_exists_for_any_kind_at_that_place_only(grid_ctx, bookstore_facts):
    assert selectors.fact_exists(city_id=grid_ctx.city_id, place_id="N3", key="test_author_visit")
    assert not selectors.fact_exists(city_id=grid_ctx.city_id, place_id="N4", key="test_author_visit")
    assert not selectors.fact_exists(city_id=grid_ctx.city_id, place_id="N3", key="no_such_key")


def test_a_dated_state_exists_only_on_its_days(grid_ctx, bookstore_facts):
    on = {"city_id": grid_ctx.city_id, "place_id": "N3", "key": "test_author_visit"}
    assert selectors.fact_exists(**on, on=date(2026, 12, 7)) and selectors.fact_exists(**on, on=date(2026, 12, 10))
    assert not selectors.fact_exists(**on, on=date(2026, 12, 11)) and not selectors.fact_exists(
        **on, on=date(2025, 12, 7)
    )
    lasting = {"city_id": grid_ctx.city_id, "place_id": "N3", "key": "test_reading_corner"}
    assert selectors.fact_exists(**lasting, on=date(2019, 1, 1))  # a fact without dates holds on any day


def test_fact_held_applies_the_evidence_rule_to_the_labels_at_a_moment(grid_ctx):
    place = Place.objects.get(city_id=grid_ctx.city_id, place_id="N3")
    notes = list(Note.objects.filter(city_id=grid_ctx.city_id).order_by("note_id")[:3])
    season = {"valid_from": date(2026, 11, 20), "valid_until": date(2027, 3, 9)}
    label = {"place": place, "kind": "short_term", "key": "test_heated_terrace", "label": "Event: Heated terrace"}
    for note in notes[:2]:
        EvidenceLabel.objects.create(note=note, stance="supports", text="Heaters out on the terrace", **label, **season)
    held = {"city_id": grid_ctx.city_id, "place_id": "N3", "key": "test_heated_terrace"}
    assert selectors.fact_held(**held, at=datetime(2026, 12, 8, 12, tzinfo=UTC))
    assert not selectors.fact_held(**held, at=datetime(2027, 4, 1, 12, tzinfo=UTC))  # the season is over
    assert not selectors.fact_held(**{**held, "place_id": "N4"}, at=datetime(2026, 12, 8, 12, tzinfo=UTC))
    EvidenceLabel.objects.filter(note=notes[1]).update(stance="hearsay")  # one report and a rumour: not enough
    assert not selectors.fact_held(**held, at=datetime(2026, 12, 8, 12, tzinfo=UTC))


def test_fact_note_ids_join_the_notes_of_every_fact_with_the_key(grid_ctx, bookstore_facts):
    notes = bookstore_facts
    assert selectors.fact_note_ids(city_id=grid_ctx.city_id, place_id="N3", key="test_reading_corner") == set(notes[:4])
    assert selectors.fact_note_ids(city_id=grid_ctx.city_id, place_id="N3", key="no_such_key") == frozenset()


def test_note_ids_existing_keep_only_the_citys_notes(grid_ctx, other_city):
    some = list(Note.objects.filter(city_id=grid_ctx.city_id).values_list("note_id", flat=True)[:3])
    found = selectors.note_ids_existing(city_id=grid_ctx.city_id, note_ids=[*some, "other-note", "nope"])
    assert found == frozenset(some)


# ------------------------------------------------------------------ roads


def test_road_geometries_are_merged_per_class_in_class_order(grid_city):
    rows = selectors.road_geometries_by_class(
        city_name="gridtown", classes={"major": ["primary"]}, rest="minor", tolerance_deg=0.00002
    )
    assert [cls for cls, _ in rows] == ["major", "minor"]
    major, minor = (json.loads(geometry) for _, geometry in rows)
    assert major["type"] == "MultiLineString" and len(major["coordinates"]) == 1  # Column 4 Avenue
    assert major["coordinates"][0][0] == [24.948, 60.17]  # its first node, to 6 decimals
    assert len(minor["coordinates"]) == 9


def test_road_geometries_give_each_segment_to_the_first_class_listing_it(grid_city):
    rows = selectors.road_geometries_by_class(
        city_name="gridtown",
        rest="z",
        classes={"b": ["residential", "primary"], "a": ["residential"]},
        tolerance_deg=0.00002,
    )
    assert [cls for cls, _ in rows] == ["b"]  # no segment is left for "a" or the rest
    rest_only = selectors.road_geometries_by_class(city_name="gridtown", classes={}, rest="all", tolerance_deg=0)
    assert [cls for cls, _ in rest_only] == ["all"] and len(json.loads(rest_only[0][1])["coordinates"]) == 10
    assert selectors.road_geometries_by_class(city_name="atlantis", classes={}, rest="all", tolerance_deg=0) == []
