"""Structured logs: one JSON object per line (``LOG_FORMAT=json``), for a log collector.

The handler's ``SecretRedactingFilter`` has already rewritten the message and the exception
text when a record reaches the formatter; values passed with ``extra=`` are redacted here.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# Attributes every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message", "process", ["exception"], [extra fields]}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        from benchmark.endpoints.redaction import redact

        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = redact(record.exc_text)
        if record.stack_info:
            entry["stack"] = redact(record.stack_info)
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry:
                entry[key] = _clean(value, redact)
        return json.dumps(entry, ensure_ascii=False, default=str)


def _clean(value, redact):
    """A JSON-safe copy of an ``extra=`` value with secrets redacted from its text."""
    if isinstance(value, str):
        return redact(value)
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, dict):
        return {str(key): _clean(item, redact) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_clean(item, redact) for item in value]
    return redact(str(value))
