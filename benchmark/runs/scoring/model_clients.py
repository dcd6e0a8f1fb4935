"""Every model request of the platform goes through one model client: agents', judges' and the paraphraser's.

The agents' client is ``benchmark.endpoints.llm.LLMClient`` (``llm_factory``). Judges and the paraphraser ask
their models through the same class, here: the egress checks (the provider, the URL, the key, the params
allowlist; each connection's address, with ``PRIVATE_ENDPOINT_ADDRESSES`` for a model on this machine),
retries of 429, 5xx and dropped connections with backoff, and the key kept out of every message. There are
no cross-worker caps: a judge or a paraphraser is not a submitted endpoint. What a judge replied is kept in its
verdict (``raw``) and the judge cache; a paraphrase is kept or refused by ``keeps_meaning``.

- ``platform_judges()``: ``settings.JUDGE_MODELS`` with a client on each judge (scoring, ``score --judges``,
  ``calibrate_judges``);
- the paraphraser's client is registered in ``benchmark.cases.engine.paraphrase.PARAPHRASE_CLIENTS`` when the
  runs app is ready (the cases app cannot import the endpoints app).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from benchmark.cases.engine.paraphrase import PARAPHRASE_CLIENTS
from benchmark.endpoints.llm import EndpointSpec, LLMClient, RetryPolicy
from judging.judges import JudgeConfig, configured_judges


def ask_once(
    spec: EndpointSpec,
    messages: list[dict],
    tools: list[dict] | None = None,
    *,
    temperature: float,
    timeout_s: float,
    retry: RetryPolicy,
    tool_choice: str | None = None,
) -> dict:
    """One chat completion through an ``LLMClient`` made for it and closed after it (an OpenAI-style dict).

    For code that runs no event loop in its thread (scoring, the data engine).

    Raises:
        ModelError: no usable answer (refused by the egress checks, or failing after the retries).
    """

    async def once() -> dict:
        client = LLMClient(spec, retry=retry, temperature=temperature, timeout_s=timeout_s)
        try:
            return await client.complete(messages, tools, tool_choice=tool_choice)
        finally:
            await client.aclose()

    return asyncio.run(once())


def platform_judges() -> list[JudgeConfig]:
    """The configured judges, each with the platform's model client ([] when none is configured).

    Raises:
        ImproperlyConfigured: ``JUDGE_MODELS`` is malformed (``configured_judges``).
    """
    return [with_model_client(judge) for judge in configured_judges()]


def with_model_client(judge: JudgeConfig) -> JudgeConfig:
    """``judge`` asking its model through the model client, at temperature 0."""
    spec = EndpointSpec(
        endpoint_id=None, model=judge.model, api_base=judge.api_base or "", api_key=judge.api_key, params=judge.params
    )
    retry = RetryPolicy(max_attempts=judge.num_retries + 1)

    def ask(messages: list[dict], tools: list[dict] | None, tool_choice: str | None) -> dict:
        return ask_once(
            spec, messages, tools, temperature=0.0, timeout_s=judge.timeout_s, retry=retry, tool_choice=tool_choice
        )

    return replace(judge, client=ask)


@PARAPHRASE_CLIENTS.register("model client")
def paraphrase_ask(
    *, model: str, api_base: str | None, api_key: str | None, messages: list[dict], temperature: float, timeout_s: float
) -> str:
    """The paraphraser's reply text, through the model client (3 attempts)."""
    spec = EndpointSpec(endpoint_id=None, model=model, api_base=api_base or "", api_key=api_key)
    response = ask_once(spec, messages, temperature=temperature, timeout_s=timeout_s, retry=RetryPolicy(max_attempts=3))
    return response["choices"][0]["message"].get("content") or ""
