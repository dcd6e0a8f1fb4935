"""The ``litellm`` agent: the paper's standardized scaffold (section 4.1) around any model endpoint.

Every model gets the same system prompt (figure 9, plus a direct ``answer`` field and a
single-place ``name`` / ``place_id`` so that yes/no, attribute and single-place questions
have somewhere to go), the same MCP tools as functions, temperature 0 unless the run says
otherwise, and the same budget of tool calls. The loop asks the model, runs its tool calls
through the toolbox (each one a recorded step) and hands back the observations, until
submit_answer succeeds, the budget or the time runs out, the model fails, or it stops
calling tools (it is reminded once to call submit_answer).

What a model does besides calling tools ends the case in a state that says so (docs/evaluation.md,
"How a case ends"): a reply without tool calls twice in a row ends ``no_submission`` (the error says
whether the replies were empty, cut at the token limit, or prose); one whose text looks like a tool call
(``text_calls``) is recorded with its model call and never run, and ends ``tool_call_as_text``;
a conversation the model's context cannot hold ends ``context_exceeded`` (the server refuses it: nothing
is cut or summarised, so every model answers the same conversation); unreadable arguments and unknown
tools are tool errors the model reads, each a recorded step.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from kernel.vocabulary import Ending

from .answer_format import ANSWER_FORMAT
from .base import AgentOutcome, AgentTask, agent
from .text_calls import written_tool_call
from .toolbox import BudgetExhausted

# Figure 9, verbatim but for the marked additions to the answer format (see answer_format.py).
SYSTEM_PROMPT = (
    """You are a geographic information assistant. Use the available tools to answer the user's question.

CRITICAL RULES:
1. NEVER hallucinate or fabricate data. ALL reasoning MUST be grounded in tool return results.
2. You MUST call tools to get real data before answering.
3. If your answer references social media insights, you MUST include ALL relevant note_ids in the ref field.
4. Use the EXACT values (names, IDs, distances, times) returned by tools.
5. After completing your analysis, you MUST call submit_answer() to deliver your final answer as a structured JSON object. Do NOT output JSON as plain text - always use submit_answer().

---
"""
    + ANSWER_FORMAT
    + """

---
Now answer the following question: {question}"""
)

REMINDER = (
    "You have not submitted an answer. You MUST call submit_answer(result=<your_answer>) with your final "
    "answer as a JSON object. Do NOT output JSON as plain text - always use submit_answer()."
)


SNIPPET_CHARS = 160


def system_prompt(question: str) -> str:
    """Figure 9's prompt with the question inserted where the paper inserts it."""
    return SYSTEM_PROMPT.replace("{question}", question)


def function_specs(mcp_tools: Any) -> list[dict]:
    """MCP tool definitions as OpenAI function specs."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description or "", "parameters": t.input_schema},
        }
        for t in mcp_tools
    ]


@agent("litellm")
async def litellm_agent(task: AgentTask) -> AgentOutcome:
    if task.llm is None:
        return AgentOutcome(ended=Ending.MODEL_ERROR, error="the litellm agent needs a model endpoint")
    conversation = _Conversation(task)
    try:
        async with asyncio.timeout(task.config.timeout_s):
            ended, error = await conversation.run()
    except TimeoutError:
        ended, error = Ending.TIMEOUT, "the agent ran out of time"
    return AgentOutcome(
        final_answer=task.tools.submitted,
        ended=ended,
        error=error,
        input_tokens=conversation.input_tokens,
        output_tokens=conversation.output_tokens,
    )


class _Conversation:
    def __init__(self, task: AgentTask):
        self.task = task
        # The question also goes as the user turn: some providers refuse a conversation without one.
        self.messages: list[dict] = [
            {"role": "system", "content": system_prompt(task.question)},
            {"role": "user", "content": task.question},
        ]
        self.input_tokens = self.output_tokens = 0
        self.reminded = False

    async def run(self) -> tuple[Ending, str]:
        """Ask and act until the conversation ends; returns (ended, error)."""
        from benchmark.endpoints.llm import ContextExceeded, ModelError

        functions = function_specs(await self.task.tools.list_tools())
        names = {f["function"]["name"] for f in functions}
        while True:
            try:
                response = await self.task.llm.complete(
                    self.messages, functions, temperature=self.task.config.temperature
                )
            except ContextExceeded as exc:
                return Ending.CONTEXT_EXCEEDED, f"the conversation no longer fits the model's context: {exc}"
            except ModelError as exc:
                return Ending.MODEL_ERROR, str(exc)
            message, usage = self._read(response)
            calls = message.get("tool_calls") or []
            self.messages.append(_assistant_turn(message, calls))
            if not calls:
                if self.reminded:
                    return _no_call_ending(message, response, names)
                self.reminded = True
                self.messages.append({"role": "user", "content": REMINDER})
                continue
            try:
                await self._act(calls, message.get("content") or "", usage)
            except BudgetExhausted as exc:
                return Ending.BUDGET_EXHAUSTED, str(exc)
            if self.task.tools.has_submitted:
                return Ending.SUBMITTED, ""

    def _read(self, response: dict) -> tuple[dict, tuple[int, int]]:
        usage = response.get("usage") or {}
        tokens = (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))
        self.input_tokens += tokens[0]
        self.output_tokens += tokens[1]
        return response["choices"][0]["message"], tokens

    async def _act(self, calls: list[dict], text: str, usage: tuple[int, int]) -> None:
        """Run the turn's tool calls in order; the turn's text and tokens go on its first step."""
        for position, call in enumerate(calls):
            first = position == 0
            function = call["function"]
            arguments, problem = _arguments(function.get("arguments"))
            # Unreadable arguments are an invalid_parameter step; the model is told exactly what the step records.
            observation, _ = await self.task.tools.call(
                function["name"],
                arguments,
                model_text=text if first else "",
                input_tokens=usage[0] if first else 0,
                output_tokens=usage[1] if first else 0,
                arguments_problem=(
                    f"the arguments are not valid JSON ({problem}); call the tool again with a JSON object"
                )
                if problem
                else "",
            )
            self.messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.get("id") or "",
                    "content": json.dumps(observation, ensure_ascii=False, default=str),
                }
            )
            if self.task.tools.has_submitted:
                return


def _no_call_ending(message: dict, response: dict, tool_names: set[str]) -> tuple[Ending, str]:
    """How a case ends when the model, reminded once, again answers without a tool call; the error says what
    the reply was."""
    text = message.get("content") or ""
    text = text if isinstance(text, str) else json.dumps(text)
    written = written_tool_call(text, tool_names)
    if written:
        snippet = text[max(0, written.start() - 20) :][:SNIPPET_CHARS]
        return Ending.TOOL_CALL_AS_TEXT, (
            f"the model wrote a tool call as text, which is recorded and not run ({snippet!r}), and never "
            "called submit_answer"
        )
    finish = (response.get("choices") or [{}])[0].get("finish_reason")
    if not text.strip():
        what = "an empty reply"
    elif finish == "length":
        what = f"text cut at the token limit ({text[:SNIPPET_CHARS]!r}...)"
    else:
        what = f"text ({text[:SNIPPET_CHARS]!r})"
    return Ending.NO_SUBMISSION, f"the model stopped without calling submit_answer: its last reply was {what}"


def _arguments(raw: Any) -> tuple[Any, str]:
    """(arguments, problem): parsed JSON, or the raw text and why it is not JSON (the toolbox then
    records an invalid_parameter step)."""
    if isinstance(raw, dict):
        return raw, ""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}, ""  # a call without parameters
    try:
        return json.loads(raw), ""
    except (TypeError, ValueError) as exc:
        return raw if isinstance(raw, str) else str(raw), str(exc)


def _assistant_turn(message: dict, calls: list[dict]) -> dict:
    # Text, never null: OpenAI takes a null content beside tool calls, but llama-cpp-python's server (and other
    # servers that validate the request) refuses it, and every turn after a silent tool call would fail.
    content = message.get("content")
    turn: dict[str, Any] = {"role": "assistant", "content": content if content is not None else ""}
    if calls:
        turn["tool_calls"] = [
            {
                "id": c.get("id") or "",
                "type": "function",
                "function": {"name": c["function"]["name"], "arguments": _as_text(c["function"].get("arguments"))},
            }
            for c in calls
        ]
    return turn


def _as_text(arguments: Any) -> str:
    return arguments if isinstance(arguments, str) else json.dumps(arguments or {})
