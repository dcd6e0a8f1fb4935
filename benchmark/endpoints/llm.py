"""The model client of endpoint runs: litellm with retries, cross-worker caps, recording and replay.

``LLMClient.complete(messages, tools)`` returns the model's answer as an OpenAI-style dict
(``choices[0].message`` with ``content`` / ``tool_calls``, and ``usage``). Rate limits (429),
server errors (5xx), timeouts, dropped connections and malformed answers (no choices) are
retried with exponential backoff and full jitter; what still fails raises ``ModelError``.
Every call is handed to the ``record`` callback with its request (API key removed) and its
final response or error, so a run can be audited and replayed: constructed with ``replay``,
the client answers from the recording and sends nothing.

A conversation resends everything said so far with each call (the system prompt, the tool
definitions, every turn). So that a trajectory's recording grows with what was said, not with
its square, a call that continues the previous call's conversation records only what is new:
``messages_before: k`` (its messages are the first k of the previous request followed by
``messages``) and, when the tools did not change, ``tools_as_before: true`` instead of
``tools``. The first call records the whole request; ``full_requests`` rebuilds every request.

Requests go out through the egress checks (``providers`` and ``egress_http``): the URL and the key
are always given to litellm explicitly (never read from the worker's environment), the client
litellm uses is the endpoint's own, whose transport checks and pins each connection's address and
refuses redirects, and a refused request is not retried.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .diagnosis import plain_reason
from .redaction import REDACTED, redact, register_secret

log = logging.getLogger(__name__)
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # otherwise importing litellm fetches it

REQUEST_TIMEOUT_S = 120.0  # one model request, when the client is not given its own (not a case's wall clock)
RETRY_STATUS = frozenset({408, 409, 425, 429})  # and every 5xx
_SECRET_KEY = re.compile(
    r"^(api_?key|x-api-key|authorization|proxy-authorization|secret|password|access_token"
    r"|client_secret)$",
    re.IGNORECASE,
)
MAX_ERROR_CHARS = 2000
NOMINAL_PRICE_PER_TOKEN = 1e-12  # given to litellm, never used (see _attempt)
GIVE_BACK_WAIT_S = 2.0  # how long aclose waits for its slot to reach Redis

# record(sequence=, request=, response=, error=, attempts=, latency_ms=): the fields of a ModelCall.
Recorder = Callable[..., None]


class ModelError(Exception):
    """The model gave no usable answer (after retries, or at once for errors a retry cannot fix)."""


class ContextExceeded(ModelError):
    """The conversation no longer fits the model's context window (the server refused it; nothing is cut)."""


@dataclass(frozen=True)
class RecordedFailure:
    """A model call that got no answer in the recording a replay answers from: replayed as it ended then.

    ``kind``: "model_error" (the endpoint failed), "context_exceeded", or "timeout" (the case's wall clock ran
    out while the agent waited for it, or before it was asked: replayed as the agent running out of time).
    """

    error: str
    kind: str = "model_error"
    recorded: bool = True  # False: a call the recording never made (its case ran out of time before it)


@dataclass(frozen=True)
class EndpointSpec:
    """Where and how to reach a model; ``endpoint_id`` None means no cross-worker caps."""

    endpoint_id: int | None
    model: str
    api_base: str = ""
    api_key: str | None = field(default=None, repr=False)
    params: dict = field(default_factory=dict)
    concurrency: int = 4
    requests_per_minute: int | None = None


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter: attempt n waits uniform(0, min(cap, base * 2**(n-1)))."""

    max_attempts: int = 5
    base_s: float = 0.5
    cap_s: float = 20.0

    def delay(self, attempt: int) -> float:
        return random.uniform(0, min(self.cap_s, self.base_s * 2 ** (attempt - 1)))


class _Retryable(Exception):
    """A failed attempt that a later attempt may fix."""


class _Failed(Exception):
    def __init__(self, message: str, attempts: int, kind: type[ModelError] = ModelError):
        super().__init__(message)
        self.message, self.attempts, self.kind = message, attempts, kind


class LLMClient:
    """One trajectory's model client: ``await client.complete(messages, tools)``.

    Args:
        spec: the endpoint.
        record: called once per ``complete`` with the ModelCall fields.
        replay: sequence -> recorded response (or ``RecordedFailure``); when given, no request is sent.
        retry: attempts and backoff.
        temperature: the default temperature (the run's config); ``complete`` may override it.
        timeout_s: per read of a request (httpx's timeout: not a deadline for the whole call).
        max_response_bytes: the most of an answer's body that is read (``egress_http.MAX_RESPONSE_BYTES`` by
            default; a client of its own only, not ``shared_http``); past it the call is refused, not retried.
        redis_url: where the cross-worker caps live (settings.REDIS_URL by default).
        redis: a ``redis.asyncio.Redis`` for the caps, shared with other clients on the same event
            loop and not closed by ``aclose``; without it the client opens its own connection.
        shared_http: use the process's HTTP client for the endpoint on this event loop, kept open for the
            next client (``egress_http.shared_endpoint_client``): only on a loop that lives as long as the
            process. Otherwise the client has its own, closed by ``aclose``.
    """

    def __init__(
        self,
        spec: EndpointSpec,
        *,
        record: Recorder | None = None,
        replay: dict[int, dict | RecordedFailure] | None = None,
        retry: RetryPolicy | None = None,
        temperature: float = 0.0,
        timeout_s: float = REQUEST_TIMEOUT_S,
        redis_url: str | None = None,
        lease_s: float | None = None,
        window_s: float = 60.0,
        redis=None,
        shared_http: bool = False,
        max_response_bytes: int | None = None,
    ):
        self.spec, self.record, self.replay = spec, record, replay
        self.retry = retry or RetryPolicy()
        self.temperature, self.timeout_s = temperature, timeout_s
        self.redis_url, self.lease_s, self.window_s = redis_url, lease_s, window_s
        self.sequence = 0
        self._previous_request: dict | None = None  # the last request in full (scrubbed), for the next delta
        self._shared_redis, self.shared_http = redis, shared_http
        self.max_response_bytes = max_response_bytes
        self._endpoint_limits: tuple[Any, Any] | None = None  # (event loop, EndpointLimits), one per loop
        self._egress: tuple[Any, Any, Any] | None = None  # (event loop, route, client)
        register_secret(spec.api_key)  # log lines quoting the key are redacted

    async def complete(
        self,
        messages: list[dict],
        tools: list[dict] | None = None,
        *,
        temperature: float | None = None,
        tool_choice: str | None = None,
    ) -> dict:
        """The model's next message for ``messages``, as an OpenAI-style response dict.

        ``tool_choice``: sent with the tools when given (``"none"``: a judge whose verification budget is spent).

        Raises:
            ModelError: no usable response (the message says why); the call is recorded first.
                ``ContextExceeded`` when the server says the conversation is longer than the model's context.
        """
        sequence, self.sequence = self.sequence, self.sequence + 1
        kwargs = self._kwargs(messages, tools, self.temperature if temperature is None else temperature)
        if tools and tool_choice:
            kwargs["tool_choice"] = tool_choice
        request = self._delta(self._scrub_request(kwargs))
        if self.replay is not None:
            return self._replayed(sequence, request)
        started = time.perf_counter()
        attempts, response, error = 0, None, ""
        try:
            response, attempts = await self._with_retries(kwargs)
        except _Failed as exc:
            attempts, error = exc.attempts, exc.message
            raise exc.kind(error) from None
        except asyncio.CancelledError:
            error = "cancelled: the agent ran out of time while waiting for the model"
            raise
        finally:
            self._record(
                sequence, request, response, error, max(attempts, 1), round((time.perf_counter() - started) * 1000, 3)
            )
        return response

    # --- one call --------------------------------------------------------------------------------

    def _kwargs(self, messages: list[dict], tools: list[dict] | None, temperature: float) -> dict:
        kwargs = {
            "model": self.spec.model,
            "messages": messages,
            **self.spec.params,
            "temperature": temperature,
            "timeout": self.timeout_s,
            "max_retries": 0,
        }  # retries are ours: counted, recorded and jittered
        if self.spec.api_base:
            kwargs["api_base"] = self.spec.api_base
        if tools:
            kwargs["tools"] = tools
        return kwargs

    async def _with_retries(self, kwargs: dict) -> tuple[dict, int]:
        limits = await self._limits()
        for attempt in range(1, self.retry.max_attempts + 1):
            try:
                return await self._attempt(kwargs, limits), attempt
            except _Retryable as exc:
                if attempt == self.retry.max_attempts:
                    message = f"gave up after {attempt} attempts: {exc}" if attempt > 1 else str(exc)
                    raise _Failed(message, attempt) from None
                log.warning("model %s, attempt %d failed (%s); retrying", self.spec.model, attempt, exc)
                await asyncio.sleep(self.retry.delay(attempt))
            except ModelError as exc:
                raise _Failed(str(exc), attempt, type(exc)) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def aclose(self) -> None:
        """Close the client's own HTTP client (the process's shared one stays open), give back the endpoint slot
        kept for a next request, and close the client's own connection to the caps' Redis (call when the
        trajectory is done).

        With the shared Redis client, the slot is back in Redis when this returns (or after
        ``GIVE_BACK_WAIT_S``, when Redis is slow; it goes on in the background): a worker's next case does not
        find the cap full of slots on their way back (with as many cases in flight as the cap, it waited for
        one at its first call).
        """
        if self._egress is not None:
            client, self._egress = self._egress[2], None
            if not self.shared_http:
                from .egress_http import endpoint_client_close

                await endpoint_client_close(client)
        if self._endpoint_limits is not None:
            limits, self._endpoint_limits = self._endpoint_limits[1], None
            if self._shared_redis is None:
                await limits.aclose()
            else:  # the shared Redis client outlives this one
                limits.give_back()
                await limits.settled(timeout_s=GIVE_BACK_WAIT_S)

    async def _attempt(self, kwargs: dict, limits) -> dict:
        import litellm

        from .egress_http import egress_watch

        route, client = self._endpoint_client()
        # Everything explicit: litellm would otherwise take the URL and the key from the worker's environment.
        call = {
            **kwargs,
            "api_base": route.api_base,
            "api_key": route.api_key,
            "client": client,
            "custom_llm_provider": route.provider.name,
            # litellm prices every response (twice: for the response and for its logging), looking the model
            # up in its cost map each time, a scan of the whole map for a model it does not know. That price
            # is not used: a run is priced from its tokens when its aggregates are computed (endpoints/pricing.py).
            # A price given with the call is litellm's cheapest path; nothing of it is sent. It is not zero: a
            # zero cost sends litellm on a search of its cost map for why (its "zero cost diagnostic"), 13% of
            # the Python calls of litellm.acompletion (docs/benchmarks.md, issue 16's fourth pass).
            "input_cost_per_token": NOMINAL_PRICE_PER_TOKEN,
            "output_cost_per_token": NOMINAL_PRICE_PER_TOKEN,
        }
        watch = egress_watch()  # what the transport sees of this request (the client may be shared)
        try:
            if limits is None:
                raw = await litellm.acompletion(**call)
            else:
                async with limits.slot():
                    raw = await litellm.acompletion(**call)
        except Exception as exc:
            if watch.refusal:  # the egress checks stopped it: a retry would be stopped again
                raise ModelError(f"refused: {watch.refusal}") from None
            reason = plain_reason(exc, api_base=route.api_base or "", provider=route.provider.name)
            message = self._describe(exc, reason)
            if _context_exceeded(exc):
                raise ContextExceeded(message) from None
            if _retryable(exc):
                raise _Retryable(message) from None
            raise ModelError(message) from None
        if not watch.requests:
            raise ModelError(
                f"the request to {route.provider.name} did not go through the endpoint's own client "
                "(the egress checks); its answer is not used"
            )
        response = _plain(raw)
        problem = _malformed(response)
        if problem:
            raise _Retryable(f"malformed response: {problem}")
        return response

    def _endpoint_client(self) -> tuple[Any, Any]:
        """(route, client) of the endpoint on this event loop: the process's (``shared_http``) or the client's own.

        Raises:
            ModelError: the egress checks refuse the endpoint (provider, URL, key or params).
        """
        from .egress import ApiBaseNotAllowed
        from .egress_http import endpoint_client, shared_endpoint_client
        from .providers import endpoint_route

        loop = asyncio.get_running_loop()
        if self._egress is not None and self._egress[0] is loop:
            return self._egress[1:]
        try:  # the host's addresses are checked when the client connects, not here (no blocking lookup)
            route = endpoint_route(
                model=self.spec.model,
                api_base=self.spec.api_base,
                api_key=self.spec.api_key,
                params=self.spec.params,
                resolve=False,
            )
        except ApiBaseNotAllowed as exc:
            raise ModelError(f"refused: {exc}") from None
        if self.shared_http:
            client, _ = shared_endpoint_client(route, timeout_s=self.timeout_s)
        elif self.max_response_bytes is not None:
            client, _ = endpoint_client(route, timeout_s=self.timeout_s, max_response_bytes=self.max_response_bytes)
        else:
            client, _ = endpoint_client(route, timeout_s=self.timeout_s)
        self._egress = (loop, route, client)
        return route, client

    async def _limits(self):
        """The endpoint's caps, on the shared Redis client or on one connection of the client's own."""
        if self.spec.endpoint_id is None:
            return None
        loop = asyncio.get_running_loop()
        if self._endpoint_limits is not None and self._endpoint_limits[0] is loop:
            return self._endpoint_limits[1]
        from django.conf import settings
        from redis.asyncio import Redis

        from .limits import DEFAULT_LEASE_S, EndpointLimits

        redis = self._shared_redis or Redis.from_url(self.redis_url or settings.REDIS_URL)
        limits = EndpointLimits(
            redis,
            self.spec.endpoint_id,
            concurrency=self.spec.concurrency,
            requests_per_minute=self.spec.requests_per_minute,
            lease_s=self.lease_s or DEFAULT_LEASE_S,
            window_s=self.window_s,
        )
        self._endpoint_limits = (loop, limits)
        return limits

    def _replayed(self, sequence: int, request: dict) -> dict:
        assert self.replay is not None  # called in replay mode only
        response = self.replay.get(sequence)
        if isinstance(response, RecordedFailure):  # the recording's own failure, as it happened then
            if response.recorded:
                self._record(sequence, request, None, response.error, 0, 0.0)
            if response.kind == "timeout":
                raise TimeoutError(response.error)
            raise (ContextExceeded if response.kind == "context_exceeded" else ModelError)(response.error)
        if not isinstance(response, dict):
            error = f"the recording has no response for model call {sequence}"
            self._record(sequence, request, None, error, 0, 0.0)
            raise ModelError(error)
        self._record(sequence, request, response, "", 0, 0.0)  # attempts 0: nothing was sent
        return response

    # --- recording, without the key ------------------------------------------------------------

    def _delta(self, request: dict) -> dict:
        """What is recorded of ``request``: all of it, or only what it adds to the previous request."""
        previous, self._previous_request = self._previous_request, request
        if previous is None:
            return request
        before, messages = previous.get("messages") or [], request.get("messages") or []
        if not before or messages[: len(before)] != before:
            return request  # not a continuation (e.g. the history was edited): record it whole
        delta = {key: value for key, value in request.items() if key != "messages"}
        delta["messages_before"], delta["messages"] = len(before), messages[len(before) :]
        if "tools" in request and request["tools"] == previous.get("tools"):
            del delta["tools"]
            delta["tools_as_before"] = True
        return delta

    def _record(
        self, sequence: int, request: dict, response: dict | None, error: str, attempts: int, latency_ms: float
    ) -> None:
        if self.record is None:
            return
        self.record(
            sequence=sequence,
            request=request,
            response=self._scrub(response),
            error=error,
            attempts=attempts,
            latency_ms=latency_ms,
        )

    def _scrub_request(self, kwargs: dict) -> dict:
        """``_scrub(kwargs)``, reusing the previous request's scrubbed messages and tools where they are unchanged.

        A conversation resends every earlier message and the same tools with each call: scrubbing them
        again would copy the whole conversation per call. A part equal to its scrubbed copy of the last
        request has nothing to scrub, so that copy is reused (the comparison, unlike the copy, runs in C).
        """
        previous = self._previous_request or {}
        before = previous.get("messages") or []
        request = {}
        for key, value in kwargs.items():
            if key == "messages" and isinstance(value, list):
                request[key] = [
                    before[i] if i < len(before) and message == before[i] else self._scrub(message)
                    for i, message in enumerate(value)
                ]
            elif key == "tools" and value == previous.get("tools"):
                request[key] = previous["tools"]
            else:
                request[key] = self._scrub({key: value})[key]  # the key's name is checked too
        return request

    def _scrub(self, value: Any) -> Any:
        """A JSON-safe copy of ``value`` without key-like fields or the API key anywhere in it."""
        key = self.spec.api_key
        if isinstance(value, dict):
            return {k: REDACTED if _SECRET_KEY.match(str(k)) else self._scrub(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._scrub(v) for v in value]
        if isinstance(value, str):
            return value.replace(key, REDACTED) if key else value
        if value is None or isinstance(value, bool | int | float):
            return value
        return self._scrub(str(value))

    def _describe(self, exc: BaseException, reason: str = "") -> str:
        """The error as recorded and shown: the plain reason when one is known (``diagnosis.plain_reason``), then
        the exception's own words in brackets; the key never in it."""
        text = f"{type(exc).__name__}: {exc}"
        if reason:
            text = f"{reason} ({text})"
        if self.spec.api_key:
            text = text.replace(self.spec.api_key, REDACTED)
        return redact(text)[:MAX_ERROR_CHARS]


def full_requests(recorded: list[dict]) -> list[dict]:
    """The whole requests of one client's recorded calls, given in sequence order (see the module's docstring).

    Raises:
        ValueError: a call continues a request that is not in ``recorded`` (calls missing, or out of order).
    """
    requests: list[dict] = []
    for request in recorded:
        if "messages_before" not in request:
            requests.append(request)
            continue
        if not requests or len(requests[-1].get("messages") or []) < request["messages_before"]:
            raise ValueError(f"call {len(requests)} continues a previous request that is not in the recording")
        previous = requests[-1]
        whole = {key: value for key, value in request.items() if key not in ("messages_before", "tools_as_before")}
        whole["messages"] = previous["messages"][: request["messages_before"]] + request["messages"]
        if request.get("tools_as_before"):
            whole["tools"] = previous.get("tools")
        requests.append(whole)
    return requests


def _context_exceeded(exc: BaseException) -> bool:
    """Whether the endpoint refused the request for being longer than the model's context (litellm reads the
    providers' wordings, llama.cpp's and vLLM's included, into ``ContextWindowExceededError``)."""
    import litellm

    return isinstance(exc, litellm.ContextWindowExceededError)


def _retryable(exc: BaseException) -> bool:
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status in RETRY_STATUS or status >= 500
    try:
        import httpx
    except ImportError:  # pragma: no cover
        return isinstance(exc, OSError | asyncio.TimeoutError)
    return isinstance(exc, OSError | asyncio.TimeoutError | httpx.TransportError)


def _plain(raw: Any) -> dict:
    """litellm's ModelResponse as plain JSON data."""
    data = raw.model_dump() if hasattr(raw, "model_dump") else raw
    return json.loads(json.dumps(data, default=str))


def _malformed(response: Any) -> str:
    """Why ``response`` cannot be read as a chat answer; "" when it can.

    Tool-call arguments that are not JSON are not malformed: the agent answers them as a tool error.
    """
    if not isinstance(response, dict):
        return "not an object"
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices:
        return "no choices"
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    if not isinstance(message, dict):
        return "the first choice has no message"
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not function.get("name"):
            return "a tool call without a function name"
    return ""


async def model_calls_warm_up() -> None:
    """Run litellm's call path once with a mock completion (no network), so that what it imports lazily is
    loaded before the first real call; then drain litellm's logging worker, so that nothing is left bound
    to this event loop for the next one to take over (a worker does this before its first case)."""
    import litellm

    await litellm.acompletion(
        model="openai/warm-up", messages=[{"role": "user", "content": "warm up"}], mock_response="ready"
    )
    from litellm.litellm_core_utils.logging_worker import GLOBAL_LOGGING_WORKER

    await GLOBAL_LOGGING_WORKER.flush()
