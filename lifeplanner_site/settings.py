"""Settings for LifePlanner, read from environment variables with local defaults."""

from __future__ import annotations

import json
import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from benchmark.agents.config import DEFAULT_TIMEOUT_S as _RUN_TIMEOUT_S
from judging.judges.config import JudgeConfig

from .env import env_bool, env_choice, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

# litellm must not fetch its model cost map from the network at import time.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# DEBUG stays on by default for the local demo; a public site sets DEBUG=0 (docker/.env.example), and
# then every setting below that guards a public site defaults to its safe value.
DEV_SECRET_KEY = "dev-only-insecure-key-change-me"
DEBUG = env_bool("DEBUG", True)
# With DEBUG on, the site's own 404 and 500 pages all the same (lifeplanner_site/errors.py); 0 shows Django's
# debug pages (every URL pattern, the traceback) to whoever asks, so only on a developer's own machine.
SITE_ERROR_PAGES = env_bool("SITE_ERROR_PAGES", True)
SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
if not DEBUG:
    if SECRET_KEY in ("", DEV_SECRET_KEY):
        raise ImproperlyConfigured(
            "SECRET_KEY must be set to a long random value when DEBUG is off (the development "
            "key is public); e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    if not os.environ.get("ALLOWED_HOSTS", "").strip():
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must list the site's host names when DEBUG is off, comma-separated "
            "(e.g. ALLOWED_HOSTS=leaderboard.example.org)"
        )

# --- A public site (docs/operations.md, "Production settings and health") --------------------------------------
# CSRF_TRUSTED_ORIGINS: full origins (scheme and host), e.g. https://leaderboard.example.org.
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if not _origin.startswith(("https://", "http://")):
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS: {_origin!r} must be a full origin starting with https:// "
            "(or http://), e.g. https://leaderboard.example.org"
        )
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# The health endpoint answers plain HTTP too: container health checks and load balancers call it inside the network.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
# Off unless asked for: the preload flag is a promise to browser vendors that every subdomain is HTTPS-only.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Behind a proxy that terminates TLS (and overwrites X-Forwarded-Proto): trust its header for request.is_secure().
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies in front of the site add to X-Forwarded-For (docs/operations.md, "Client addresses"): the
# throttles count the address the outermost of them saw. 0: the peer's address, the header ignored.
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 1 if BEHIND_TLS_PROXY else 0)
if TRUSTED_PROXIES < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES must be 0 or more, got {TRUSTED_PROXIES}")

INSTALLED_APPS = [
    "lifeplanner_site.apps.SiteAdminConfig",  # django.contrib.admin; curators open it by their group
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.gis",
    "django.contrib.postgres",
    "rest_framework",
    "axes",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "leaflet",
    "environment",
    "judging",
    "benchmark",
    # The benchmark apps: each imports only apps listed above it (docs/architecture.md; .importlinter).
    "benchmark.accounts",
    "benchmark.cases",
    "benchmark.endpoints",
    "benchmark.agents",
    "benchmark.runs",
    "benchmark.board",
    "benchmark.external",
    "benchmark.submissions",
    "benchmark.operations",
    "benchmark.web",
    "benchmark.api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "lifeplanner_site.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "lifeplanner_site.middleware.RejectNulCharactersMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "lifeplanner_site.errors.SiteErrorPagesMiddleware",  # the site's 404 and 500 pages with DEBUG on too
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out sign-in with the lockout page (429)
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

# The DEBUG error page hides every setting and environment variable named like a URL or a database.
DEFAULT_EXCEPTION_REPORTER_FILTER = "lifeplanner_site.middleware.SafeErrorPageFilter"
DATABASE_URL = env_str("DATABASE_URL", "postgis://lifeplanner:lifeplanner@127.0.0.1:5432/lifeplanner")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60))}
if DATABASES["default"]["ENGINE"] != "django.contrib.gis.db.backends.postgis":
    raise ValueError(
        f"DATABASE_URL must use the postgis:// scheme (PostGIS is the only database); got {DATABASE_URL!r}"
    )
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME", "test_lifeplanner")}
# A persistent connection is checked (SELECT 1) before its first use in each request or task, so the
# first query after a PostgreSQL restart reconnects instead of failing (docs/operations.md, "Faults, measured").
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CONN_HEALTH_CHECKS", True)
# DB_POOL_SIZE > 0: the process shares a pool of at most that many connections (psycopg_pool) among its threads,
# in place of a connection per thread; a closed connection goes back to the pool, still open. For `threads`
# evaluation workers (the bench commands set it): a case's task thread uses the database to claim and to write
# the case and gives its connection back in between, and a new PostgreSQL connection costs 14-27 ms of the
# server's CPU (docs/benchmarks.md). Not for prefork workers: Celery's Django fixup closes a prefork child's
# pool after every task. Pooled connections are checked before use when DB_CONN_HEALTH_CHECKS is on (a round
# trip only for one new, unused for a while, or written to by the server: db_pool.check_pooled_connection);
# DB_POOL_TIMEOUT is how long a thread waits for a free one (docs/operations.md says how to size the pool).
DB_POOL_SIZE = env_int("DB_POOL_SIZE", 0)
if DB_POOL_SIZE < 0:
    raise ValueError(f"DB_POOL_SIZE must be 0 (no pool) or a number of connections; got {DB_POOL_SIZE}")
if DB_POOL_SIZE:
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django's pool: a connection goes back to the pool when closed
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DB_POOL_SIZE,
        "timeout": env_float("DB_POOL_TIMEOUT", 30.0),
    }
    if DATABASES["default"]["CONN_HEALTH_CHECKS"]:  # PostGIS, with our check in place of an empty query every checkout
        DATABASES["default"]["ENGINE"] = "lifeplanner_site.pooled_postgis"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves the collected files (gunicorn alone, no separate static server). With DEBUG off they are
# compressed (gzip) and their names carry a content hash, so they are cached for a year; that needs
# `collectstatic` with the same settings (the image runs it at build time).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# Workers log through LOGGING below (JSON, secrets redacted), not through a handler of Celery's own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Three queues, so each kind of work gets workers of its own and scales on its own (docker/compose.yml):
# evaluation: one (case, trial) each, minutes long; scoring: re-scoring and judging; housekeeping: the sweep
# and the retention prune. A task nobody routed goes to evaluation, the pool that takes long tasks.
LIFEPLANNER_QUEUES = ("evaluation", "scoring", "housekeeping")
CELERY_TASK_DEFAULT_QUEUE = "evaluation"
CELERY_TASK_ROUTES = {
    "benchmark.tasks.trajectory_task": {"queue": "evaluation"},
    "benchmark.tasks.connection_test_task": {"queue": "evaluation"},  # behind the egress proxy, as model calls are
    "benchmark.tasks.*score*": {"queue": "scoring"},
    "benchmark.tasks.*judge*": {"queue": "scoring"},
    "benchmark.tasks.housekeeping_*": {"queue": "housekeeping"},
    "benchmark.tasks.*prune*": {"queue": "housekeeping"},
}
# celery beat is the scheduler (one process: `docker/entrypoint.sh beat`). A sweep that was not picked up before
# the next one is due expires, so a stopped housekeeping worker does not come back to a pile of sweeps.
HOUSEKEEPING_SWEEP_SECONDS = env_int("HOUSEKEEPING_SWEEP_SECONDS", 60)
if HOUSEKEEPING_SWEEP_SECONDS < 1:
    raise ImproperlyConfigured(f"HOUSEKEEPING_SWEEP_SECONDS must be 1 or more, got {HOUSEKEEPING_SWEEP_SECONDS}")
CELERY_BEAT_SCHEDULE = {
    "housekeeping-sweep": {
        "task": "benchmark.tasks.housekeeping_sweep_task",
        "schedule": HOUSEKEEPING_SWEEP_SECONDS,
        "options": {"expires": HOUSEKEEPING_SWEEP_SECONDS},
    },
    "model-calls-prune": {
        "task": "benchmark.tasks.model_calls_prune_task",
        "schedule": crontab(hour=3, minute=30),
        "options": {"expires": 6 * 3600},
    },
}
# /health/ (lifeplanner_site/health.py) asks the workers which queues they consume: it waits this long for
# answers, and keeps the result this long so that a busy health check does not flood the workers.
HEALTH_WORKER_TIMEOUT_S = env_float("HEALTH_WORKER_TIMEOUT_S", 1.0)
HEALTH_WORKERS_CACHE_SECONDS = env_float("HEALTH_WORKERS_CACHE_SECONDS", 10.0)
# A running trajectory renews its lease every 20 s; one older than this belongs to a dead worker.
EVALUATION_LEASE_SECONDS = env_int("EVALUATION_LEASE_SECONDS", 120)
# An external agent's lease on a case it took with next_case (benchmark/external/agents.py): after this long without a
# call for the case, another token of the run may take the case over.
EXTERNAL_LEASE_SECONDS = 1800
# The sweep re-queues a trajectory whose worker died; after this many claims it gives up and records it as
# ended "timeout" (a case that kills its worker or outlives the hard time limit every time).
EVALUATION_MAX_ATTEMPTS = env_int("EVALUATION_MAX_ATTEMPTS", 3)
if EVALUATION_MAX_ATTEMPTS < 1:
    raise ImproperlyConfigured(f"EVALUATION_MAX_ATTEMPTS must be 1 or more, got {EVALUATION_MAX_ATTEMPTS}")
# Retention (docs/operations.md): model_calls_prune_task clears the request and response bodies of
# model calls of runs finished more than this many days ago (the rows, steps and scores stay; such
# a run can no longer be replayed). 0 keeps recordings forever.
MODEL_CALL_RETENTION_DAYS = env_int("MODEL_CALL_RETENTION_DAYS", 90)
if MODEL_CALL_RETENTION_DAYS < 0:
    raise ValueError(f"MODEL_CALL_RETENTION_DAYS must be 0 (keep forever) or more, got {MODEL_CALL_RETENTION_DAYS}")

# REST API (benchmark/api): reads follow the pages' visibility rules; writes need a token
# (Authorization: Token <key>) or a signed-in session.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "benchmark.api.authentication.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON bodies are checked like every input (kernel.inputs): too deep, NaN or NUL is a 400 naming the field.
    "DEFAULT_PARSER_CLASSES": [
        "benchmark.api.params.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 100,
}
# Request budgets (benchmark/web/throttle.py; docs/operations.md "Threat model"). A rate is "N/period" or None (no
# limit); on by default when DEBUG is off. Pages: anonymous clients only. Counters live in the default cache:
# per process unless CACHE_URL points at Redis (then shared by every web worker).
_THROTTLE = not DEBUG
PAGE_THROTTLE_RATES = {"compare": env_str("THROTTLE_COMPARE", "30/min") if _THROTTLE else None}
# The submit page's "Test connection" (one model call each): per signed-in user, on whatever DEBUG says.
CONNECTION_TEST_RATE = env_str("THROTTLE_CONNECTION_TEST", "5/min")
API_THROTTLE_RATES = {
    "anon": env_str("THROTTLE_API_ANON", "120/min") if _THROTTLE else None,
    "user": env_str("THROTTLE_API_USER", "600/min") if _THROTTLE else None,
}
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = [
    "benchmark.web.throttle.AnonApiThrottle",
    "benchmark.web.throttle.UserApiThrottle",
]
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL, "KEY_PREFIX": "lp"}
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
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "benchmark.api.schema.documented_errors",  # every operation's 400, 404 and 429
    ],
}
# Model submissions (benchmark/submissions/): smoke tests a user may start in 24 hours; staff are exempt.
SUBMISSIONS_PER_DAY = env_int("SUBMISSIONS_PER_DAY", 3)
if SUBMISSIONS_PER_DAY < 1:
    raise ValueError(f"SUBMISSIONS_PER_DAY must be 1 or more, got {SUBMISSIONS_PER_DAY}")
# Who may start a run on a hidden release (benchmark/board/visibility.py): "staff" (curators and staff) or "all"
# (any signed-in user). Either way the answers, and every run's answers and score details there, stay curators'.
HIDDEN_RELEASE_RUNNERS = env_choice("HIDDEN_RELEASE_RUNNERS", "staff", ("staff", "all"))
# The hidden wording bank (benchmark/cases/hidden_bank.py): a JSON file kept outside the repository with the need
# phrasings and question wordings only hidden releases write from; empty: the repository's example hidden bank.
HIDDEN_BANK_PATH = env_str("HIDDEN_BANK_PATH", "")
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Accounts and tokens (docs/operations.md, "Accounts and tokens") -------------------------------------------
# Sign-in throttling by django-axes: after LOGIN_FAILURE_LIMIT wrong passwords for one username, that username is
# locked out for LOGIN_LOCKOUT_MINUTES (each further failure starts the wait again), whatever the password; the
# admin's sign-in is covered too. By username, not by address: behind a proxy every client has the proxy's address.
# Failed attempts are kept in the database (shared by every web process); `manage.py axes_reset` lifts lockouts.
# REST API tokens (benchmark.api.authentication): only their SHA-256 is stored; a token is shown once.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
if AXES_FAILURE_LIMIT < 1:
    raise ImproperlyConfigured(f"LOGIN_FAILURE_LIMIT must be 1 or more, got {AXES_FAILURE_LIMIT}")
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", 15)
if LOGIN_LOCKOUT_MINUTES < 1:
    raise ImproperlyConfigured(f"LOGIN_LOCKOUT_MINUTES must be 1 or more, got {LOGIN_LOCKOUT_MINUTES}")
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # keep failed attempts only, not a row per successful sign-in
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# The city the tools answer from, by City.name.
LIFEPLANNER_CITY = env_str("LIFEPLANNER_CITY", "helsinki")
# Where generated artefacts (bench output, caches) go.
LIFEPLANNER_VAR_DIR = Path(env_str("LIFEPLANNER_VAR_DIR", str(BASE_DIR / "var")))

SILENCED_SYSTEM_CHECKS = [
    "gis.W001",  # Debian's GDAL 3.6 is older than Django 5.2 prefers; it works.
    "axes.W006",
]  # sign-in lockouts are by username on purpose (see "Accounts and tokens")

# LOG_FORMAT=json writes one JSON object per line (lifeplanner_site/logging.py), for a log collector; plain is
# for people. Either way the handler redacts secrets first.
LOG_FORMAT = env_choice("LOG_FORMAT", "plain", ("plain", "json"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # On the handler, so records from child loggers (LiteLLM's) are redacted too.
    "filters": {"redact_secrets": {"()": "benchmark.endpoints.redaction.SecretRedactingFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "lifeplanner_site.logging.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"LiteLLM": {"level": "WARNING"}, "httpx": {"level": "WARNING"}},
}

# The about page (benchmark/web/about.py): what only the operator knows. Empty, the page says what a researcher
# can do on a copy of their own.
SOURCE_CODE_URL = env_str("SOURCE_CODE_URL", "")  # where this code is published (https://...)
ACCOUNT_CONTACT = env_str("ACCOUNT_CONTACT", "")  # where to ask for an account (mailto:... or https://...)
RUN_MCP_URL = env_str("RUN_MCP_URL", "")  # where this site's run-mode MCP server answers (https://.../mcp)
_WEB = ("https://", "http://")
for _name, _allowed in (("SOURCE_CODE_URL", _WEB), ("ACCOUNT_CONTACT", (*_WEB, "mailto:")), ("RUN_MCP_URL", _WEB)):
    _value = globals()[_name]
    if _value and (not _value.startswith(_allowed) or re.search(r"[\s<>\"']", _value)):
        raise ImproperlyConfigured(f"{_name} must start with {' or '.join(_allowed)}, without spaces; got {_value!r}")

# Maps (django-leaflet serves Leaflet itself: no CDN). No tiles by default: every map draws the
# city's streets from our own road data, so a page makes no request beyond this server. Setting
# MAP_TILE_URL (e.g. a tile server you have an agreement with) adds its tiles underneath.
MAP_TILE_URL = env_str("MAP_TILE_URL", "")
_TILE_HOST = re.match(r"^https?://[^/]+", MAP_TILE_URL)
_TILE_ORIGIN = _TILE_HOST.group(0).replace("{s}", "*") if _TILE_HOST else ""  # {s}.tile.example.org: any subdomain
# The Content-Security-Policy of every answer (lifeplanner_site/middleware.py): nothing inline, nothing from
# elsewhere but the map tiles' server; images may be data: URLs (Leaflet's and Swagger UI's icons).
CONTENT_SECURITY_POLICY = env_str(
    "CONTENT_SECURITY_POLICY",
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    f"img-src 'self' data:{' ' + _TILE_ORIGIN if _TILE_ORIGIN else ''}; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
)
LEAFLET_CONFIG = {
    "DEFAULT_CENTER": (60.1699, 24.9384),
    "DEFAULT_ZOOM": 15,
    "MAX_ZOOM": 19,
    "RESET_VIEW": False,
    "TILES": [("Tiles", MAP_TILE_URL, {"attribution": env_str("MAP_TILE_ATTRIBUTION", ""), "maxZoom": 19})]
    if MAP_TILE_URL
    else [],
}

# LLM judges for SC and RP (docs/judges.md): a JSON list of
# {"name", "model", "api_base"?, "api_key_env"?, "params"?, "timeout_s"?, "num_retries"?}.
# Keys are never put here: api_key_env names the environment variable that holds the key.
JUDGE_MODELS = json.loads(env_str("JUDGE_MODELS", "[]"))

# --- Time limits of one (case, trial), from the longest case (docs/operations.md) -------------------------------
# The agent: a run's wall clock (RunConfig's timeout_s, DEFAULT_TIMEOUT_S by default and at most, in
# benchmark/agents/config.py) ends the conversation; 30 tool calls after model requests of up to 120 s, each tried up
# to 5 times, would take far longer.
EVALUATION_AGENT_SECONDS = _RUN_TIMEOUT_S
# Scoring: rule metrics take milliseconds; each judge then answers SC and RP, each on the answer as given and on its
# neutral copy (docs/judges.md), one after another: 4 requests of up to its timeout_s, tried 1 + num_retries times
# (JudgeConfig's defaults where a judge does not say).
try:
    _JUDGING_SECONDS = sum(
        4
        * float(judge.get("timeout_s", JudgeConfig.timeout_s))
        * (1 + int(judge.get("num_retries", JudgeConfig.num_retries)))
        for judge in JUDGE_MODELS
    )
except (AttributeError, TypeError, ValueError):
    raise ImproperlyConfigured(
        "JUDGE_MODELS must be a JSON list of objects whose timeout_s and num_retries, where "
        "given, are numbers (docs/judges.md)"
    ) from None
EVALUATION_SCORING_SECONDS = env_int("EVALUATION_SCORING_SECONDS", 60 + int(_JUDGING_SECONDS))
# Claiming the row, loading the city and starting the toolbox before; writing the trajectory after.
EVALUATION_OVERHEAD_SECONDS = 60
# The soft limit interrupts scoring (the trajectory is kept with a scoring error, to re-score later); the hard
# limit ends the worker process a minute later. The visibility timeout stays above every hard limit, so the
# broker never hands a running task to a second worker; after a worker dies the housekeeping sweep re-queues its
# case once the lease runs out, long before the broker would.
EVALUATION_SOFT_TIME_LIMIT = EVALUATION_AGENT_SECONDS + EVALUATION_SCORING_SECONDS + EVALUATION_OVERHEAD_SECONDS
EVALUATION_TIME_LIMIT = EVALUATION_SOFT_TIME_LIMIT + 60
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", max(7200, 2 * EVALUATION_TIME_LIMIT))
}
if not DEBUG and CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] <= EVALUATION_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"CELERY_VISIBILITY_TIMEOUT ({CELERY_BROKER_TRANSPORT_OPTIONS['visibility_timeout']} s) must be above the "
        f"evaluation task's hard time limit ({EVALUATION_TIME_LIMIT} s), or running cases are delivered twice"
    )

# Model endpoints (benchmark/endpoints/egress.py): refuse api_base URLs that resolve to loopback,
# private, link-local (cloud metadata) and other internal addresses. The local demo turns this on
# (scripts/demo.sh sets ALLOW_PRIVATE_ENDPOINTS=1) so endpoints can point at a model on 127.0.0.1.
ALLOW_PRIVATE_ENDPOINTS = env_bool("ALLOW_PRIVATE_ENDPOINTS", False)
# The narrow alternative: these private addresses, each on its port only ("127.0.0.1:8091,[::1]:8091"), e.g. a
# model server on this machine (manage.py local_model; make demo lists the local model's address).
PRIVATE_ENDPOINT_ADDRESSES = env_list("PRIVATE_ENDPOINT_ADDRESSES", [])
# The local model server (manage.py local_model, docs/submitting.md "Evaluate a local model"): its port on
# 127.0.0.1, its context in tokens, and the CPU threads llama.cpp uses.
LOCAL_MODEL_PORT = env_int("LOCAL_MODEL_PORT", 8091)
LOCAL_MODEL_CONTEXT = env_int("LOCAL_MODEL_CONTEXT", 8192)
LOCAL_MODEL_THREADS = env_int("LOCAL_MODEL_THREADS", 0)  # 0: one per core
# Encryption of API keys at rest: a Fernet key or a long random passphrase (HKDF-SHA256); empty
# derives the key from SECRET_KEY. To rotate: set the new key, list the previous value(s) in
# FIELD_ENCRYPTION_KEYS_OLD (comma-separated), run endpoint_keys_rotate(), then drop them.
FIELD_ENCRYPTION_KEY = env_str("FIELD_ENCRYPTION_KEY", "")
FIELD_ENCRYPTION_KEYS_OLD = env_list("FIELD_ENCRYPTION_KEYS_OLD", [])
