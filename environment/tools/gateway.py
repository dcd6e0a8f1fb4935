"""The one tool gateway: every caller (MCP server, CLI, evaluation runner) calls tools here.

It checks the arguments' hygiene (``kernel.inputs``: no NUL, NaN, Infinity, huge numbers,
deep nesting or overlong text) and validates them against the tool's schema, runs the tool,
turns every failure into a structured error the agent can read (never a stack trace), labels
the outcome with an error kind (invalid_parameter / not_found / empty_result / truncated /
other), measures latency and hands the record to an optional recorder. The record's arguments
are a storable copy (``kernel.inputs.storable``), so recording a refused call cannot fail.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from django.db import InterfaceError, OperationalError, connection
from pydantic import ValidationError

from kernel.inputs import TOOL_ARGUMENTS, Problem, check_json, clean_text, parse_json, storable

from .context import CityNotBuilt, ToolContext, city_context
from .errors import EMPTY_RESULT, INVALID_PARAMETER, NOT_FOUND, OTHER, TRUNCATED, ToolError
from .registry import TOOLSETS, get_tool, tools_for

log = logging.getLogger(__name__)
# A database restart or fail-over cuts open connections and refuses new ones for a few seconds. Tools
# only read, so a call that lost its connection runs again on a fresh one (about 16 s in all) rather
# than answering the agent with an internal error that is no fault of its own.
DATABASE_RETRY_WAITS_S = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


@dataclass(frozen=True)
class ToolCall:
    """One call through the gateway: what was asked (as stored: see ``storable``) and what came back."""

    toolset: str
    tool: str
    arguments: Any
    ok: bool
    result: Any
    error: dict | None
    error_kind: str  # "" when the call succeeded with a non-empty, complete result
    latency_ms: float
    tool_version: str
    city_version: str

    def observation(self) -> dict:
        """What the agent sees: the result, or {"error": {...}}."""
        return self.result if self.ok else {"error": self.error}

    def observation_text(self) -> str:
        return json.dumps(self.observation(), ensure_ascii=False, sort_keys=False)

    def to_dict(self) -> dict:
        return asdict(self)


Recorder = Callable[[ToolCall], None]


def call_tool(
    toolset: str,
    name: str,
    arguments: Any,
    *,
    context: ToolContext | None = None,
    city: str | None = None,
    recorder: Recorder | None = None,
) -> ToolCall:
    """Call tool ``name`` of ``toolset`` with ``arguments`` (a dict, or a JSON object string).

    The call runs against ``context``, or else the city named ``city`` (default:
    settings.LIFEPLANNER_CITY); a city that is not built is a readable tool error.
    """
    started = time.perf_counter()
    version, city_version = "", context.city_version if context else ""
    recorded = storable(arguments, limits=TOOL_ARGUMENTS)[0]
    try:
        tool = _resolve(toolset, name)
        version = tool.version
        params = _validate(tool, arguments)
        if context is None:
            context = _retrying(lambda: city_context(city), name)
            city_version = context.city_version
        result = _retrying(lambda: tool.func(context, **params), name)
        error, kind = None, _result_kind(result)
    except ToolError as exc:
        result, error, kind = None, exc.to_dict(), exc.kind
    except CityNotBuilt as exc:
        result, error, kind = None, {"kind": OTHER, "message": str(exc)}, OTHER
    except Exception:  # a bug must not crash the caller or leak a trace to the agent
        log.exception("tool %s/%s failed on %r", toolset, name, recorded)
        result, error, kind = None, {"kind": OTHER, "message": f"internal error in tool {name!r}"}, OTHER
    call = ToolCall(
        toolset=toolset,
        tool=stored_name(name),
        arguments=recorded,
        ok=error is None,
        result=result,
        error=error,
        error_kind=kind,
        latency_ms=round((time.perf_counter() - started) * 1000, 3),
        tool_version=version,
        city_version=city_version,
    )
    if recorder is not None:
        recorder(call)
    return call


def _retrying(read: Callable[[], Any], name: str) -> Any:
    """``read()``, run again on a fresh connection while the database connection is lost."""
    for wait in (*DATABASE_RETRY_WAITS_S, None):
        try:
            return read()
        except (OperationalError, InterfaceError):
            # Out of patience, a transaction a retry cannot repeat, or a live connection (the query itself failed).
            if wait is None or connection.in_atomic_block or _connection_alive():
                raise
            log.warning("database connection lost during tool %s; trying again in %.2f s", name, wait)
            connection.close()
            time.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover


def _connection_alive() -> bool:
    return connection.connection is not None and connection.is_usable()


def _resolve(toolset: str, name: str):
    if toolset not in TOOLSETS:
        raise ToolError(
            INVALID_PARAMETER, f"unknown toolset {toolset!r}", parameter="toolset", allowed=", ".join(TOOLSETS)
        )
    tool = get_tool(toolset, name)
    if tool is None:
        names = ", ".join(t.name for t in tools_for(toolset))
        raise ToolError(NOT_FOUND, f"unknown tool {name!r} in the {toolset} toolset", parameter="tool", allowed=names)
    return tool


def _validate(tool, arguments: Any) -> dict:
    if isinstance(arguments, str):
        if not arguments.strip():
            arguments = {}
        else:
            arguments, problems = parse_json(arguments, limits=TOOL_ARGUMENTS)
            if problems:
                raise _argument_error(tool, problems[0])
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ToolError(
            INVALID_PARAMETER,
            f"arguments must be a JSON object, got {type(arguments).__name__}",
            allowed=_allowed_params(tool),
        )
    problem = argument_problem(arguments)
    if problem is not None:
        raise _argument_error(tool, problem)
    try:
        model = tool.params_model.model_validate(arguments)
    except ValidationError as exc:
        raise _validation_error(tool, exc) from None
    return {name: getattr(model, name) for name in type(model).model_fields}


def argument_problem(arguments: dict) -> Problem | None:
    """The first hygiene problem of a call's arguments (NUL, NaN, Infinity, huge, deep, too long), or None."""
    problems = check_json(arguments, limits=TOOL_ARGUMENTS)
    return problems[0] if problems else None


def argument_error(problem: Problem) -> dict:
    """The error an agent reads for an argument with ``problem`` (as ``ToolCall.error``)."""
    return _argument_error(None, problem).to_dict()


def stored_name(name: Any) -> str:
    """A tool name as a call log or a step can store it (whatever the caller sent)."""
    return clean_text(str(name), field="tool")[0][:40]


def _argument_error(tool, problem: Problem) -> ToolError:
    if not problem.path:  # the arguments as a whole
        reason = problem.reason
        for singular, plural in (("is ", "are "), ("holds ", "hold ")):
            if reason.startswith(singular):
                reason = plural + reason.removeprefix(singular)
        return ToolError(INVALID_PARAMETER, f"arguments {reason}", allowed="a JSON object of parameters")
    allowed = tool.parameters.get(problem.parameter, {}).get("description") if tool is not None else None
    return ToolError(
        INVALID_PARAMETER, f"argument {problem.path!r} {problem.reason}", parameter=problem.parameter, allowed=allowed
    )


def _allowed_params(tool) -> str:
    parts = []
    for pname, info in tool.parameters.items():
        parts.append(f"{pname}{'' if info['required'] else '?'}: {info['description']}")
    return "; ".join(parts)


def _validation_error(tool, exc: ValidationError) -> ToolError:
    first = exc.errors(include_url=False)[0]
    loc = [str(p) for p in first.get("loc", ())]
    parameter = loc[0] if loc else None
    params = tool.parameters
    if first["type"] == "extra_forbidden":
        message = f"unknown parameter {parameter!r} for {tool.name}"
        allowed = "parameters: " + ", ".join(params)
    elif first["type"] == "missing":
        message = f"missing required parameter {parameter!r}"
        allowed = params.get(parameter, {}).get("description")
    else:
        where = ".".join(loc)
        message = f"invalid value for {where!r}: {first['msg']} (got {first.get('input')!r})"
        allowed = params.get(parameter, {}).get("description")
    return ToolError(INVALID_PARAMETER, message, parameter=parameter, allowed=allowed)


def _result_kind(result: Any) -> str:
    """Label a successful result: truncated lists and empty results are worth knowing about."""
    if isinstance(result, dict):
        if result.get("truncated"):
            return TRUNCATED
        if result.get("total_matched") == 0:
            return EMPTY_RESULT
    return ""


__all__ = [
    "ToolCall",
    "argument_error",
    "argument_problem",
    "call_tool",
    "stored_name",
    "Recorder",
    "EMPTY_RESULT",
    "NOT_FOUND",
    "TRUNCATED",
]
