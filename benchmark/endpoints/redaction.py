"""Keep secrets out of logs: a logging filter that redacts registered values and key-like patterns.

Install it on the handlers (a filter on a logger does not see records propagated from child
loggers such as LiteLLM's), see ``LOGGING`` in the settings. Code that decrypts a secret at run
time registers it with ``register_secret`` so that any log line quoting it is redacted.

Registration is global (every later log line of the process), so only values that look like keys
are registered (``looks_like_key``): a user's "API key" such as ``succeeded`` would otherwise blank
that word in everyone's logs. The model client still scrubs its own key, whatever it looks like,
from what it records and raises.
"""

from __future__ import annotations

import logging
import math
import re
import threading
from collections import Counter

REDACTED = "[redacted]"
# Real API keys are long and random; shorter or plainer values would redact ordinary words.
MIN_SECRET_LENGTH = 16
MIN_BITS_PER_CHARACTER = 3.0
# Prefixes that mark a value as a key whatever its letters (OpenAI, Anthropic, Groq, Hugging Face, Google,
# GitHub, xAI, JWTs, and this site's run and API tokens).
KEY_PREFIXES = ("sk-", "sk_", "gsk_", "hf_", "AIza", "ghp_", "github_pat_", "xai-", "eyJ", "lpr_", "lpt_")
_PATTERNS = [
    (re.compile(r"sk-[A-Za-z0-9_-]{8,}"), REDACTED),
    (re.compile(r"\blp[rt]_[A-Za-z0-9_-]{16,}"), REDACTED),
    (re.compile(r"(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE), r"\1" + REDACTED),
]

_lock = threading.Lock()
_secrets: set[str] = set()
_secrets_re: re.Pattern[str] | None = None


def looks_like_key(value: str) -> bool:
    """Whether ``value`` looks like an API key: MIN_SECRET_LENGTH characters or more, one word, and either a
    known key prefix or letters mixed with digits or both cases, spread evenly enough (MIN_BITS_PER_CHARACTER
    of Shannon entropy). Words, phrases and identifiers such as ``completed_successfully`` are not keys."""
    if len(value) < MIN_SECRET_LENGTH or any(ch.isspace() for ch in value):
        return False
    if value.startswith(KEY_PREFIXES):
        return True
    kinds = sum(any(test(ch) for ch in value) for test in (str.islower, str.isupper, str.isdigit))
    return kinds >= 2 and _bits_per_character(value) >= MIN_BITS_PER_CHARACTER


def _bits_per_character(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def register_secret(value: str | None) -> None:
    """Redact ``value`` from every later log record, if it looks like a key (``looks_like_key``)."""
    global _secrets_re
    if not value or not looks_like_key(value):
        return
    with _lock:
        if value in _secrets:
            return
        _secrets.add(value)
        # Longest first, so a secret that contains another is redacted whole.
        _secrets_re = re.compile("|".join(re.escape(s) for s in sorted(_secrets, key=len, reverse=True)))


def redact(text: str) -> str:
    """``text`` with registered secrets and key-like patterns replaced by ``[redacted]``."""
    pattern = _secrets_re
    if pattern is not None:
        text = pattern.sub(REDACTED, text)
    for regex, replacement in _PATTERNS:
        text = regex.sub(replacement, text)
    return text


class SecretRedactingFilter(logging.Filter):
    """Rewrites a record's message, exception text and stack with secrets redacted; never drops it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: still redact what it holds
            message = " ".join(str(part) for part in (record.msg, record.args))
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
