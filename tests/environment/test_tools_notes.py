"""search_notes and note_detail on the grid city's generated corpus (PostgreSQL full-text search)."""

import pytest

from environment.tools.gateway import call_tool
from environment.tools.notes import FULL_FIELDS, LIGHT_FIELDS

pytestmark = pytest.mark.django_db


def search(ctx, keyword, toolset="agent"):
    return call_tool(toolset, "search_notes", {"keyword": keyword}, context=ctx)


def total(ctx, keyword):
    call = search(ctx, keyword)
    assert call.ok, call.error
    return call.result["total_matched"]


def test_search_notes_finds_notes_by_place_name_with_lightweight_fields(grid_ctx):
    call = search(grid_ctx, "Koira")
    assert call.ok and call.result["total_matched"] > 0
    assert all(list(r) == list(LIGHT_FIELDS) for r in call.result["results"])


def test_engine_search_notes_returns_full_text_and_comments(grid_ctx):
    call = search(grid_ctx, "Koira", toolset="engine")
    first = call.result["results"][0]
    assert set(FULL_FIELDS) <= set(first) and isinstance(first["comments"], list)
    assert len(call.result["results"]) <= 10


def test_keyword_logic_obeys_set_algebra(grid_ctx):
    a, b, c = "Koira", "Meri", "helsinki"
    assert total(grid_ctx, f"{a} NOT {b}") + total(grid_ctx, f"{a} AND {b}") == total(grid_ctx, a)
    assert total(grid_ctx, f"{a} OR {b}") == total(grid_ctx, a) + total(grid_ctx, b) - total(grid_ctx, f"{a} {b}")
    grouped = total(grid_ctx, f"({a} OR {b}) AND {c}")
    assert grouped == total(grid_ctx, f"{a} {c}") + total(grid_ctx, f"{b} {c}") - total(grid_ctx, f"{a} {b} {c}")


def test_search_notes_stems_english_words(grid_ctx):
    assert total(grid_ctx, "coffees") == total(grid_ctx, "coffee")


def test_long_result_lists_are_truncated_and_say_so(grid_ctx):
    call = search(grid_ctx, "helsinki OR coffee OR cafe OR good")
    assert call.result["total_matched"] > 20 and call.result["returned"] == 20
    assert call.result["truncated"] and call.error_kind == "truncated" and "Showing 20" in call.result["note"]


def test_search_notes_order_is_deterministic(grid_ctx):
    assert search(grid_ctx, "Koira OR Meri").result == search(grid_ctx, "Koira OR Meri").result


@pytest.mark.parametrize("keyword", ["cafe AND", "(Koira", "OR", "", "the", '"'])
def test_malformed_or_empty_keywords_are_invalid_parameters(grid_ctx, keyword):
    call = search(grid_ctx, keyword)
    assert call.error_kind == "invalid_parameter" and call.error["parameter"] == "keyword"
    assert call.error["message"] and call.error["allowed"]


def test_note_detail_returns_the_full_post_with_its_comments(grid_ctx):
    note_id = search(grid_ctx, "Koira").result["results"][0]["note_id"]
    call = call_tool("agent", "note_detail", {"note_id": note_id}, context=grid_ctx)
    assert list(call.result)[: len(FULL_FIELDS)] == list(FULL_FIELDS)
    assert call.result["comment_count"] == len(call.result["comments"])
    times = [c["time"] for c in call.result["comments"]]
    assert times == sorted(times)


def test_note_detail_unknown_id_is_not_found(grid_ctx):
    call = call_tool("agent", "note_detail", {"note_id": "ffffffffffffffffffffffff"}, context=grid_ctx)
    assert call.error_kind == "not_found" and call.error["parameter"] == "note_id"
