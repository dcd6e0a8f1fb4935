"""Settings for LifePlanner, read from environment variables with local defaults."""
from __future__ import annotations

import json
import os
from pathlib import Path

import dj_database_url

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# litellm must not fetch its model cost map from the network at import time.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.gis",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "leaflet",
    "environment",
    "judging",
    "benchmark",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "lifeplanner_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]
WSGI_APPLICATION = "lifeplanner_site.wsgi.application"
ASGI_APPLICATION = "lifeplanner_site.asgi.application"

DATABASE_URL = env_str("DATABASE_URL", "postgis://lifeplanner:lifeplanner@127.0.0.1:5432/lifeplanner")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
if DATABASES["default"]["ENGINE"] != "django.contrib.gis.db.backends.postgis":
    raise ValueError(
        f"DATABASE_URL must use the postgis:// scheme (PostGIS is the only database); got {DATABASE_URL!r}"
    )
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME", "test_lifeplanner")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task's hard time limit (960 s, benchmark/tasks.py) stays under the visibility timeout, so
# a running case is never handed to a second worker while its first worker is alive.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)}
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# A running trajectory renews its lease every 20 s; one older than this belongs to a dead worker.
EVALUATION_LEASE_SECONDS = env_int("EVALUATION_LEASE_SECONDS", 120)

# REST API (benchmark/api): reads follow the pages' visibility rules; writes need a token
# (Authorization: Token <key>) or a signed-in session.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "LifePlanner API",
    "DESCRIPTION": "Releases, cases, runs, trajectories, scores and the leaderboard of the LifePlanner benchmark.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's assets come from the drf-spectacular-sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# The city the tools answer from, by City.name.
LIFEPLANNER_CITY = env_str("LIFEPLANNER_CITY", "helsinki")
# Where generated artefacts (bench output, caches) go.
LIFEPLANNER_VAR_DIR = Path(env_str("LIFEPLANNER_VAR_DIR", str(BASE_DIR / "var")))

SILENCED_SYSTEM_CHECKS = ["gis.W001"]  # Debian's GDAL 3.6 is older than Django 5.2 prefers; it works.

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # On the handler, so records from child loggers (LiteLLM's) are redacted too.
    "filters": {"redact_secrets": {"()": "benchmark.evaluation.redaction.SecretRedactingFilter"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"LiteLLM": {"level": "WARNING"}, "httpx": {"level": "WARNING"}},
}

# Maps (django-leaflet serves Leaflet itself: no CDN). The tile layer is configurable; with
# MAP_TILE_URL empty, maps draw only our own data (places, routes, streets).
MAP_TILE_URL = env_str("MAP_TILE_URL", "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
LEAFLET_CONFIG = {
    "DEFAULT_CENTER": (60.1699, 24.9384),
    "DEFAULT_ZOOM": 15,
    "MAX_ZOOM": 19,
    "RESET_VIEW": False,
    "TILES": [("OpenStreetMap", MAP_TILE_URL, {"attribution": "&copy; OpenStreetMap contributors", "maxZoom": 19})]
    if MAP_TILE_URL
    else [],
}

# LLM judges for SC and RP (docs/judges.md): a JSON list of
# {"name", "model", "api_base"?, "api_key_env"?, "params"?, "timeout_s"?, "num_retries"?}.
# Keys are never put here: api_key_env names the environment variable that holds the key.
JUDGE_MODELS = json.loads(env_str("JUDGE_MODELS", "[]"))

# Model endpoints (benchmark/evaluation/egress.py): refuse api_base URLs that resolve to loopback,
# private, link-local (cloud metadata) and other internal addresses. The local demo turns this on
# (scripts/demo.sh sets ALLOW_PRIVATE_ENDPOINTS=1) so endpoints can point at a model on 127.0.0.1.
ALLOW_PRIVATE_ENDPOINTS = env_bool("ALLOW_PRIVATE_ENDPOINTS", False)
# Encryption of API keys at rest: a Fernet key or a long random passphrase (HKDF-SHA256); empty
# derives the key from SECRET_KEY. To rotate: set the new key, list the previous value(s) in
# FIELD_ENCRYPTION_KEYS_OLD (comma-separated), run endpoint_keys_rotate(), then drop them.
FIELD_ENCRYPTION_KEY = env_str("FIELD_ENCRYPTION_KEY", "")
FIELD_ENCRYPTION_KEYS_OLD = env_list("FIELD_ENCRYPTION_KEYS_OLD", [])
