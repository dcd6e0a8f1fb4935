"""Declaring tools: one function per tool, its signature and docstring are its schema.

A tool function takes the :class:`~environment.tools.context.ToolContext` first, then its
parameters as ``Annotated[type, "description"]``, and is declared with :func:`tool`, which
registers it in :data:`TOOLS`. Tool modules import this module and nothing imports them back
but :mod:`environment.tools.registry`, which loads every tool module and is where tools are
looked up (the MCP server, the CLI and the evaluation runner all read it), so each tool is
described once.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model

from kernel.registry import Registry

TOOLSETS = ("agent", "engine")
# Listing order, as in the paper's tables 7 and 8.
TOOL_ORDER = (
    "place_search",
    "place_detail",
    "nearby_search",
    "routing",
    "sample_place",
    "multi_stop_routing",
    "search_notes",
    "note_detail",
    "submit_answer",
)


@dataclass(frozen=True)
class Tool:
    name: str
    toolset: str
    func: Callable[..., Any]
    description: str
    version: str
    params_model: type[BaseModel] = field(repr=False)

    @property
    def parameters(self) -> dict[str, dict]:
        """Parameter name -> {description, required, default, type} for docs."""
        schema = _json_schema(self.params_model)
        required = set(schema.get("required", []))
        return {
            name: {
                "description": prop.get("description", ""),
                "required": name in required,
                "default": prop.get("default"),
                "schema": prop,
            }
            for name, prop in schema.get("properties", {}).items()
        }

    def input_schema(self) -> dict:
        schema = copy.deepcopy(_json_schema(self.params_model))
        schema.pop("title", None)
        return schema


@cache
def _json_schema(model: type[BaseModel]) -> dict:
    """A tool's JSON schema, generated once (every MCP session lists the tools)."""
    return model.model_json_schema()


# toolset -> its tools by name, in declaration order (complete once environment.tools.registry is imported)
TOOLS: dict[str, Registry[Tool]] = {toolset: Registry(f"{toolset} tool") for toolset in TOOLSETS}


def _params_model(func: Callable, name: str) -> type[BaseModel]:
    hints = get_type_hints(func, include_extras=True)
    fields: dict[str, Any] = {}  # (type, Field) pairs; Any as mypy matches **fields to __config__ too
    for pname, param in list(inspect.signature(func).parameters.items())[1:]:  # skip ctx
        if pname not in hints:
            raise TypeError(f"tool {name!r}: parameter {pname!r} needs a type annotation")
        hint = hints[pname]
        description = ""
        if get_origin(hint) is Annotated:
            base, *extras = get_args(hint)
            description = next((e for e in extras if isinstance(e, str)), "")
            hint = base
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (hint, Field(default, description=description))
    # allow_inf_nan: "NaN" or "Infinity" is no rating, distance or cost (and no JSON number either).
    config = ConfigDict(extra="forbid", arbitrary_types_allowed=False, allow_inf_nan=False)
    return create_model(f"{name}_params", __config__=config, **fields)


def tool(name: str, *, toolsets: tuple[str, ...], version: str = "1.0") -> Callable:
    """Register ``func`` as tool ``name`` in each of ``toolsets``; duplicates are rejected.

    Raises:
        ValueError: for an unknown toolset, or a name already registered in one of ``toolsets``.
    """

    def register(func: Callable) -> Callable:
        unknown = [toolset for toolset in toolsets if toolset not in TOOLSETS]
        if unknown:
            raise ValueError(f"unknown toolset {unknown[0]!r}; allowed: {TOOLSETS}")
        for toolset in toolsets:
            TOOLS[toolset].check_free(name)
        description = inspect.cleandoc(func.__doc__ or "").split("\n\n", 1)[0].replace("\n", " ")
        model = _params_model(func, name)
        for toolset in toolsets:
            TOOLS[toolset].add(name, Tool(name, toolset, func, description, version, model))
        return func

    return register
