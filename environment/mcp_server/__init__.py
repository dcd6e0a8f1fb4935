"""The MCP server, generated from the tool registry (official MCP SDK 2.x).

Every call goes through the tool gateway, so MCP clients get exactly the same validation,
errors and results as the CLI and the evaluation runner. Results are returned both as
structured content and as JSON text.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent
from mcp.types import Tool as MCPTool

from environment.tools.answer import ANSWER_TOOL
from environment.tools.context import CityNotBuilt, ToolContext, city_context
from environment.tools.gateway import ToolCall, call_tool
from environment.tools.registry import tool_names, tools_for

# Tools touch the database from these threads. A fixed pool, shared by every server in the
# process, keeps one database connection per thread for the life of the process; a fresh
# executor per event loop would leave a connection behind with every evaluated case.
_TOOL_THREADS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="lifeplanner-tools")


def _fresh_tool_threads() -> None:
    """In a forked child, a new pool: the parent's threads are not copied, and its pool would wait on them."""
    global _TOOL_THREADS
    _TOOL_THREADS = ThreadPoolExecutor(max_workers=8, thread_name_prefix="lifeplanner-tools")


os.register_at_fork(after_in_child=_fresh_tool_threads)


def city_tool_names(toolset: str) -> list[str]:
    """The tools of ``toolset`` an agent works the city with: every registered tool but submit_answer, in order."""
    return [name for name in tool_names(toolset) if name != ANSWER_TOOL]


def server_instructions(toolset: str) -> str:
    """What the server tells a client when it connects: the toolset's tools, named from the registry."""
    return (
        f"LifePlanner city environment ({toolset} toolset). Find places, routes and social-media notes with "
        f"{', '.join(city_tool_names(toolset))}, and finish with {ANSWER_TOOL}(result={{...}})."
    )


class LifePlannerServer(MCPServer):
    """An MCPServer whose tools are the registry's tools of one toolset, served through the gateway."""

    def __init__(self, *, toolset: str = "agent", city: str | None = None, record: bool = True, pin_city: bool = False):
        """``pin_city``: answer every call from the city version of the first call that found the city
        built (one case's server: its world cannot change under it, and no call looks the city up again).
        Unpinned, each call runs on the city's current version, as a long-lived server must."""
        super().__init__(name=f"lifeplanner-{toolset}", instructions=server_instructions(toolset), version="1.0")
        self.toolset = toolset
        self.city = city
        self.record = record
        self.pin_city = pin_city
        self._pinned: ToolContext | None = None
        self.session_label = f"mcp-{toolset}-{uuid.uuid4().hex[:12]}"
        self._tools = {t.name: t for t in tools_for(toolset)}

    async def list_tools(self) -> list[MCPTool]:
        return list(_mcp_tools(self.toolset))

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None) -> CallToolResult:
        loop = asyncio.get_running_loop()
        call = await loop.run_in_executor(_TOOL_THREADS, self._call_sync, name, arguments)
        observation = call.observation()
        return CallToolResult(
            content=[TextContent(type="text", text=json.dumps(observation, ensure_ascii=False))],
            structured_content=observation,
            is_error=not call.ok,
            _meta={"error_kind": call.error_kind, "latency_ms": call.latency_ms, "tool_version": call.tool_version},
        )

    def _call_sync(self, name: str, arguments: dict[str, Any]) -> ToolCall:
        from django.db import close_old_connections

        try:
            context = self._pinned_context() if self.pin_city else None
            return call_tool(
                self.toolset,
                name,
                arguments,
                context=context,
                city=self.city,
                recorder=self._record if self.record else None,
            )
        finally:  # each call is a request: a broken connection is dropped, and a pooled one (DB_POOL_SIZE) goes back
            close_old_connections()

    @property
    def pinned_city(self) -> ToolContext | None:
        """The city version a pinned server answers from, once a call found the city built; else None."""
        return self._pinned

    def _pinned_context(self) -> ToolContext | None:
        """The pinned city version; None while the city cannot be found (the gateway then reports why)."""
        if self._pinned is None:
            from django.db import InterfaceError, OperationalError

            try:
                self._pinned = city_context(self.city)
            except (CityNotBuilt, OperationalError, InterfaceError):  # a tool error, or the gateway's retries
                return None
        return self._pinned

    def _record(self, call: ToolCall) -> None:
        from environment.models import ToolCallLog

        ToolCallLog.objects.create(
            city_version=call.city_version,
            session=self.session_label,
            toolset=call.toolset,
            tool=call.tool,
            arguments=call.arguments,
            result=call.result,
            error=call.error,
            error_kind=call.error_kind,
            latency_ms=call.latency_ms,
            tool_version=call.tool_version,
        )


@functools.cache
def _mcp_tools(toolset: str) -> tuple[MCPTool, ...]:
    """The toolset's MCP tool definitions, built once per process: every session lists them (the
    evaluation's in-process client, once per case), and the registry does not change once loaded."""
    return tuple(
        MCPTool(name=t.name, description=t.description, input_schema=t.input_schema()) for t in tools_for(toolset)
    )


def build_server(
    *, toolset: str = "agent", city: str | None = None, record: bool = True, pin_city: bool = False
) -> LifePlannerServer:
    return LifePlannerServer(toolset=toolset, city=city, record=record, pin_city=pin_city)
