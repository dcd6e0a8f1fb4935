"""The model client of one trajectory: the endpoint's key and caps, recording, or the replay of a recording."""

from __future__ import annotations

from benchmark.agents.config import RunConfig
from benchmark.endpoints.llm import EndpointSpec, LLMClient, RecordedFailure
from benchmark.endpoints.providers import endpoint_route
from benchmark.endpoints.services import assert_api_base_allowed, endpoint_api_key
from benchmark.runs.models import Trajectory
from kernel.vocabulary import Ending

from .preflight import MissingApiKey, endpoint_key_problem


def recorded_answers(source: Trajectory) -> dict[int, dict | RecordedFailure]:
    """What a replay of ``source`` answers each model call with: its recorded response, or how it failed.

    A call recorded without a response failed: the case's timeout if the trajectory ended so, its context if it
    ended ``context_exceeded``, else the endpoint's error, each with its recorded message. A trajectory that
    timed out between two model calls (in a tool call) has a timeout recorded for the call it never made.
    """
    calls = list(source.model_calls.order_by("sequence"))
    kinds = {Ending.TIMEOUT.value: "timeout", Ending.CONTEXT_EXCEEDED.value: "context_exceeded"}
    kind = kinds.get(str(source.ended), "model_error")
    answers: dict[int, dict | RecordedFailure] = {
        c.sequence: c.response if c.response is not None else RecordedFailure(c.error, kind) for c in calls
    }
    if source.ended == Ending.TIMEOUT and (not calls or calls[-1].response is not None):
        answers[calls[-1].sequence + 1 if calls else 0] = RecordedFailure("", "timeout", recorded=False)
    return answers


def llm_client(
    *, trajectory: Trajectory, config: RunConfig, calls: list[dict], redis=None, shared_http: bool = False
) -> LLMClient:
    """A client that records every call into ``calls``; for a replay run, one that answers from
    the source run's recording of the same (case, trial) and never calls the endpoint.

    ``redis`` (a ``redis.asyncio.Redis`` used on the event loop the client runs in) holds the
    endpoint's caps; without it the client opens its own connection and closes it in ``aclose``.
    ``shared_http``: the process's HTTP client for the endpoint (``LLMClient``), on the worker's own loop.

    Raises:
        ApiBaseNotAllowed: the egress checks refuse the endpoint (provider, URL, key or params).
        MissingApiKey: the endpoint has no key and its provider needs one (no request would succeed).
    """
    run, endpoint = trajectory.run, trajectory.run.endpoint
    assert endpoint is not None  # only endpoint runs have a model client
    replay, key = None, None
    if run.replay_of_id:
        source = Trajectory.objects.filter(
            run_id=run.replay_of_id, entry_id=trajectory.entry_id, trial=trajectory.trial
        ).first()
        replay = recorded_answers(source) if source else {}
    else:
        assert_api_base_allowed(endpoint.api_base)  # DNS may have changed since the endpoint was saved
        key = endpoint_api_key(endpoint)
        problem = "" if key else endpoint_key_problem(endpoint)  # first: it fails the whole run, not one case
        if problem:
            raise MissingApiKey(problem)
        # Rows saved before the egress checks: provider, URL, key and params again (ApiBaseNotAllowed).
        endpoint_route(
            model=endpoint.model, api_base=endpoint.api_base, api_key=key, params=endpoint.params, resolve=False
        )
    spec = EndpointSpec(
        endpoint_id=endpoint.id,
        model=endpoint.model,
        api_base=endpoint.api_base,
        api_key=key,
        params=endpoint.params,
        concurrency=endpoint.concurrency,
        requests_per_minute=endpoint.requests_per_minute,
    )
    return LLMClient(
        spec,
        record=lambda **fields: calls.append(fields),
        replay=replay,
        temperature=config.temperature,
        redis=redis,
        shared_http=shared_http,
    )
