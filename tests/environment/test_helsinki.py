"""The real Helsinki build in PostGIS: counts, the corpus, hidden facts and what agents can see."""

import json
from collections import Counter

import pytest
from django.db.models import Count, F

from environment.models import Comment, Note, Place, RoadSegment, SocialFact
from environment.tools.gateway import call_tool

pytestmark = pytest.mark.django_db


def test_build_report_counts_match_the_database(helsinki):
    counts = helsinki.report["counts"]
    assert counts["places"] == Place.objects.filter(city=helsinki).count() == 1459
    assert counts["notes"] == Note.objects.filter(city=helsinki).count() >= 20_000
    assert counts["comments"] == Comment.objects.filter(note__city=helsinki).count() >= 180_000
    assert sum(helsinki.report["places_by_top_type"].values()) == 1459
    assert helsinki.version and len(helsinki.version) == 64


def test_corpus_respects_the_papers_limits(helsinki):
    per_place = Note.objects.filter(city=helsinki, place__isnull=False).values("place").annotate(n=Count("id"))
    assert max(row["n"] for row in per_place) <= 20
    per_note = Comment.objects.filter(note__city=helsinki).values("note").annotate(n=Count("id"))
    assert max(row["n"] for row in per_note) <= 10
    written = Note.objects.filter(city=helsinki).annotate(n=Count("comments"))
    assert not written.exclude(comment_count=F("n")).exists()


def test_every_hidden_fact_is_supported_by_real_notes(helsinki):
    note_ids = set(Note.objects.filter(city=helsinki).values_list("note_id", flat=True))
    facts = SocialFact.objects.filter(place__city=helsinki)
    assert facts.count() > 1459
    assert Counter(facts.values_list("kind", flat=True)).keys() == {"static", "long_term", "short_term"}
    for fact in facts.iterator():
        assert fact.note_ids and set(fact.note_ids) <= note_ids, fact.label


def test_hidden_memory_is_distilled_onto_places_but_never_shown_to_agents(helsinki, helsinki_ctx):
    place = Place.objects.filter(city=helsinki).exclude(long_mem="").first()
    assert place.long_mem and place.facts.exists()
    outputs = [
        call_tool("agent", "place_detail", {"place_id": place.place_id}, context=helsinki_ctx),
        call_tool("agent", "place_search", {"query_name": place.name}, context=helsinki_ctx),
        call_tool("agent", "nearby_search", {"center": place.place_id, "radius_meters": 300}, context=helsinki_ctx),
    ]
    for call in outputs:
        text = json.dumps(call.result)
        assert call.ok and "long_mem" not in text and "short_mem" not in text
    engine = call_tool("engine", "place_search", {"query_name": place.name}, context=helsinki_ctx)
    assert any(r["long_mem"] == place.long_mem for r in engine.result["results"])


def test_social_static_tags_are_searchable_with_geo_tag(helsinki, helsinki_ctx):
    fact = SocialFact.objects.filter(place__city=helsinki, kind="static").order_by("id").first()
    keyword = fact.label.split(":", 1)[-1].strip()
    call = call_tool("agent", "place_search", {"query_name": "", "geo_tag": [keyword]}, context=helsinki_ctx)
    assert fact.place.place_id in [r["place_id"] for r in call.result["results"]] or call.result["truncated"]


def test_memories_are_hidden_from_geo_tag_and_found_by_the_engines_social_mem(helsinki, helsinki_ctx):
    """What settles an L2 case (a long-term or short-term fact) is not in any field an agent's filter reads."""
    facts = SocialFact.objects.filter(place__city=helsinki, kind__in=("long_term", "short_term")).order_by("id")
    for fact in facts[:40]:
        keyword = fact.label.split(":", 1)[-1].split(" (")[0].strip()
        place = fact.place
        assert keyword.lower() not in place.tag.lower()
        named = {"query_name": place.name, "geo_tag": [keyword]}
        agent = call_tool("agent", "place_search", named, context=helsinki_ctx)
        assert (
            place.place_id not in [r["place_id"] for r in agent.result["results"]]
            or keyword.lower() in (place.name + place.alias).lower()
        )
        engine = call_tool(
            "engine", "place_search", {"query_name": place.name, "social_mem": [keyword]}, context=helsinki_ctx
        )
        assert place.place_id in [r["place_id"] for r in engine.result["results"]]


def test_synthetic_rating_and_cost_are_marked(helsinki):
    places = Place.objects.filter(city=helsinki)
    assert places.filter(rating_cost_synthetic=False).count() == 0
    assert places.exclude(rating=None).count() > 1000
    assert all(1.0 <= r <= 5.0 for r in places.exclude(rating=None).values_list("rating", flat=True))


def test_opening_hours_are_kept_as_text_and_flagged_when_malformed(helsinki):
    with_hours = Place.objects.filter(city=helsinki).exclude(opentime_week="")
    assert with_hours.count() == 541
    invalid = with_hours.filter(opening_hours_valid=False)
    assert 0 < invalid.count() < 30


def test_broad_search_is_truncated_with_the_true_count(helsinki_ctx):
    call = call_tool("agent", "place_search", {"query_name": ""}, context=helsinki_ctx)
    assert call.result["total_matched"] == 1459 and call.result["returned"] == 20
    assert call.error_kind == "truncated"


def test_search_notes_runs_over_comments_too(helsinki, helsinki_ctx):
    comment = Comment.objects.filter(note__city=helsinki, content__icontains="packed").order_by("id").first()
    call = call_tool("engine", "search_notes", {"keyword": "packed"}, context=helsinki_ctx)
    assert call.result["total_matched"] >= 1
    ids = set(Note.objects.filter(city=helsinki, search_vector__isnull=False).values_list("note_id", flat=True))
    assert comment.note.note_id in ids


def test_routing_between_helsinki_places_of_each_vehicle(helsinki_ctx):
    a, b = "N247416118", "N2270234283"  # Jääpuiston kahvila, Musiikkitalon kahvila
    for vehicle in ("walking", "cycling", "driving"):
        call = call_tool(
            "agent", "routing", {"start_place_id": a, "end_place_id": b, "vehicle": vehicle}, context=helsinki_ctx
        )
        assert call.ok and call.result["total_distance_m"] > 100, (vehicle, call.error)
        assert call.result["steps"][-1]["instruction"].startswith("Arrive")


def test_places_never_snap_into_underground_tunnels(helsinki, helsinki_ctx):
    surface = set()
    for nodes in RoadSegment.objects.filter(city=helsinki, tunnel=False, walk=True).values_list("node_ids", flat=True):
        surface.update(nodes)
    assert RoadSegment.objects.filter(city=helsinki, tunnel=True).exists()
    net = helsinki_ctx.network
    for pid in Place.objects.filter(city=helsinki).values_list("place_id", flat=True):
        assert net.snap(pid, "walking").node_id in surface, pid
    # Cafe Kuppi & Muffini sits above Kamppi's service tunnels; its neighbours are a short walk away.
    around = call_tool(
        "agent", "nearby_search", {"center": "N2548994901", "radius_meters": 40}, context=helsinki_ctx
    ).result["results"]
    assert around
    for neighbour in around:
        route = net.route("N2548994901", neighbour["place_id"], vehicle="walking", mode="distance")
        assert route.total_distance_m < 300, neighbour
