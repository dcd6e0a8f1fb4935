"""Where a submitted endpoint's model requests go, and with which key and params.

litellm picks a request's URL and key from the model string and, for whatever it is not given,
falls back to the worker's own configuration: OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_BASE_URL
and the like from the environment, ``ollama/`` to localhost:11434, ``llamafile/`` to
127.0.0.1:8080. For an endpoint a user submitted, nothing is left to those defaults:

- the provider must be one of ``PROVIDERS``, whose litellm request path is known to use the
  client ``egress_http`` builds (the egress transport); litellm is told the provider explicitly;
- the URL is always explicit: the endpoint's api_base, else the provider's public default from
  the table; a provider without one (a self-hosted server, whose litellm default is the worker
  itself) needs an api_base;
- the key is always explicit: the endpoint's key, or ``NO_KEY`` for a keyless endpoint. A keyless
  endpoint needs its own api_base (a provider's own service takes a key), and saving one takes
  an explicit ``no_key``: an empty key field is a mistake, not a request for the worker's key;
- params are allowlisted (``ALLOWED_PARAMS``): fallbacks, model_list, api_base, headers and the
  like would send requests elsewhere, with other keys.

Judges (``judging.judges``) are configured by the operator and do not go through here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .egress import ApiBaseNotAllowed, api_base_problem

# Sent as the key of a keyless endpoint, so that no library looks for one in the environment. Not a secret.
NO_KEY = "no-key"
OPENAI_SDK, HTTP = "openai_sdk", "http"  # the client litellm takes for the provider's request path

ALLOWED_PARAMS = frozenset(
    {
        "temperature",
        "top_p",
        "top_k",
        "min_p",
        "max_tokens",
        "max_completion_tokens",
        "stop",
        "seed",
        "presence_penalty",
        "frequency_penalty",
        "repetition_penalty",
        "logit_bias",
        "reasoning_effort",
        "thinking",
        "parallel_tool_calls",
    }
)


@dataclass(frozen=True)
class Provider:
    """A litellm provider submitted endpoints may use.

    Attributes:
        client: OPENAI_SDK (litellm's request path takes an ``openai.AsyncOpenAI``) or HTTP (it takes
            litellm's ``AsyncHTTPHandler``); checked per provider by the tests.
        default_api_base: the provider's own service, used when the endpoint has no api_base; ""
            when there is none to use (an api_base is required).
    """

    name: str
    client: str
    default_api_base: str = ""


PROVIDERS = {
    p.name: p
    for p in [
        Provider("openai", OPENAI_SDK, "https://api.openai.com/v1"),
        Provider("custom_openai", OPENAI_SDK),
        Provider("hosted_vllm", HTTP),
        Provider("llamafile", OPENAI_SDK),
        Provider("lm_studio", OPENAI_SDK),
        Provider("anthropic", HTTP, "https://api.anthropic.com"),
        Provider("cerebras", OPENAI_SDK, "https://api.cerebras.ai/v1"),
        Provider("deepinfra", OPENAI_SDK, "https://api.deepinfra.com/v1/openai"),
        Provider("deepseek", HTTP, "https://api.deepseek.com/beta"),
        Provider("fireworks_ai", HTTP, "https://api.fireworks.ai/inference/v1"),
        Provider("mistral", HTTP, "https://api.mistral.ai/v1"),
        Provider("openrouter", HTTP, "https://openrouter.ai/api/v1"),
        Provider("perplexity", OPENAI_SDK, "https://api.perplexity.ai"),
        Provider("together_ai", HTTP, "https://api.together.ai/v1"),
        Provider("xai", HTTP, "https://api.x.ai/v1"),
    ]
}
# Where litellm sends these when no api_base is given: the evaluation worker itself.
LOCAL_DEFAULTS = {
    "ollama": "http://localhost:11434",
    "ollama_chat": "http://localhost:11434",
    "llamafile": "http://127.0.0.1:8080/v1",
    "lm_studio": "http://localhost:1234/v1",
    "xinference": "http://127.0.0.1:9997/v1",
    "oobabooga": "http://localhost:5000",
    "lemonade": "http://localhost:8000",
    "docker_model_runner": "http://localhost:12434",
    "triton": "http://localhost:8000",
    "vllm": "the model loaded into the worker process",
    "petals": "the model loaded into the worker process",
}
_OPENAI_HINT = (
    "most servers and services speak the OpenAI API: use openai/<model> with their api_base "
    "(vLLM, Ollama, llama.cpp and LM Studio serve one at http://host:port/v1)"
)


@dataclass(frozen=True)
class Route:
    """Where one endpoint's requests go: every value explicit, none left to litellm's defaults."""

    provider: Provider
    api_base: str
    api_key: str = field(repr=False)
    params: dict = field(default_factory=dict)


def provider_for(model: str, api_base: str = "") -> Provider:
    """The provider litellm uses for ``model`` (with ``api_base``, which can decide it for a bare name).

    Raises:
        ApiBaseNotAllowed: litellm knows no provider for it, or it is not one endpoints may use.
    """
    import litellm  # heavy: only when an endpoint is checked or called

    try:
        name = litellm.get_llm_provider(model=model, api_base=api_base or None)[1]
    except Exception:  # litellm raises its own BadRequestError subclasses
        raise ApiBaseNotAllowed(f"model {model!r}: litellm knows no provider for it; {_OPENAI_HINT}") from None
    provider = PROVIDERS.get(name)
    if provider is not None:
        return provider
    local = LOCAL_DEFAULTS.get(name)
    why = f"its litellm default, {local}, is the evaluation worker itself; " if local else ""
    raise ApiBaseNotAllowed(
        f"model {model!r}: provider {name!r} cannot be used for an endpoint here ({why}endpoints may use the "
        f"providers whose requests go through the egress checks: {', '.join(sorted(PROVIDERS))}); {_OPENAI_HINT}"
    )


def base_problem(provider: Provider, api_base: str) -> str | None:
    """Why ``api_base`` (stripped; "" for the default) cannot be used with ``provider``; None when it can."""
    if api_base or provider.default_api_base:
        return None
    local = LOCAL_DEFAULTS.get(provider.name)
    where = (
        f"without one litellm uses {local}, which is the evaluation worker itself"
        if local
        else "it has no public default"
    )
    return f"provider {provider.name} needs an api_base ({where}): give your server's URL, e.g. https://host:8000/v1"


def key_problem(provider: Provider, api_base: str, api_key: str, *, no_key: bool | None) -> str | None:
    """Why this key setting cannot be used; None when it can.

    Args:
        no_key: the user's explicit "this endpoint takes no key"; None at run time, where a keyless
            endpoint was confirmed when it was saved.
    """
    if api_key:
        return "no_key is set but an API key was given: send one or the other" if no_key else None
    if not api_base:
        return (
            f"an API key is required: {provider.name}'s own service ({provider.default_api_base}) takes one, "
            "and the evaluation workers' own keys are never used for an endpoint"
        )
    if no_key is False:
        return (
            "the API key is empty: enter the key, or, if the server at the api_base takes none, say so "
            "explicitly (no_key); the evaluation workers' own keys are never used for an endpoint"
        )
    return None


def params_problem(params: Any) -> str | None:
    """Why ``params`` (an endpoint's extra litellm arguments) are refused; None when they are allowed."""
    if params is None or params == {}:
        return None
    if not isinstance(params, dict):
        return f'params must be a JSON object such as {{"temperature": 0.2}}, not a {type(params).__name__}'
    refused = sorted(str(key) for key in params if key not in ALLOWED_PARAMS)
    if refused:
        return (
            f"params may not set {', '.join(refused)}: the allowed params are {', '.join(sorted(ALLOWED_PARAMS))} "
            "(the endpoint's URL, key and model are its own fields, and credentials belong in the API key field)"
        )
    return None


def endpoint_route(
    *, model: str, api_base: str, api_key: str | None, params: Any = None, resolve: bool = True
) -> Route:
    """Where an endpoint's requests go: its provider, its URL and its key, all explicit.

    Args:
        api_key: the decrypted key; None or "" for a keyless endpoint (sent as ``NO_KEY``).
        resolve: also resolve the api_base's host and check its addresses now (the client checks
            them again when it connects).

    Raises:
        ApiBaseNotAllowed: the model, the URL, the key setting or the params are refused; the
            message says which and what is allowed.
    """
    api_base = (api_base or "").strip()
    provider = provider_for(model, api_base)
    problem = (
        params_problem(params)
        or base_problem(provider, api_base)
        or api_base_problem(api_base, resolve=resolve)
        or key_problem(provider, api_base, api_key or "", no_key=None)
    )
    if problem:
        raise ApiBaseNotAllowed(problem)
    return Route(
        provider=provider,
        api_base=api_base or provider.default_api_base,
        api_key=api_key or NO_KEY,
        params=dict(params or {}),
    )
