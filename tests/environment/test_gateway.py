"""The tool gateway: validation, structured errors, recording, and no leaked stack traces."""

import json

import pytest

from environment.tools import places
from environment.tools.gateway import call_tool
from environment.tools.registry import get_tool, tools_for
from environment.tools.spec import tool

pytestmark = pytest.mark.django_db

AGENT_TOOLS = [
    "place_search",
    "place_detail",
    "nearby_search",
    "routing",
    "search_notes",
    "note_detail",
    "submit_answer",
]
ENGINE_TOOLS = [
    "place_search",
    "nearby_search",
    "routing",
    "sample_place",
    "multi_stop_routing",
    "search_notes",
    "submit_answer",
]


def test_toolsets_match_the_papers_tables_7_and_8():
    assert [t.name for t in tools_for("agent")] == AGENT_TOOLS
    assert [t.name for t in tools_for("engine")] == ENGINE_TOOLS


def test_paper_parameter_descriptions_are_in_the_schema():
    params = get_tool("agent", "place_search").parameters
    assert params["query_name"]["description"] == "REQUIRED: Place name in local language"
    assert params["query_name"]["required"] is True
    nearby = get_tool("agent", "nearby_search").parameters
    assert nearby["radius_meters"]["default"] == 100.0
    assert "'AND'/'OR'/'NOT'" in get_tool("agent", "search_notes").parameters["keyword"]["description"]


def test_registering_a_duplicate_tool_is_rejected():
    with pytest.raises(ValueError, match="already registered"):
        tool("place_detail", toolsets=("agent",))(lambda ctx, place_id: None)


def test_unknown_tool_lists_the_tools_of_the_toolset(grid_ctx):
    call = call_tool("agent", "teleport", {}, context=grid_ctx)
    assert call.error_kind == "not_found" and "place_search" in call.error["allowed"]
    engine_only = call_tool("agent", "sample_place", {"num_samples": 3}, context=grid_ctx)
    assert engine_only.error_kind == "not_found"


def test_arguments_may_be_a_json_string_but_must_be_an_object(grid_ctx):
    ok = call_tool("agent", "place_detail", json.dumps({"place_id": "N1"}), context=grid_ctx)
    assert ok.ok and ok.result["name"] == "Kahvila Koira"
    bad_json = call_tool("agent", "place_detail", "{place_id: N1", context=grid_ctx)
    assert bad_json.error_kind == "invalid_parameter" and "not valid JSON" in bad_json.error["message"]
    not_object = call_tool("agent", "place_detail", ["N1"], context=grid_ctx)
    assert "must be a JSON object" in not_object.error["message"]


def test_unknown_parameter_names_it_and_lists_the_allowed_ones(grid_ctx):
    call = call_tool("agent", "place_detail", {"place_id": "N1", "verbose": True}, context=grid_ctx)
    assert call.error["parameter"] == "verbose" and "place_id" in call.error["allowed"]


def test_a_bug_in_a_tool_is_an_error_without_a_stack_trace(grid_ctx, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("database exploded at /srv/secret/path.py line 3")

    monkeypatch.setattr(places, "place_row", explode)
    call = call_tool("agent", "place_detail", {"place_id": "N1"}, context=grid_ctx)
    assert call.error_kind == "other" and call.error["message"] == "internal error in tool 'place_detail'"
    assert "secret" not in json.dumps(call.to_dict())


def test_recorder_receives_every_call_with_latency_and_version(grid_ctx):
    seen = []
    call_tool("agent", "place_detail", {"place_id": "N1"}, context=grid_ctx, recorder=seen.append)
    call_tool("agent", "place_detail", {"place_id": "nope"}, context=grid_ctx, recorder=seen.append)
    assert [c.ok for c in seen] == [True, False]
    assert all(c.latency_ms >= 0 and c.tool_version == "1.0" and c.city_version == grid_ctx.city_version for c in seen)
    assert seen[1].error_kind == "not_found"


def test_missing_city_is_a_readable_error(settings):
    settings.LIFEPLANNER_CITY = "atlantis"
    call = call_tool("agent", "place_detail", {"place_id": "N1"})
    assert call.error_kind == "other" and "build_city" in call.error["message"]


def test_submit_answer_accepts_objects_and_json_strings_only(grid_ctx):
    ok = call_tool("agent", "submit_answer", {"result": {"name": "Kahvila Koira", "place_id": "N1"}}, context=grid_ctx)
    assert ok.result == {"status": "submitted", "result": {"name": "Kahvila Koira", "place_id": "N1"}}
    from_text = call_tool("agent", "submit_answer", {"result": '[{"place_id": "N1"}]'}, context=grid_ctx)
    assert from_text.result["result"] == [{"place_id": "N1"}]
    for bad in ("just words", 42, None):
        call = call_tool("agent", "submit_answer", {"result": bad}, context=grid_ctx)
        assert call.error_kind == "invalid_parameter" and call.error["parameter"] == "result"
