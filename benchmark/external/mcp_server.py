"""The run-mode MCP server: the agent toolset plus ``next_case``, answering one run's cases.

An external agent connects over streamable HTTP (``manage.py serve_run_mcp``, URL ``/mcp``)
with its run token in the header ``Authorization: Bearer <token>``, or over stdio with the
token in the environment variable ``LIFEPLANNER_RUN_TOKEN``. The server's instructions carry the
answer format (``benchmark.agents.answer_format``); ``next_case`` hands the agent a question with
that format and the fields its category is scored on; every other call goes to
:func:`benchmark.external.agents.external_tool_call`, which runs the tool on the case's city
and records it as a step of the case's trajectory.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from mcp.types import CallToolResult, TextContent
from mcp.types import Tool as MCPTool

from benchmark.agents.answer_format import answer_format_guide
from benchmark.external.agents import NoCaseInProgress, RunTokenRefused, external_next_case, external_tool_call
from environment.mcp_server import LifePlannerServer, city_tool_names
from environment.tools.answer import ANSWER_TOOL

TOKEN_ENV = "LIFEPLANNER_RUN_TOKEN"
RUN_INSTRUCTIONS = (
    f"LifePlanner benchmark run. Call next_case to get a question, answer it with the city tools "
    f"({', '.join(city_tool_names('agent'))}) and finish it with {ANSWER_TOOL}(result={{...}}); "
    "then call next_case again until it reports that the run is done. Every call counts against the case's tool "
    "budget. The answer format follows; next_case repeats it for each case as answer_format, with the fields that "
    "case is scored on.\n\n" + answer_format_guide()
)
NEXT_CASE = MCPTool(
    name="next_case",
    description="Get the question you are to answer now: the case you hold until you submit_answer, else the next "
    "one of the run. Returns {trajectory_id, case_id, question, answer_format, trial, remaining, "
    "tool_budget, tools_used}, or {done: true} when every case of the run is answered. answer_format "
    "is the JSON object submit_answer expects and the fields this case is scored on.",
    input_schema={"type": "object", "properties": {}, "additionalProperties": False},
)


class RunModeServer(LifePlannerServer):
    """The agent toolset served for one run token per request, plus ``next_case``."""

    def __init__(self, *, default_token: str | None = None):
        super().__init__(toolset="agent", record=False)
        self._lowlevel_server.instructions = RUN_INSTRUCTIONS
        self.default_token = default_token  # stdio: there are no request headers

    async def list_tools(self) -> list[MCPTool]:
        return [*await super().list_tools(), NEXT_CASE]

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None) -> CallToolResult:
        token = bearer_token(context) or self.default_token
        try:
            if name == NEXT_CASE.name:
                case = await asyncio.to_thread(_in_thread, external_next_case, token=token)
                return _result(case or {"done": True, "message": "every case of this run is answered"})
            reply = await asyncio.to_thread(_in_thread, external_tool_call, token=token, tool=name, arguments=arguments)
        except RunTokenRefused as exc:
            return _result(
                {"error": {"kind": "unauthorized", "message": f"run token refused: {exc}"}},
                is_error=True,
                error_kind="unauthorized",
            )
        except NoCaseInProgress as exc:
            return _result({"error": {"kind": "no_case", "message": str(exc)}}, is_error=True, error_kind="no_case")
        return _result(
            reply.observation, is_error=not reply.ok, error_kind=reply.error_kind, case_finished=reply.case_finished
        )


def bearer_token(context) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header of the HTTP request, if any."""
    try:
        headers = context.headers if context is not None else None
    except ValueError:  # no request (in-process calls)
        return None
    value = next((v for k, v in (headers or {}).items() if k.lower() == "authorization"), "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def build_run_server(*, default_token: str | None = None) -> RunModeServer:
    return RunModeServer(default_token=default_token)


def _in_thread(func, **kwargs):
    """Run a service in a worker thread; its database connection is closed after each call, so
    threads of any executor never leave connections behind."""
    from django.db import connections

    try:
        return func(**kwargs)
    finally:
        connections.close_all()


def _result(
    observation: Any, *, is_error: bool = False, error_kind: str = "", case_finished: bool = False
) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(observation, ensure_ascii=False))],
        structured_content=observation,
        is_error=is_error,
        _meta={"error_kind": error_kind, "case_finished": case_finished},
    )
