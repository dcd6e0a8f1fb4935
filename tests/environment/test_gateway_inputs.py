"""Input hygiene of tool calls, through the gateway and the call_tool command.

A NUL, NaN, Infinity, a huge number, deep nesting or overlong text in an argument is a tool
error that names the argument, and the call is still recorded in the tool call log: the
recorded arguments are repaired so that the insert cannot fail.
"""

from __future__ import annotations

import io
import json
import math

import pytest
from django.core.management import call_command

from environment.mcp_server import build_server
from environment.models import ToolCallLog
from environment.tools.gateway import call_tool

pytestmark = pytest.mark.django_db


def nested(depth: int, leaf="x"):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def call_and_record(grid_ctx, tool: str, arguments):
    """Call through the gateway with the MCP server's recorder; returns (call, its ToolCallLog row)."""
    server = build_server(toolset="agent", city=grid_ctx.city_name, record=True)
    before = ToolCallLog.objects.count()
    call = call_tool("agent", tool, arguments, context=grid_ctx, recorder=server._record)
    assert ToolCallLog.objects.count() == before + 1, "the call was not recorded"
    return call, ToolCallLog.objects.order_by("-id").first()


# ---------------------------------------------------------------- through the gateway, recorded


def test_a_nul_in_an_argument_is_an_error_naming_it_and_the_call_is_recorded(grid_ctx):
    call, row = call_and_record(grid_ctx, "place_search", {"query_name": "Kahvila\x00Koira"})

    assert call.error == {
        "kind": "invalid_parameter",
        "parameter": "query_name",
        "message": "argument 'query_name' contains a NUL character (not allowed)",
        "allowed": "REQUIRED: Place name in local language",
    }
    assert row.error == call.error and row.error_kind == "invalid_parameter"
    assert row.arguments == {"query_name": "Kahvila\ufffdKoira"}  # repaired, so the insert succeeded


@pytest.mark.parametrize(
    "value, reason",
    [
        (math.nan, "is NaN (not a JSON number; not allowed)"),
        (math.inf, "is Infinity (not a JSON number; not allowed)"),
        (10**5000, "is a number with more than 18 digits (not allowed)"),
    ],
    ids=["nan", "infinity", "5000-digit"],
)
def test_nan_infinity_and_huge_numbers_are_errors_naming_the_argument_and_recorded(grid_ctx, value, reason):
    call, row = call_and_record(grid_ctx, "nearby_search", {"center": "N4", "radius_meters": value})

    assert call.error["parameter"] == "radius_meters"
    assert call.error["message"] == f"argument 'radius_meters' {reason}"
    assert row.error_kind == "invalid_parameter" and isinstance(row.arguments["radius_meters"], str)


def test_nan_as_text_is_no_rating(grid_ctx):
    call, row = call_and_record(grid_ctx, "place_search", {"query_name": "Kahvila", "min_rating": "NaN"})
    assert call.error_kind == "invalid_parameter" and call.error["parameter"] == "min_rating"
    assert "finite number" in call.error["message"] and row.arguments["min_rating"] == "NaN"


def test_a_5000_digit_number_in_json_text_is_an_error_naming_the_argument(grid_ctx):
    text = '{"center": "N4", "radius_meters": 1' + "0" * 5000 + "}"
    call, row = call_and_record(grid_ctx, "nearby_search", text)
    assert call.error["parameter"] == "radius_meters"
    assert call.error["message"] == "argument 'radius_meters' is a number with 5,001 digits (the limit is 18)"
    assert row.arguments.startswith('{"center"')


def test_deep_and_long_arguments_are_errors_naming_the_argument(grid_ctx):
    deep, _ = call_and_record(grid_ctx, "submit_answer", {"result": {"plan": nested(100_000)}})
    assert deep.error["parameter"] == "result" and "is nested deeper than 16 levels" in deep.error["message"]
    assert deep.error["message"].startswith("argument 'result.plan[0]")
    deep_text, _ = call_and_record(grid_ctx, "submit_answer", '{"result": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert deep_text.error["message"] == "arguments are nested deeper than 16 levels (not allowed)"
    long, row = call_and_record(grid_ctx, "place_search", {"query_name": "k" * 20_000})
    assert long.error["message"] == "argument 'query_name' is 20,000 characters long (the limit is 10,000)"
    assert len(row.arguments["query_name"]) < 10_100


def test_a_nul_or_nan_inside_an_answer_given_as_json_text_is_an_error_naming_it(grid_ctx):
    nul, _ = call_and_record(grid_ctx, "submit_answer", {"result": '{"name": "Kahvila\\u0000Koira"}'})
    assert nul.error["parameter"] == "result"
    assert nul.error["message"] == "argument 'result.name' contains a NUL character (not allowed)"
    nan, _ = call_and_record(grid_ctx, "submit_answer", {"result": '{"total_time_s": NaN}'})
    assert nan.error["message"] == "argument 'result.total_time_s' is NaN (not a JSON number; not allowed)"


@pytest.mark.parametrize(
    "keyword",
    ["(" * 600 + "koira" + ")" * 600, "NOT " * 2000 + "koira", "(" * 17 + "koira" + ")" * 17],
    ids=["600-parentheses", "2000-nots", "17"],
)
def test_deeply_nested_keyword_logic_is_an_error_naming_the_keyword(grid_ctx, keyword):
    call, _ = call_and_record(grid_ctx, "search_notes", {"keyword": keyword})
    assert call.error["kind"] == "invalid_parameter" and call.error["parameter"] == "keyword"
    assert "nested deeper than 16 levels" in call.error["message"]


def test_a_tool_name_with_a_nul_is_recorded(grid_ctx):
    call, row = call_and_record(grid_ctx, "place\x00search" + "x" * 100, {})
    assert call.error_kind == "not_found" and row.tool == "place\ufffdsearch" + "x" * 28


# ---------------------------------------------------------------- the call_tool command


def run_command(*args) -> tuple[int, dict]:
    out = io.StringIO()
    try:
        call_command("call_tool", *args, stdout=out)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, json.loads(out.getvalue())


@pytest.mark.parametrize(
    "arguments, parameter, reason",
    [
        ('{"query_name": "Kahvila\\u0000"}', "query_name", "contains a NUL character"),
        ('{"query_name": "Kahvila", "min_rating": NaN}', "min_rating", "is NaN"),
        ('{"query_name": "Kahvila", "max_cost": Infinity}', "max_cost", "is Infinity"),
        ('{"query_name": "Kahvila", "min_rating": 1' + "0" * 5000 + "}", "min_rating", "is a number with 5,001 digits"),
    ],
    ids=["nul", "nan", "infinity", "5000-digit"],
)
def test_call_tool_prints_an_error_naming_the_argument(grid_city, arguments, parameter, reason):
    code, result = run_command("place_search", arguments, "--city", "gridtown")
    assert code == 1 and result["error"]["parameter"] == parameter
    assert result["error"]["message"].startswith(f"argument '{parameter}' {reason}")
