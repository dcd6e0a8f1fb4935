"""submit_answer: the agent's final structured answer (both toolsets)."""

from __future__ import annotations

from typing import Annotated, Any

from kernel.inputs import TOOL_ARGUMENTS, parse_json

from .context import ToolContext
from .errors import invalid
from .spec import tool

ANSWER_TOOL = "submit_answer"


@tool(ANSWER_TOOL, toolsets=("agent", "engine"))
def submit_answer(
    ctx: ToolContext,
    result: Annotated[Any, "Your final answer as a JSON object or array following the required format"],
) -> dict:
    """Submit the final structured JSON answer. The evaluated agent must call this last instead of printing plain JSON."""  # noqa: E501
    if isinstance(result, str):
        result, problems = parse_json(result, field="result", limits=TOOL_ARGUMENTS)
        if problems and problems[0].reason.startswith("is not valid JSON"):
            raise invalid("result", "result is a string that is not JSON", "a JSON object or array")
        if problems:  # NaN, a NUL, too deep: what the gateway refuses in an object, refused in its text too
            problem = problems[0]
            raise invalid("result", f"argument {problem.path!r} {problem.reason}", "a JSON object or array")
    if not isinstance(result, dict | list):
        raise invalid(
            "result", f"result must be a JSON object or array, got {type(result).__name__}", "a JSON object or array"
        )
    return {"status": "submitted", "result": result}
