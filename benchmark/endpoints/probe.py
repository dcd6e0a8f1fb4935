"""A connection test: one cheap model call to an endpoint that is not saved, through the runs' own client.

The call goes through ``LLMClient`` (so through the same egress checks, pinned connections and refused
redirects as a run), asks for one token, is not retried and is not recorded; nothing is stored. It has one
deadline for the whole call (a server that drips its answer a byte at a time is cut off there, whatever its
pace) and reads at most ``PROBE_MAX_BYTES`` of the answer. The site runs it on a worker, never in a web
request (``connection_tests.py``).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from .egress import ApiBaseNotAllowed
from .llm import EndpointSpec, LLMClient, ModelError, RetryPolicy
from .providers import key_problem, provider_for
from .redaction import REDACTED, redact

PROBE_TIMEOUT_S = 20.0  # the deadline of the whole call: connecting, sending and reading the answer
PROBE_MAX_BYTES = 256 * 1024  # an answer of one token is about 1 kB; an error page may be longer
PROBE_MESSAGES = [{"role": "user", "content": "Reply with the single word: ok"}]


@dataclass(frozen=True)
class ProbeResult:
    """What a connection test found: ``ok`` with the latency, or the error (the key never in it)."""

    ok: bool
    latency_ms: float
    message: str


def endpoint_probe(
    *,
    model: str,
    api_base: str,
    api_key: str | None,
    no_key: bool = False,
    params: dict | None = None,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> ProbeResult:
    """Make one model call of at most one token to the endpoint described, and say how it went.

    Args:
        api_key: the key to send; None or "" only with ``no_key`` and an api_base (as for a submission).
        params: the endpoint's extra parameters; ``max_tokens`` is set to 1 whatever they say.
        timeout_s: the deadline of the whole call.

    Returns:
        A ProbeResult; a refusal by the egress checks or a model error is a result, not an exception.
    """
    try:  # the key rule of a submission; the client applies the others (provider, URL, addresses, params)
        problem = key_problem(provider_for(model, api_base), api_base, api_key or "", no_key=no_key)
    except ApiBaseNotAllowed as exc:
        problem = str(exc)
    if problem:
        return ProbeResult(ok=False, latency_ms=0.0, message=f"refused: {problem}")
    spec = EndpointSpec(
        endpoint_id=None,  # no cross-worker caps: one call, and the endpoint does not exist yet
        model=model,
        api_base=api_base or "",
        api_key=api_key or None,
        params={**(params or {}), "max_tokens": 1},
    )
    client = LLMClient(spec, retry=RetryPolicy(max_attempts=1), timeout_s=timeout_s, max_response_bytes=PROBE_MAX_BYTES)
    started = time.perf_counter()
    try:
        asyncio.run(asyncio.wait_for(_call(client), timeout_s))
    except TimeoutError:
        message = f"no complete answer within {timeout_s:g} s, the deadline of a connection test"
        return ProbeResult(ok=False, latency_ms=_since(started), message=message)
    except ModelError as exc:
        return ProbeResult(ok=False, latency_ms=_since(started), message=_without_key(str(exc), api_key))
    return ProbeResult(ok=True, latency_ms=_since(started), message="the endpoint answered")


async def _call(client: LLMClient) -> Any:
    try:
        return await client.complete(PROBE_MESSAGES)
    finally:
        await client.aclose()


def _since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def _without_key(text: str, api_key: str | None) -> str:
    if api_key:
        text = text.replace(api_key, REDACTED)
    return redact(text)
