"""The built-in agents' toolbox calls the MCP server in process, without a client session: what it
observes must be what a real MCP client of the same server gets, call for call, errors included."""

from __future__ import annotations

import asyncio
import json

from mcp import Client

from benchmark.agents.toolbox import Toolbox
from environment.mcp_server import build_server

CALLS = [
    ("place_search", {"query_name": "Kahvila"}),
    ("place_search", {"place_types": "cafe", "min_rating": 3}),
    ("place_detail", {"place_id": "N4"}),
    ("place_detail", {"place_id": "N999"}),  # not found
    ("nearby_search", {"center": "N4", "radius_meters": 300}),
    ("nearby_search", {"center": "N1", "radius_meters": -5}),  # invalid
    ("routing", {"start_place_id": "N1", "end_place_id": "N5", "vehicle": "walking"}),
    ("routing", {"start_place_id": "N1", "end_place_id": "N5", "vehicle": "rocket"}),  # invalid
    ("search_notes", {"keyword": "Koira"}),
    ("search_notes", {"keyword": "zzzz-nothing"}),  # empty result
    ("note_detail", {"note_id": "no-such-note"}),
    ("place_search", {"unknown_parameter": 1}),
    ("no_such_tool", {}),
    ("submit_answer", {"result": {"plan": ["N1", "N5"], "note": 'quoted "text" and Ünïcödé ✓'}}),
]


async def _through_a_client(city: str) -> tuple[list, list]:
    """(tool definitions, [(observation, is_error, error kind)]) as the official SDK's client gets them."""
    async with Client(build_server(toolset="agent", city=city, record=False)) as client:
        tools = list((await client.list_tools()).tools)
        seen = []
        for tool, arguments in CALLS:
            result = await client.call_tool(tool, arguments)
            text = "".join(getattr(c, "text", "") for c in result.content)
            assert result.structured_content == json.loads(text)  # a client gets one observation, twice
            seen.append((result.structured_content, bool(result.is_error), (result.meta or {}).get("error_kind", "")))
        return tools, seen


async def _through_the_toolbox(city: str) -> tuple[list, list]:
    async with Toolbox(city=city, budget=100) as toolbox:
        tools = await toolbox.list_tools()
        seen = []
        for tool, arguments in CALLS:
            observation, is_error = await toolbox.call(tool, arguments)
            seen.append((observation, is_error, toolbox.steps[-1].error_kind))
        return tools, seen


def test_the_toolbox_observes_exactly_what_an_mcp_client_gets(grid_city, django_db_blocker):
    with django_db_blocker.unblock():  # the tools read the committed grid city from their own threads
        client_tools, by_client = asyncio.run(_through_a_client(grid_city.name))
        toolbox_tools, by_toolbox = asyncio.run(_through_the_toolbox(grid_city.name))
    assert [(t.name, t.description, t.input_schema) for t in toolbox_tools] == [
        (t.name, t.description, t.input_schema) for t in client_tools
    ]
    assert len(by_toolbox) == len(CALLS)
    for (tool, arguments), mine, theirs in zip(CALLS, by_toolbox, by_client, strict=True):
        assert json.dumps(mine, ensure_ascii=False) == json.dumps(theirs, ensure_ascii=False), (tool, arguments)
    kinds = {kind for _, _, kind in by_toolbox}
    assert {"not_found", "invalid_parameter", "empty_result", ""} <= kinds  # the calls cover errors and results


def test_a_cases_server_looks_its_city_up_once(grid_city, django_db_blocker, monkeypatch):
    import environment.mcp_server as mcp_server

    lookups = []
    real = mcp_server.city_context
    monkeypatch.setattr(mcp_server, "city_context", lambda name: lookups.append(name) or real(name))

    async def three_calls():
        async with Toolbox(city=grid_city.name, budget=10) as toolbox:
            for _ in range(3):
                observation, is_error = await toolbox.call("place_detail", {"place_id": "N4"})
                assert not is_error and observation["place_id"] == "N4"

    with django_db_blocker.unblock():
        asyncio.run(three_calls())
    assert lookups == [grid_city.name]


def test_a_closed_toolbox_names_the_city_version_its_calls_answered_from(grid_city, django_db_blocker):
    """What trajectory_finish hands to scoring, so that the case is scored against the world the agent saw."""

    async def one_call() -> Toolbox:
        async with Toolbox(city=grid_city.name, budget=5) as toolbox:
            await toolbox.call("place_detail", {"place_id": "N4"})
        return toolbox

    with django_db_blocker.unblock():
        toolbox = asyncio.run(one_call())
    assert toolbox.pinned_city is not None
    assert (toolbox.pinned_city.city_name, toolbox.pinned_city.city_version) == (grid_city.name, grid_city.version)
