"""Model endpoints: validated writes and the API key encrypted at rest.

``api_base`` is checked by the request forgery guard in ``egress`` (re-exported here): the model
client calls ``assert_api_base_allowed`` before each run, since DNS can change after a save. The
provider, the URL it implies, the key and the params are checked by the rules of ``providers``
(an allowed provider, an api_base where it has no public default, a key or an explicit
``no_key``, allowlisted params), the same rules the model client applies before each request.
"""

from __future__ import annotations

import enum
import functools
import hashlib
import json
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from benchmark.endpoints.models import ModelEndpoint
from kernel.inputs import REQUEST_JSON, check_json

from .card import card_clean
from .connection_tests import ConnectionTestBusy, connection_test_start, connection_test_state
from .egress import ApiBaseNotAllowed, api_base_problem, assert_api_base_allowed, check_api_base
from .probe import ProbeResult, endpoint_probe
from .providers import base_problem, key_problem, params_problem, provider_for
from .redaction import register_secret
from .secrets import decrypt_secret, encrypt_secret, reencrypt_secret

MAX_CONCURRENCY = 256
MAX_REQUESTS_PER_MINUTE = 100_000
MAX_API_KEY_LENGTH = 4096

__all__ = [
    "UNCHANGED",
    "ApiBaseNotAllowed",
    "ConnectionTestBusy",
    "ProbeResult",
    "api_base_problem",
    "assert_api_base_allowed",
    "check_api_base",
    "connection_test_start",
    "connection_test_state",
    "endpoint_api_key",
    "endpoint_check",
    "endpoint_create",
    "endpoint_for_cli",
    "endpoint_keys_rotate",
    "endpoint_probe",
    "endpoint_update",
]


class _Unchanged(enum.Enum):
    UNCHANGED = "unchanged"


UNCHANGED = _Unchanged.UNCHANGED


# --- validation ---------------------------------------------------------------------------------


def endpoint_check(
    *,
    name: Any,
    model: Any,
    api_base: Any,
    params: Any = None,
    concurrency: Any = 4,
    requests_per_minute: Any = None,
    api_key: Any = None,
    no_key: bool = False,
    keeps_key: bool | None | _Unchanged = UNCHANGED,
    endpoint: ModelEndpoint | None = None,
    owner: Any = UNCHANGED,
    card: Any = None,
) -> dict[str, Any]:
    """Validate every field of an endpoint; returns the cleaned values.

    Args:
        no_key: the user says the endpoint takes no API key (allowed only with an api_base); an empty
            api_key without it is refused, since the evaluation workers' own keys are never used.
        keeps_key: whether the stored key stays (an edit that does not set the key): True when one
            is stored, False for an endpoint already saved keyless, None when ``api_key`` is the new
            key. By default, an edit with an empty ``api_key`` keeps the stored key (as the admin does).
        endpoint: the endpoint being edited (its own name is not a clash), or None for a new one.
        owner: whose names the name must not clash with (names are unique per owner); by default
            the edited endpoint's owner, or nobody (command-line endpoints) for a new one.
        card: what the submitter declares of the model (``card.FIELDS``), or None for nothing.

    Raises:
        ValidationError: a dict keyed by field name; each message says what is allowed.
    """
    checks = {
        "name": lambda: _clean_name(name, endpoint, _owner_of(endpoint) if owner is UNCHANGED else owner),
        "model": lambda: _clean_model(model),
        "api_base": lambda: check_api_base(api_base if api_base is not None else ""),
        "params": lambda: _clean_params(params),
        "concurrency": lambda: _clean_int("concurrency", concurrency, 1, MAX_CONCURRENCY),
        "requests_per_minute": lambda: (
            None
            if requests_per_minute is None
            else _clean_int("requests_per_minute", requests_per_minute, 1, MAX_REQUESTS_PER_MINUTE, none_ok=True)
        ),
        "api_key": lambda: _clean_api_key(api_key),
        "card": lambda: card_clean(card),
    }
    cleaned: dict[str, Any] = {}
    errors: dict[str, list[str]] = {}
    for field, check in checks.items():
        try:
            cleaned[field] = check()
        except ValidationError as exc:
            errors[field] = exc.messages
    if not errors.keys() & {"model", "api_base", "api_key"}:
        if keeps_key is UNCHANGED:
            keeps_key = bool(endpoint.api_key_encrypted) if endpoint is not None and not cleaned["api_key"] else None
        errors.update(_egress_errors(cleaned["model"], cleaned["api_base"], cleaned["api_key"], no_key, keeps_key))
    if errors:
        raise ValidationError(errors)
    return cleaned


def _egress_errors(model: str, api_base: str, api_key: str, no_key: bool, keeps_key: bool | None) -> dict:
    """The provider, URL and key rules of ``providers``, keyed by the field to change."""
    try:
        provider = provider_for(model, api_base)
    except ApiBaseNotAllowed as exc:
        return {"model": [str(exc)]}
    problem = base_problem(provider, api_base)
    if problem:
        return {"api_base": [problem]}
    if keeps_key is None:
        problem = key_problem(provider, api_base, api_key, no_key=no_key)
    else:  # the stored key stays; an endpoint already keyless was confirmed so when it was saved
        problem = key_problem(provider, api_base, "stored" if keeps_key else "", no_key=no_key if keeps_key else None)
    return {"api_key": [problem]} if problem else {}


def _owner_of(endpoint: ModelEndpoint | None):
    return endpoint.owner if endpoint is not None else None


def _clean_name(name: Any, endpoint: ModelEndpoint | None, owner) -> str:
    value = name.strip() if isinstance(name, str) else ""
    if not value or len(value) > 100:
        raise ValidationError("name is required: up to 100 characters")
    # Only the owner's own endpoints clash: another user's names are not revealed.
    clashes = ModelEndpoint.objects.filter(name=value, owner=owner, deleted_at__isnull=True)
    if endpoint is not None and endpoint.pk is not None:
        clashes = clashes.exclude(pk=endpoint.pk)
    if clashes.exists():
        raise ValidationError(f"you already have an endpoint named {value!r}")
    return value


def _clean_model(model: Any) -> str:
    value = model.strip() if isinstance(model, str) else ""
    example = "a litellm model string: provider/model (e.g. openai/gpt-4o-mini, hosted_vllm/my-model)"
    if not value:
        raise ValidationError(f"model is required: {example} or a model name litellm knows (e.g. gpt-4o-mini)")
    if len(value) > 200 or any(ch.isspace() for ch in value):
        raise ValidationError(f"model must be {example}, without spaces, up to 200 characters")
    provider, slash, rest = value.partition("/")
    if slash and not (provider and rest):
        raise ValidationError(f"model {value!r} must be {example}")
    if slash and provider not in _litellm_providers():
        raise ValidationError(f"model {value!r}: {provider!r} is not a litellm provider; use {example}")
    if not slash and value not in _litellm_models():
        raise ValidationError(f"model {value!r} is not a model name litellm knows; use {example}")
    return value


@functools.cache
def _litellm_providers() -> frozenset[str]:
    import litellm  # heavy: only when an endpoint is validated

    return frozenset(str(getattr(p, "value", p)) for p in litellm.provider_list)


@functools.cache
def _litellm_models() -> frozenset[str]:
    import litellm

    return frozenset(litellm.model_cost)


def _clean_params(params: Any) -> dict:
    if params is None:
        return {}
    # Not an object, or a key off the allowlist (fallbacks, model_list, api_base... would route elsewhere).
    problem = params_problem(params)
    if problem:
        raise ValidationError(problem)
    problems = check_json(params, field="params", limits=REQUEST_JSON)  # NUL, NaN, too deep or too long
    if problems:
        raise ValidationError([str(problem) for problem in problems])
    try:
        json.dumps(params, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"params must hold only JSON values ({exc})") from None
    return params


def _clean_int(field: str, value: Any, low: int, high: int, none_ok: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        allowed = f"a whole number from {low} to {high}" + (", or empty for no limit" if none_ok else "")
        raise ValidationError(f"{field} must be {allowed}")
    return value


def _clean_api_key(api_key: Any) -> str:
    if api_key is None:
        return ""
    if not isinstance(api_key, str):
        raise ValidationError("api_key must be text")
    value = api_key.strip()
    if len(value) > MAX_API_KEY_LENGTH or any(ch.isspace() or not ch.isprintable() for ch in value):
        raise ValidationError(f"api_key must be one line without spaces, up to {MAX_API_KEY_LENGTH} characters")
    return value


# --- services -------------------------------------------------------------------------------------


def endpoint_create(
    *,
    name: str,
    model: str,
    api_base: str,
    api_key: str | None,
    params: dict | None = None,
    concurrency: int = 4,
    requests_per_minute: int | None = None,
    owner=None,
    no_key: bool = False,
    card: dict | None = None,
) -> ModelEndpoint:
    """Create an endpoint after validating every field; the API key is stored encrypted.

    Args:
        api_base: "" for the provider's default URL; otherwise http(s), refused if internal.
        api_key: the key; None or "" only with ``no_key``.
        no_key: the endpoint takes no key (its server at ``api_base`` needs none); it is sent a
            placeholder, never a key of the evaluation workers.

    Raises:
        ValidationError: keyed by field, saying what is allowed.
    """
    values = endpoint_check(
        name=name,
        model=model,
        api_base=api_base,
        params=params,
        concurrency=concurrency,
        requests_per_minute=requests_per_minute,
        api_key=api_key,
        no_key=no_key,
        owner=owner,
        card=card,
    )
    endpoint = ModelEndpoint(owner=owner)
    return _save(endpoint, values, set_key=True)


def endpoint_update(
    *,
    endpoint: ModelEndpoint,
    name: str | _Unchanged = UNCHANGED,
    model: str | _Unchanged = UNCHANGED,
    api_base: str | _Unchanged = UNCHANGED,
    api_key: str | None | _Unchanged = UNCHANGED,
    params: dict | None | _Unchanged = UNCHANGED,
    concurrency: int | _Unchanged = UNCHANGED,
    requests_per_minute: int | None | _Unchanged = UNCHANGED,
    owner=UNCHANGED,
    no_key: bool = False,
    card: dict | None | _Unchanged = UNCHANGED,
) -> ModelEndpoint:
    """Change the given fields (the others stay), re-validating the whole endpoint.

    Args:
        api_key: UNCHANGED keeps the stored key; None or "" removes it (an explicit choice: the
            endpoint becomes keyless, which needs an api_base); text replaces it.
        no_key: with a new key of None or "", the endpoint takes no key (removing one implies it).

    Raises:
        ValidationError: keyed by field, saying what is allowed.
    """
    given = {
        "name": name,
        "model": model,
        "api_base": api_base,
        "params": params,
        "concurrency": concurrency,
        "requests_per_minute": requests_per_minute,
        "card": card,
    }
    merged = {f: getattr(endpoint, f) if v is UNCHANGED else v for f, v in given.items()}
    removing = api_key is not UNCHANGED and not api_key and bool(endpoint.api_key_encrypted)
    keeps_key = bool(endpoint.api_key_encrypted) if api_key is UNCHANGED else None
    values = endpoint_check(
        **merged,
        api_key=None if api_key is UNCHANGED else api_key,
        endpoint=endpoint,
        no_key=no_key or removing,
        keeps_key=keeps_key,
        owner=endpoint.owner if owner is UNCHANGED else owner,
    )
    if owner is not UNCHANGED:
        endpoint.owner = owner
    return _save(endpoint, values, set_key=api_key is not UNCHANGED)


def _save(endpoint: ModelEndpoint, values: dict, *, set_key: bool) -> ModelEndpoint:
    key = values.pop("api_key")
    for field, value in values.items():
        setattr(endpoint, field, value)
    if set_key:
        endpoint.api_key_encrypted = encrypt_secret(key) if key else ""
        register_secret(key)
    try:
        with transaction.atomic():
            endpoint.save()
    except IntegrityError:  # a concurrent save took the name between the check and the insert
        raise ValidationError({"name": [f"you already have an endpoint named {endpoint.name!r}"]}) from None
    return endpoint


def endpoint_api_key(endpoint: ModelEndpoint) -> str | None:
    """The decrypted API key, or None when none is set. Only the evaluation layer calls this.

    The value is registered with the log redaction filter, so log lines quoting it are redacted.

    Raises:
        SecretDecryptionError: the configured keys cannot decrypt the stored key.
    """
    if not endpoint.api_key_encrypted:
        return None
    key = decrypt_secret(endpoint.api_key_encrypted)
    register_secret(key)
    return key


def endpoint_keys_rotate() -> int:
    """Re-encrypt every stored API key under the current FIELD_ENCRYPTION_KEY; returns how many.

    Run after rotating the key (the previous one listed in FIELD_ENCRYPTION_KEYS_OLD), after which
    the old key can be dropped from the settings.
    """
    count = 0
    with transaction.atomic():
        for endpoint in ModelEndpoint.objects.select_for_update().exclude(api_key_encrypted=""):
            endpoint.api_key_encrypted = reencrypt_secret(endpoint.api_key_encrypted)
            endpoint.save(update_fields=["api_key_encrypted"])
            count += 1
    return count


def endpoint_for_cli(*, model: str, api_base: str, api_key: str | None, concurrency: int = 4) -> ModelEndpoint:
    """The endpoint a command-line run uses, one per (model, api_base), updated to this invocation's key.

    On the command line, no key (no --api-key-env) means a keyless server: allowed with an api_base only.
    """
    digest = hashlib.sha256(f"{model}\n{api_base}".encode()).hexdigest()[:8]
    name = f"cli {model}"[:90] + f" {digest}"
    existing = ModelEndpoint.objects.filter(name=name, owner=None, deleted_at__isnull=True).first()
    if existing is not None:
        return endpoint_update(endpoint=existing, api_key=api_key, concurrency=concurrency, no_key=not api_key)
    return endpoint_create(
        name=name, model=model, api_base=api_base, api_key=api_key, concurrency=concurrency, no_key=not api_key
    )
