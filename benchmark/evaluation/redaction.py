"""Keep secrets out of logs: a logging filter that redacts registered values and key-like patterns.

Install it on the handlers (a filter on a logger does not see records propagated from child
loggers such as LiteLLM's), see ``LOGGING`` in the settings. Code that decrypts a secret at run
time registers it with ``register_secret`` so that any log line quoting it is redacted.
"""
from __future__ import annotations

import logging
import re
import threading

REDACTED = "[redacted]"
# Shorter values would redact ordinary words; real API keys are far longer.
MIN_SECRET_LENGTH = 6
_PATTERNS = [
    (re.compile(r"sk-[A-Za-z0-9_-]{8,}"), REDACTED),
    (re.compile(r"(Bearer\s+)[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE), r"\1" + REDACTED),
]

_lock = threading.Lock()
_secrets: set[str] = set()
_secrets_re: re.Pattern[str] | None = None


def register_secret(value: str | None) -> None:
    """Redact ``value`` from every later log record (values under MIN_SECRET_LENGTH are ignored)."""
    global _secrets_re
    if not value or len(value) < MIN_SECRET_LENGTH:
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
