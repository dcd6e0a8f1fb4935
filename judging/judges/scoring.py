"""One judge, one judgment: :func:`judge_score` asks a model through litellm for a verdict.

The conversation: system + user prompt from the role's template (temperature 0); the judge
may call verification tools (the engine toolset, through the gateway) up to
``max_tool_calls`` times; its final reply must be ``{"score": 0..1, "explanation": str}``.
A malformed reply is sent back with what was wrong (twice at most); still malformed means
no score (``failure="malformed reply: ..."``), never a score of 0.
"""
from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from typing import Any

from judging.types import CaseSpec, Trajectory

from .cache import JudgeCache, cache_key
from .config import JudgeConfig
from .injection import redact, redact_trajectory
from .prompting import clip
from .replies import VERDICT_SHAPE, dumps, parse_verdict
from .roles import JudgeRole, get_role

log = logging.getLogger(__name__)

FORMAT_RETRIES = 2
TOOL_OBSERVATION_CHARS = 4_000  # what the judge reads of one verification call
RECORDED_OBSERVATION_CHARS = 2_000  # what the verdict keeps of it
NOT_FOR_VERIFICATION = frozenset({"submit_answer", "sample_place"})
TOOLS_NOTE = ("You may check facts with the verification tools provided (at most {n} calls); they read the "
              "same database the assistant used, including hidden attributes. Then give your verdict.")
NO_TOOLS_NOTE = "No verification tools are available: judge from the material given."


@dataclass(frozen=True)
class JudgeVerdict:
    """What one judge said about one answer, with everything needed to audit it.

    ``score`` is None when the judge failed (``failure`` says why); ``raw`` keeps every
    model reply verbatim; ``details`` holds the injection check and, when it fired, the
    judgment of the redacted copy.
    """

    judge: str
    model: str
    role: str
    prompt_version: str
    score: float | None
    explanation: str
    raw: list[str] = field(default_factory=list)
    failure: str | None = None
    tool_calls: list[dict] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    cached: bool = False

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict, **changes: Any) -> JudgeVerdict:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**{**known, **changes})


@dataclass
class _Pass:
    """One conversation with the judge."""

    score: float | None = None
    explanation: str = ""
    raw: list[str] = field(default_factory=list)
    tool_calls: list[dict] = field(default_factory=list)
    failure: str | None = None


def judge_score(
    role: str | JudgeRole,
    config: JudgeConfig,
    case: CaseSpec,
    answer: Any,
    trajectory: Trajectory | None = None,
    *,
    cache: JudgeCache | None = None,
    tools_city: str | None = None,
    max_tool_calls: int = 5,
) -> JudgeVerdict:
    """Score ``answer`` (and, for roles that show it, ``trajectory``) with one judge.

    Args:
        role: a registered role name ("semantic_constraint", "reasoning_purity") or role.
        config: the judge model.
        case: the case (question, reference answer, constraints).
        answer: the agent's final answer (untrusted).
        trajectory: the agent's tool calls (untrusted); shown only to roles that use it.
        cache: read before asking, written after a successful judgment.
        tools_city: offer the engine toolset on this city as verification tools.
        max_tool_calls: verification calls allowed per judgment.

    Returns:
        A verdict; never raises for model errors or bad replies (see ``failure``).
    """
    role = get_role(role) if isinstance(role, str) else role
    shown = trajectory if role.uses_trajectory else None
    key = None
    if cache is not None:
        key = cache_key(model=config.model, prompt_version=role.prompt_version, role=role.name, case=case,
                        answer=answer, trajectory=shown, uses_trajectory=role.uses_trajectory, tools_city=tools_city)
        hit = cache.get(key)
        if hit is not None:
            return JudgeVerdict.from_dict(hit, cached=True)
    first = _judge_once(role, config, case, answer, shown, tools_city, max_tool_calls)
    verdict = _with_injection_check(role, config, case, answer, shown, tools_city, max_tool_calls, first)
    if verdict.failure:
        log.warning("judge %s (%s) failed on case %s: %s", config.name, config.model, case.case_id, verdict.failure)
    elif key is not None:
        cache.put(key, verdict.to_dict())
    return verdict


def _with_injection_check(role, config, case, answer, shown, tools_city, max_tool_calls, first: _Pass) -> JudgeVerdict:
    """If the untrusted text holds instructions to the grader, judge a redacted copy too and
    keep the lower score: an injection can then only ever lower a score."""
    clean_answer, findings = redact(answer, "answer")
    clean_trajectory = shown
    if shown is not None:
        clean_trajectory, more = redact_trajectory(shown)
        findings += more
    common = {"judge": config.name, "model": config.model, "role": role.name, "prompt_version": role.prompt_version}
    if not findings:
        return JudgeVerdict(**common, score=first.score, explanation=first.explanation, raw=first.raw,
                            failure=first.failure, tool_calls=first.tool_calls, details={"injection_detected": False})
    second = _judge_once(role, config, case, clean_answer, clean_trajectory, tools_city, max_tool_calls)
    score, explanation, failure = _lower(first, second)
    details = {"injection_detected": True, "injection_spans": [f.to_dict() for f in findings],
               "unredacted": {"score": first.score, "explanation": first.explanation, "failure": first.failure},
               "redacted": asdict(second)}
    return JudgeVerdict(**common, score=score, explanation=explanation, raw=first.raw, failure=failure,
                        tool_calls=first.tool_calls, details=details)


def _lower(first: _Pass, second: _Pass) -> tuple[float | None, str, str | None]:
    note = "Instructions to the grader were found in the agent's text; this is the lower of the original and redacted "
    if second.score is None:
        return None, "", f"judging the redacted copy: {second.failure}"
    if first.score is None or second.score <= first.score:
        return second.score, f"{note}judgments (redacted). {second.explanation}", None
    return first.score, f"{note}judgments (original). {first.explanation}", None


def _judge_once(role: JudgeRole, config: JudgeConfig, case: CaseSpec, answer: Any, trajectory: Trajectory | None,
                tools_city: str | None, max_tool_calls: int) -> _Pass:
    tools = verification_tools() if tools_city and max_tool_calls > 0 else None
    note = TOOLS_NOTE.format(n=max_tool_calls) if tools else NO_TOOLS_NOTE
    messages = role.messages(case, answer, trajectory, tools_note=note)
    return _converse(config, messages, tools, tools_city, max_tool_calls)


def _converse(config: JudgeConfig, messages: list[dict], tools: list[dict] | None, tools_city: str | None,
              max_tool_calls: int) -> _Pass:
    result, retries = _Pass(), 0
    offered = {spec["function"]["name"] for spec in tools or []}
    for _ in range(max_tool_calls + FORMAT_RETRIES + 3):  # a hard stop for a judge that never answers
        budget_left = max_tool_calls - len(result.tool_calls)
        try:
            message = _complete(config, messages, tools, tools_spent=budget_left <= 0)
        except Exception as exc:  # 429/5xx were already retried num_retries times
            result.failure = f"model error: {_scrub(exc, config)}"
            return result
        if message.tool_calls:
            result.raw.append(_raw_tool_turn(message))
            messages += _answer_tool_calls(message, offered, tools_city, budget_left, result)
            continue
        content = message.content or ""
        result.raw.append(content)
        score, explanation, problem = parse_verdict(content)
        if not problem:
            result.score, result.explanation = score, explanation
            return result
        if retries == FORMAT_RETRIES:
            result.failure = f"malformed reply: {problem}"
            return result
        retries += 1
        messages += [{"role": "assistant", "content": content},
                     {"role": "user", "content": f"Your reply could not be used: {problem}. "
                                                 f"Reply with one JSON object only: {VERDICT_SHAPE}"}]
    result.failure = "no verdict: the judge kept calling tools"
    return result


def _complete(config: JudgeConfig, messages: list[dict], tools: list[dict] | None, *, tools_spent: bool):
    import litellm

    kwargs: dict[str, Any] = {
        "model": config.model, "api_base": config.api_base, "api_key": config.api_key, "temperature": 0,
        "messages": list(messages), "timeout": config.timeout_s,
        # The HTTP client retries 429 and 5xx with backoff. litellm's num_retries would instead wrap
        # the call in tenacity, which is not installed, and then fail with an import error.
        "max_retries": config.num_retries, **config.params,
    }
    if tools:
        kwargs["tools"] = tools
        if tools_spent:
            kwargs["tool_choice"] = "none"
    return litellm.completion(**kwargs).choices[0].message


def _answer_tool_calls(message, offered: set[str], tools_city: str | None, budget_left: int,
                       result: _Pass) -> list[dict]:
    """The assistant turn and one tool message per call (run, refused, or over budget)."""
    calls = [{"id": call.id, "type": "function",
              "function": {"name": call.function.name, "arguments": call.function.arguments or "{}"}}
             for call in message.tool_calls]
    out: list[dict] = [{"role": "assistant", "content": message.content or "", "tool_calls": calls}]
    for call in calls:
        name, arguments = call["function"]["name"], call["function"]["arguments"]
        if budget_left <= 0:
            observation = {"error": {"kind": "budget", "message": "verification budget spent; reply with your "
                                                                  f"verdict now: {VERDICT_SHAPE}"}}
        elif name not in offered:
            observation = {"error": {"kind": "not_found", "message": f"no verification tool {name!r}",
                                     "allowed": ", ".join(sorted(offered)) or "none"}}
        else:
            observation = _run_tool(name, arguments, tools_city)
            budget_left -= 1
            result.tool_calls.append({"tool": name, "arguments": _parsed(arguments),
                                      "observation": clip(dumps(observation), RECORDED_OBSERVATION_CHARS)})
        out.append({"role": "tool", "tool_call_id": call["id"],
                    "content": clip(dumps(observation), TOOL_OBSERVATION_CHARS)})
    return out


def _run_tool(name: str, arguments: str, tools_city: str | None) -> Any:
    from environment.tools.gateway import call_tool

    return call_tool("engine", name, arguments, city=tools_city).observation()


def verification_tools() -> list[dict]:
    """The engine toolset (less answer submission and random sampling) as OpenAI function specs."""
    from environment.tools.registry import tools_for

    return [{"type": "function", "function": {"name": tool.name, "description": tool.description,
                                              "parameters": tool.input_schema()}}
            for tool in tools_for("engine") if tool.name not in NOT_FOR_VERIFICATION]


def _raw_tool_turn(message) -> str:
    calls = [{"name": call.function.name, "arguments": call.function.arguments} for call in message.tool_calls]
    return dumps({"content": message.content, "tool_calls": calls})


def _parsed(arguments: str) -> Any:
    try:
        return json.loads(arguments)
    except (TypeError, json.JSONDecodeError):
        return arguments


def _scrub(exc: Exception, config: JudgeConfig) -> str:
    """An error message fit for details and logs: short, and never holding the key."""
    text = f"{type(exc).__name__}: {exc}"
    if config.api_key:
        text = text.replace(config.api_key, "***")
    return clip(text, 500)
