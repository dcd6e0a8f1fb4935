"""Causes that would fail every case of a run alike, found before a case is tried: the run fails once,
with the reason, instead of each case failing on its own.

Now one cause: an endpoint without a stored API key that needs one. The rule is the model client's
(``providers.key_problem``): a provider's own service takes a key, the workers' own keys are never
used, and only an endpoint with its own api_base may be keyless. Such an endpoint is one saved
before those rules, or one whose owner removed its key while runs of it were queued.
"""

from __future__ import annotations

from benchmark.endpoints.egress import ApiBaseNotAllowed
from benchmark.endpoints.models import ModelEndpoint
from benchmark.runs.models import EvaluationRun


class MissingApiKey(ValueError):
    """The endpoint has no API key and needs one; the message says how to give it one."""


def endpoint_key_problem(endpoint: ModelEndpoint | None) -> str:
    """Why ``endpoint`` cannot be called for want of an API key; "" when it has one or needs none."""
    if endpoint is None or endpoint.api_key_encrypted:
        return ""
    from benchmark.endpoints.providers import key_problem, provider_for

    try:
        provider = provider_for(endpoint.model, endpoint.api_base)
    except ApiBaseNotAllowed:  # refused for another reason: the model client says so for each case
        return ""
    problem = key_problem(provider, endpoint.api_base, "", no_key=None)
    if not problem:
        return ""
    return (
        f"endpoint {endpoint.name!r} ({endpoint.model}) has no API key: {problem}. Give it its key (on the "
        f"command line --api-key-env VARIABLE; a submission: submit the model again with its key)"
    )


def run_key_problem(run: EvaluationRun) -> str:
    """Why ``run`` cannot call its model for want of an API key ("" for runs without an endpoint, and replays)."""
    if run.endpoint_id is None or run.replay_of_id:
        return ""
    return endpoint_key_problem(run.endpoint)


def run_preflight(*, run: EvaluationRun) -> None:
    """Fail ``run`` before its first case when every case would fail alike.

    Raises:
        MissingApiKey: the run was marked failed with the same message.
    """
    from .services import run_fail

    problem = run_key_problem(run)
    if problem:
        run_fail(run_id=run.id, error=problem)
        raise MissingApiKey(f"run {run.id} failed before its first case: {problem}")
