"""The agent's tools: the Standard Agent Toolset of the MCP server, every call recorded.

The MCP server is the one users connect to (environment.mcp_server), called in the same process:
its ``call_tool`` answers with the very ``CallToolResult`` it sends an MCP client, and the
observation is read from that result's JSON text, which is what a client receives. No client
session or JSON-RPC messages stand between them (in a process, they only copied the result and
cost about 1.5 ms of CPU per call; docs/benchmarks.md); a test checks the observations are those
a real MCP client gets. The server is pinned to the city version of its first call, so a case
sees one world and its calls skip looking the city up. Each call becomes a step (tool, arguments,
observation, error kind, latency, and the model's text and tokens for that turn). The tool budget
is enforced here: past it, calls are refused and the agent is told so. Arguments the gateway
would refuse (a NUL, NaN, a huge number, deep nesting) are refused here with the gateway's error,
and a call that fails in the server is still a recorded step.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from environment.mcp_server import LifePlannerServer, build_server
from environment.tools.context import ToolContext
from environment.tools.gateway import argument_error, argument_problem
from kernel.error_kinds import ErrorKind


@dataclass
class StepRecord:
    index: int
    tool: str
    arguments: Any
    observation: Any
    error_kind: str
    latency_ms: float
    model_text: str = ""
    input_tokens: int = 0
    output_tokens: int = 0


class BudgetExhausted(Exception):
    pass


@dataclass
class Toolbox:
    city: str
    budget: int
    steps: list[StepRecord] = field(default_factory=list)
    submitted: Any = None
    has_submitted: bool = False
    pinned_city: ToolContext | None = None  # once closed: the city version its calls answered from, if any
    _server: LifePlannerServer | None = None

    async def __aenter__(self) -> Toolbox:
        self._server = build_server(toolset="agent", city=self.city, record=False, pin_city=True)
        return self

    async def __aexit__(self, *exc) -> None:
        self.pinned_city = self.server.pinned_city
        self._server = None

    @property
    def server(self) -> LifePlannerServer:
        """The MCP server, open between ``__aenter__`` and ``__aexit__``."""
        if self._server is None:
            raise RuntimeError("the toolbox is not open: use it in `async with`")
        return self._server

    async def list_tools(self) -> list:
        """The MCP tool definitions (name, description, input_schema); the server builds them once per process."""
        return list(await self.server.list_tools())

    @property
    def used(self) -> int:
        return len(self.steps)

    async def call(
        self,
        tool: str,
        arguments: Any,
        *,
        model_text: str = "",
        input_tokens: int = 0,
        output_tokens: int = 0,
        arguments_problem: str = "",
    ) -> tuple[Any, bool]:
        """Call ``tool``; returns (observation, is_error). Raises BudgetExhausted past the budget.

        ``arguments_problem``: why the agent could not read the model's arguments (e.g. not valid JSON);
        the tool is then not called, and the step records the very error the agent returns to the model.
        """
        if self.used >= self.budget:
            raise BudgetExhausted(f"the tool budget of {self.budget} calls is spent")
        started = time.perf_counter()
        problem = argument_problem(arguments) if isinstance(arguments, dict) else None
        kind: str  # an ErrorKind, or the kind the server gave the call
        if arguments_problem or not isinstance(arguments, dict):
            observation = {
                "error": {
                    "kind": ErrorKind.INVALID_PARAMETER,
                    "parameter": "arguments",
                    "message": arguments_problem or "tool arguments must be a JSON object",
                }
            }
            is_error, kind = True, ErrorKind.INVALID_PARAMETER
        elif problem is not None:
            observation, is_error, kind = {"error": argument_error(problem)}, True, ErrorKind.INVALID_PARAMETER
        else:
            observation, is_error, kind = await self._send(tool, arguments)
        self.steps.append(
            StepRecord(
                len(self.steps),
                tool,
                arguments,
                observation,
                kind,
                round((time.perf_counter() - started) * 1000, 3),
                model_text,
                input_tokens,
                output_tokens,
            )
        )
        if tool == "submit_answer" and not is_error:
            self.submitted, self.has_submitted = observation.get("result"), True
        return observation, is_error

    async def _send(self, tool: str, arguments: dict) -> tuple[Any, bool, str]:
        """(observation, is_error, error kind) of a call to the MCP server."""
        try:
            result = await self.server.call_tool(tool, arguments)
        except Exception as exc:  # the call is still a step: the agent and the replay see what went wrong
            message = f"the tool call could not be made: {type(exc).__name__}"
            return {"error": {"kind": ErrorKind.OTHER, "message": message}}, True, ErrorKind.OTHER
        observation = _parse("".join(getattr(c, "text", "") for c in result.content))  # what a client receives
        is_error = bool(result.is_error)
        kind = (result.meta or {}).get("error_kind", "") if getattr(result, "meta", None) else ""
        if is_error and not kind:
            kind = (
                (observation or {}).get("error", {}).get("kind", ErrorKind.OTHER)
                if isinstance(observation, dict)
                else ErrorKind.OTHER
            )
        return observation, is_error, kind


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return {"text": text}
