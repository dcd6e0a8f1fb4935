"""Bad input over MCP (the SDK's own client, stdio, ``manage.py mcp_server`` in a subprocess).

Each bad argument comes back as a tool error naming the argument, never as a database error,
and every call, refused or not, is in the tool call log.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
from mcp import Client, StdioServerParameters

from tests.processes import REPO, child_env

pytestmark = pytest.mark.django_db

BAD_CALLS = {
    "nul": ("place_search", {"query_name": "Kahvila\x00Koira"}),
    "nan_text": ("place_search", {"query_name": "Kahvila", "min_rating": "NaN"}),
    # Not 5,000 digits: the SDK's server cannot even parse a message with a number past about 4,300 digits.
    "huge": ("nearby_search", {"center": "N4", "radius_meters": 10**100}),
    "parentheses": ("search_notes", {"keyword": "(" * 500 + "koira" + ")" * 500}),
    "deep": ("submit_answer", {"result": {"plan": [[[[[[[[[[[[[[[[[["N1"]]]]]]]]]]]]]]]]]]}}),
    "long": ("place_search", {"query_name": "k" * 50_000}),
}
EXPECTED = {  # label -> (parameter, the start of the message)
    "nul": ("query_name", "argument 'query_name' contains a NUL character (not allowed)"),
    "nan_text": ("min_rating", "invalid value for 'min_rating': Input should be a finite number"),
    "huge": ("radius_meters", "argument 'radius_meters' is a number with more than 18 digits"),
    "parentheses": ("keyword", "malformed keyword logic: parentheses and NOT are nested deeper than 16 levels"),
    "deep": ("result", "argument 'result.plan[0]"),
    "long": ("query_name", "argument 'query_name' is 50,000 characters long (the limit is 10,000)"),
}


async def _session() -> dict:
    params = StdioServerParameters(
        command=sys.executable,
        env=child_env(),
        cwd=str(REPO),
        args=["manage.py", "mcp_server", "--toolset", "agent", "--transport", "stdio", "--city", "gridtown"],
    )
    async with Client(params) as client:
        replies = {label: await client.call_tool(name, arguments) for label, (name, arguments) in BAD_CALLS.items()}
        replies["after"] = await client.call_tool("place_detail", {"place_id": "N4"})
    return replies


@pytest.fixture(scope="module")
def session(grid_city, django_db_blocker):
    """The replies of one session of bad calls (and a good one after them), and the log rows it left."""
    from environment.models import ToolCallLog

    with django_db_blocker.unblock():
        first = ToolCallLog.objects.order_by("-id").values_list("id", flat=True).first() or 0
    replies = asyncio.run(asyncio.wait_for(_session(), timeout=120))  # a dropped message would hang the client
    with django_db_blocker.unblock():
        rows = list(ToolCallLog.objects.filter(id__gt=first).order_by("id"))
    return replies, rows


@pytest.mark.parametrize("label", list(BAD_CALLS))
def test_a_bad_argument_over_mcp_is_a_tool_error_naming_it(session, label):
    reply = session[0][label]
    parameter, message = EXPECTED[label]
    assert reply.is_error is True
    error = reply.structured_content["error"]
    assert error["kind"] == "invalid_parameter" and error["parameter"] == parameter
    assert error["message"].startswith(message)
    assert "SQL" not in reply.content[0].text and "psycopg" not in reply.content[0].text


def test_every_call_is_recorded_with_its_error_and_the_session_goes_on(session):
    replies, rows = session
    assert [row.tool for row in rows] == [name for name, _ in BAD_CALLS.values()] + ["place_detail"]
    assert [row.error_kind for row in rows] == ["invalid_parameter"] * len(BAD_CALLS) + [""]
    assert rows[0].arguments == {"query_name": "Kahvila\ufffdKoira"} and rows[0].error["parameter"] == "query_name"
    assert "digits" in rows[2].arguments["radius_meters"]  # stored as text, not as a 101-digit number
    assert replies["after"].is_error is False and replies["after"].structured_content["name"] == "Hotel Aurora"
