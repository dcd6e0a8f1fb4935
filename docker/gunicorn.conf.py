"""gunicorn's own log lines (start, worker timeouts, errors) in the site's format: JSON when LOG_FORMAT=json,
through the same secret-redacting filter as the application's logs (lifeplanner_site/settings.py, LOGGING).

docker/entrypoint.sh passes this file to gunicorn (-c); the other options are on its command line.
"""

import os

_HANDLER = {
    "class": "logging.StreamHandler",
    "formatter": "json",
    "filters": ["redact_secrets"],
    "stream": "ext://sys.stderr",
}

if os.environ.get("LOG_FORMAT", "plain").strip().lower() == "json":
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"redact_secrets": {"()": "benchmark.endpoints.redaction.SecretRedactingFilter"}},
        "formatters": {"json": {"()": "lifeplanner_site.logging.JsonFormatter"}},
        "handlers": {"error_console": _HANDLER, "console": _HANDLER},
        "loggers": {
            "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
            "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
        },
        "root": {"level": "INFO", "handlers": []},
    }
