"""The tool registry: every tool of every toolset, looked up by name.

Importing this module imports every tool module, and each registers its tools with
:func:`environment.tools.spec.tool`; tool modules never import this one. The MCP server, the
CLI, the evaluation runner and the judges' verification tools all list tools from here, so a
tool is described once. To add a tool module, import it below.
"""

from __future__ import annotations

from . import answer, notes, places, routes  # noqa: F401  (importing a tool module registers its tools)
from .spec import TOOL_ORDER, TOOLS, TOOLSETS, Tool

__all__ = ["TOOLSETS", "TOOL_ORDER", "Tool", "get_tool", "tool_names", "tools_for"]


def tools_for(toolset: str) -> list[Tool]:
    """The tools of a toolset, in listing order (the paper's tables 7 and 8).

    Raises:
        ValueError: for an unknown toolset.
    """
    if toolset not in TOOLSETS:
        raise ValueError(f"unknown toolset {toolset!r}; allowed: {', '.join(TOOLSETS)}")
    return sorted(TOOLS[toolset], key=lambda t: TOOL_ORDER.index(t.name) if t.name in TOOL_ORDER else len(TOOL_ORDER))


def tool_names(toolset: str) -> list[str]:
    """The names of a toolset's tools, in listing order (see :func:`tools_for`)."""
    return [t.name for t in tools_for(toolset)]


def get_tool(toolset: str, name: str) -> Tool | None:
    """Tool ``name`` of ``toolset``, or None when the toolset has no such tool."""
    registry = TOOLS.get(toolset)
    return registry.get(name) if registry is not None and name in registry else None
