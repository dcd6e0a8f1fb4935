"""Which LLMs judge: a :class:`JudgeConfig` per judge, read from ``settings.JUDGE_MODELS``.

The API key never sits in settings: an entry names the environment variable that holds it
(``api_key_env``), and the key is kept out of ``repr``, logs and verdict details.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# (messages, tools or None, tool_choice or None) -> an OpenAI-style chat completion as a dict.
JudgeClient = Callable[[list[dict], list[dict] | None, str | None], dict]

# Arguments judge_score sets itself; a config's extra params may not override them.
RESERVED_PARAMS = frozenset(
    {
        "model",
        "messages",
        "tools",
        "tool_choice",
        "api_base",
        "api_key",
        "temperature",
        "max_retries",
        "num_retries",
        "timeout",
    }
)
ENTRY_KEYS = frozenset({"name", "model", "api_base", "api_key_env", "params", "timeout_s", "num_retries"})


@dataclass(frozen=True)
class JudgeConfig:
    """One judge model, addressed through litellm.

    Attributes:
        name: a short label shown in details (``"gpt"``, ``"haiku"``).
        model: the litellm model string (``"openai/gpt-5.4"``, ``"anthropic/claude-haiku-4-5"``).
        api_base: endpoint for OpenAI-compatible servers; None for the provider's default.
        api_key: the key itself; never logged, never put in details.
        params: extra litellm arguments (``max_tokens``, ``reasoning_effort`` ...).
        timeout_s: per request.
        num_retries: retries of 429 and 5xx answers (by the HTTP client, with backoff).
        client: the model client that asks the model. The platform gives every judge its own
            (``benchmark.runs.scoring.model_clients``: the egress checks, retries and redaction every model
            endpoint gets); a judge without one records "no model client" as its failure.
    """

    name: str
    model: str
    api_base: str | None = None
    api_key: str | None = field(default=None, repr=False)
    params: dict[str, Any] = field(default_factory=dict)
    timeout_s: float = 120.0
    num_retries: int = 2
    client: JudgeClient | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.name or not self.model:
            raise ValueError("a judge needs a name and a litellm model string")
        clash = RESERVED_PARAMS & set(self.params)
        if clash:
            raise ValueError(f"judge {self.name!r}: params may not set {sorted(clash)}; judge_score sets them")

    def public(self) -> dict:
        """What may be shown and stored about this judge (no key)."""
        return {"name": self.name, "model": self.model, "api_base": self.api_base}


def configured_judges() -> list[JudgeConfig]:
    """The judges of ``settings.JUDGE_MODELS`` ([] when it is empty).

    Each entry is a dict with ``name`` and ``model`` and optionally ``api_base``,
    ``api_key_env`` (the NAME of the environment variable holding the key), ``params``,
    ``timeout_s`` and ``num_retries``. Raises ImproperlyConfigured on a malformed entry or
    when the named key variable is not set.
    """
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    entries = settings.JUDGE_MODELS
    if not isinstance(entries, list | tuple):
        raise ImproperlyConfigured("JUDGE_MODELS must be a list of dicts")
    judges = []
    for position, entry in enumerate(entries):
        try:
            judges.append(_judge_from_entry(entry))
        except (TypeError, ValueError) as exc:
            raise ImproperlyConfigured(f"JUDGE_MODELS[{position}]: {exc}") from None
    names = [judge.name for judge in judges]
    if len(set(names)) != len(names):
        raise ImproperlyConfigured(f"JUDGE_MODELS: judge names must be unique, got {names}")
    return judges


def _judge_from_entry(entry: Any) -> JudgeConfig:
    if not isinstance(entry, dict):
        raise TypeError(f"expected a dict, got {type(entry).__name__}")
    unknown = set(entry) - ENTRY_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}; allowed: {sorted(ENTRY_KEYS)}")
    key_env = entry.get("api_key_env")
    api_key = None
    if key_env:
        api_key = os.environ.get(key_env)
        if not api_key:
            raise ValueError(f"environment variable {key_env} (api_key_env of judge {entry.get('name')!r}) is not set")
    return JudgeConfig(
        name=entry.get("name", ""),
        model=entry.get("model", ""),
        api_base=entry.get("api_base") or None,
        api_key=api_key,
        params=dict(entry.get("params") or {}),
        timeout_s=float(entry.get("timeout_s", JudgeConfig.timeout_s)),
        num_retries=int(entry.get("num_retries", JudgeConfig.num_retries)),
    )
