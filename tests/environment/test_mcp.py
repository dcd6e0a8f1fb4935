"""The MCP server, driven by the official SDK's own client over stdio and streamable HTTP.

The server runs as a real subprocess (``manage.py mcp_server``) against the test database,
where the session fixture ``grid_city`` has committed the small grid city "gridtown".
"""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
from mcp import Client, StdioServerParameters

from environment.mcp_server import server_instructions
from environment.tools.registry import tool_names, tools_for
from tests.processes import REPO, child_env, free_port, http_server

pytestmark = pytest.mark.django_db

CITY = "gridtown"

# One valid call per agent tool; note_detail takes its note_id from the search_notes result.
AGENT_CALLS = [
    ("place_search", {"query_name": "Kahvila"}),
    ("place_detail", {"place_id": "N4"}),
    ("nearby_search", {"center": "N4", "radius_meters": 300}),
    ("routing", {"start_place_id": "N1", "end_place_id": "N5", "vehicle": "walking"}),
    ("search_notes", {"keyword": "Koira"}),
    ("note_detail", None),
    ("submit_answer", {"result": {"plan": ["N1", "N5"]}}),
]
BAD_CALLS = {
    "negative_radius": ("nearby_search", {"center": "N1", "radius_meters": -5}),
    "unknown_place": ("place_detail", {"place_id": "N999"}),
}


# ---------------------------------------------------------------- server processes


def _manage_args(toolset: str, transport: str, *extra: str) -> list[str]:
    return ["manage.py", "mcp_server", "--toolset", toolset, "--transport", transport, "--city", CITY, *extra]


def _stdio_params(toolset: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=_manage_args(toolset, "stdio"), env=child_env(), cwd=str(REPO)
    )


@pytest.fixture(scope="module")
def http_url(grid_city):
    """A streamable-HTTP MCP server (agent toolset) in a subprocess, stopped after the module."""
    port = free_port()
    with http_server(_manage_args("agent", "http", "--host", "127.0.0.1", "--port", str(port))[1:], port=port) as url:
        yield url


# ---------------------------------------------------------------- one session per transport


async def _agent_session(server) -> dict:
    """List the tools, call each agent tool once and make the bad calls; return what came back."""
    async with Client(server) as client:
        listing, instructions = await client.list_tools(), client.instructions
        calls = {}
        for name, arguments in AGENT_CALLS:
            if name == "note_detail":
                arguments = {"note_id": calls["search_notes"].structured_content["results"][0]["note_id"]}
            calls[name] = await client.call_tool(name, arguments)
        bad = {label: await client.call_tool(name, args) for label, (name, args) in BAD_CALLS.items()}
    return {"tools": listing.tools, "calls": calls, "bad": bad, "instructions": instructions}


def _max_log_id() -> int:
    from django.db.models import Max

    from environment.models import ToolCallLog

    return ToolCallLog.objects.aggregate(top=Max("id"))["top"] or 0


@pytest.fixture(scope="module", params=["stdio", "http"])
def agent_session(request, grid_city, django_db_blocker):
    """The outcome of one agent session over each transport, and the ToolCallLog rows it left."""
    from environment.models import ToolCallLog

    with django_db_blocker.unblock():
        first_id = _max_log_id()
    server = _stdio_params("agent") if request.param == "stdio" else request.getfixturevalue("http_url")
    outcome = asyncio.run(_agent_session(server))
    with django_db_blocker.unblock():
        outcome["logs"] = list(ToolCallLog.objects.filter(id__gt=first_id).order_by("id"))
    outcome["transport"] = request.param
    return outcome


# ---------------------------------------------------------------- agent toolset


def test_lists_the_agent_tools_in_order_with_the_papers_descriptions(agent_session):
    tools = agent_session["tools"]
    assert [t.name for t in tools] == [t.name for t in tools_for("agent")]
    assert all(t.description and t.input_schema["type"] == "object" for t in tools)
    schema = {t.name: t.input_schema for t in tools}
    assert schema["place_search"]["properties"]["query_name"]["description"] == "REQUIRED: Place name in local language"
    assert schema["place_search"]["required"] == ["query_name"]
    assert schema["nearby_search"]["properties"]["radius_meters"]["default"] == 100.0
    assert "'AND'/'OR'/'NOT'" in schema["search_notes"]["properties"]["keyword"]["description"]


def test_the_instructions_name_the_registered_tools_of_the_toolset(agent_session):
    assert agent_session["instructions"] == server_instructions("agent")
    assert all(name in agent_session["instructions"] for name in tool_names("agent"))
    engine = server_instructions("engine")
    assert "multi_stop_routing" in engine and "sample_place" in engine
    assert "place_detail" not in engine and "note_detail" not in engine  # the engine toolset has neither


def test_every_agent_tool_answers_with_structured_content_and_the_same_json_text(agent_session):
    for name, result in agent_session["calls"].items():
        assert result.is_error is False, (name, result.structured_content)
        assert json.loads(result.content[0].text) == result.structured_content, name


def test_place_search_and_nearby_search_return_light_place_lists(agent_session):
    calls = agent_session["calls"]
    search = calls["place_search"].structured_content
    assert {r["name"] for r in search["results"]} == {"Kahvila Koira", "Kahvila Aamu"}
    assert set(search["results"][0]) == {"place_id", "name", "place_type", "rating", "cost"}
    nearby = calls["nearby_search"].structured_content
    assert nearby["center"]["place_id"] == "N4" and nearby["returned"] > 0
    distances = [r["distance_m"] for r in nearby["results"]]
    assert distances == sorted(distances) and max(distances) <= 300
    assert "N4" not in {r["place_id"] for r in nearby["results"]}


def test_place_detail_has_the_detail_fields_and_no_social_memory(agent_session):
    detail = agent_session["calls"]["place_detail"].structured_content
    assert set(detail) == {
        "place_id",
        "name",
        "place_type",
        "address",
        "opentime_week",
        "rating",
        "cost",
        "tag",
        "alias",
    }
    assert detail["name"] == "Hotel Aurora" and "long_mem" not in detail


def test_routing_notes_and_answer_over_mcp(agent_session):
    calls = agent_session["calls"]
    route = calls["routing"].structured_content
    assert route["start"]["place_id"] == "N1" and route["end"]["name"] == "Museo Kivi"
    assert route["total_distance_m"] > 0 and route["geometry"]["type"] == "LineString" and route["steps"]
    notes = calls["search_notes"].structured_content
    assert notes["returned"] > 0 and "desc" not in notes["results"][0]
    note = calls["note_detail"].structured_content
    assert note["note_id"] == notes["results"][0]["note_id"] and "desc" in note and "comments" in note
    assert calls["submit_answer"].structured_content == {"status": "submitted", "result": {"plan": ["N1", "N5"]}}


def test_bad_calls_are_error_results_naming_the_parameter(agent_session):
    radius = agent_session["bad"]["negative_radius"]
    assert radius.is_error is True
    assert radius.structured_content["error"]["kind"] == "invalid_parameter"
    assert radius.structured_content["error"]["parameter"] == "radius_meters"
    unknown = agent_session["bad"]["unknown_place"]
    assert unknown.is_error is True
    assert unknown.structured_content["error"] == {
        "kind": "not_found",
        "parameter": "place_id",
        "message": "no place with place_id 'N999'; use an id from place_search or nearby_search",
    }
    assert json.loads(unknown.content[0].text) == unknown.structured_content


def test_calls_over_mcp_are_recorded_in_the_tool_call_log(agent_session):
    logs = agent_session["logs"]
    expected = [name for name, _ in AGENT_CALLS] + [name for name, _ in BAD_CALLS.values()]
    assert [log.tool for log in logs] == expected
    assert len({log.session for log in logs}) == 1 and logs[0].session.startswith("mcp-agent-")
    assert all(log.toolset == "agent" and log.city_version == "grid-1" for log in logs)
    assert logs[1].arguments == {"place_id": "N4"} and logs[1].result["name"] == "Hotel Aurora"
    assert [log.error_kind for log in logs[-2:]] == ["invalid_parameter", "not_found"]
    assert logs[-1].result is None and logs[-1].error["parameter"] == "place_id"


# ---------------------------------------------------------------- engine toolset


async def _engine_session(server) -> tuple:
    async with Client(server) as client:
        listing = await client.list_tools()
        route = await client.call_tool(
            "multi_stop_routing", {"stop_ids": ["N1", "N4", "N5"], "start_id": "N1", "vehicle": "walking"}
        )
        too_few = await client.call_tool("multi_stop_routing", {"stop_ids": ["N1"]})
    return listing.tools, route, too_few


def test_engine_toolset_over_stdio_lists_its_tools_and_plans_multi_stop_routes(grid_city):
    tools, route, too_few = asyncio.run(_engine_session(_stdio_params("engine")))
    assert [t.name for t in tools] == [t.name for t in tools_for("engine")]
    sample = next(t for t in tools if t.name == "sample_place")
    assert sample.input_schema["properties"]["num_samples"]["default"] == 10
    assert route.is_error is False
    plan = route.structured_content
    assert plan["total_orderings"] == 2 and plan["start_id"] == "N1"
    best, second = plan["orderings"]
    assert best["order"][0]["place_id"] == "N1" and best["total_time_s"] <= second["total_time_s"]
    assert sum(leg["distance_m"] for leg in plan["best_legs"]) == pytest.approx(best["total_distance_m"])
    assert too_few.is_error is True and too_few.structured_content["error"]["parameter"] == "stop_ids"


# ---------------------------------------------------------------- in process


def test_a_city_that_is_not_built_is_an_error_not_the_default_city(grid_city):
    from environment.mcp_server import build_server

    async def search():
        async with Client(build_server(toolset="agent", city="atlantis", record=False)) as client:
            return await client.call_tool("place_search", {"query_name": "Kahvila"})

    result = asyncio.run(search())
    assert result.is_error is True
    assert result.structured_content["error"]["kind"] == "other"
    assert "'atlantis' is not built" in result.structured_content["error"]["message"]
