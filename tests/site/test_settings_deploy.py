"""Production settings: what DEBUG=0 turns on, what it refuses, `check --deploy`, JSON logs, the served site."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from types import ModuleType

import pytest
from django.core.exceptions import ImproperlyConfigured

from tests.processes import REPO, wait_for
from tests.site.conftest import SITE_HOST, production_env

SETTINGS = REPO / "lifeplanner_site" / "settings.py"
CONTROLLED = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "BEHIND_TLS_PROXY",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "LOG_FORMAT",
    "CELERY_VISIBILITY_TIMEOUT",
    "JUDGE_MODELS",
    "EVALUATION_SCORING_SECONDS",
    "STATIC_ROOT",
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-a-long-random-production-key-0123456789",
    "ALLOWED_HOSTS": SITE_HOST,
}


def load_settings(monkeypatch, **env: str) -> ModuleType:
    """Execute lifeplanner_site/settings.py afresh under ``env`` (the live settings are not touched)."""
    for name in CONTROLLED:
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("lifeplanner_site._settings_probe", SETTINGS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def manage(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )


# --- check --deploy ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_check_deploy_with_the_example_environment_reports_nothing():
    result = manage(["check", "--deploy", "--fail-level", "WARNING"], production_env())
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


@pytest.mark.django_db
def test_check_deploy_fails_when_a_guard_is_turned_off():
    result = manage(["check", "--deploy", "--fail-level", "WARNING"], production_env(SECURE_HSTS_SECONDS="0"))
    assert result.returncode == 1
    assert "security.W004" in result.stderr


# --- what DEBUG=0 turns on -------------------------------------------------------------------------------------


def test_the_local_demo_keeps_debug_and_plain_cookies(monkeypatch):
    settings = load_settings(monkeypatch)
    assert settings.DEBUG is True
    assert not settings.SESSION_COOKIE_SECURE and not settings.CSRF_COOKIE_SECURE and not settings.SECURE_SSL_REDIRECT
    assert settings.SECURE_HSTS_SECONDS == 0
    assert settings.STORAGES["staticfiles"]["BACKEND"].endswith("StaticFilesStorage")


def test_production_turns_on_every_guard(monkeypatch):
    settings = load_settings(monkeypatch, **PRODUCTION)
    assert settings.DEBUG is False
    assert settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE and settings.SECURE_SSL_REDIRECT
    assert settings.SECURE_HSTS_SECONDS == 31_536_000 and settings.SECURE_HSTS_INCLUDE_SUBDOMAINS
    assert settings.SECURE_HSTS_PRELOAD is False  # a promise to browser vendors: only when asked for
    assert settings.ALLOWED_HOSTS == [SITE_HOST]
    assert settings.STORAGES["staticfiles"]["BACKEND"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert not hasattr(settings, "SECURE_PROXY_SSL_HEADER")


def test_the_proxy_header_is_trusted_only_when_asked(monkeypatch):
    settings = load_settings(
        monkeypatch,
        **PRODUCTION,
        BEHIND_TLS_PROXY="1",
        CSRF_TRUSTED_ORIGINS=f"https://{SITE_HOST},https://www.{SITE_HOST}",
    )
    assert settings.SECURE_PROXY_SSL_HEADER == ("HTTP_X_FORWARDED_PROTO", "https")
    assert [f"https://{SITE_HOST}", f"https://www.{SITE_HOST}"] == settings.CSRF_TRUSTED_ORIGINS


# --- what DEBUG=0 refuses ------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["", "dev-only-insecure-key-change-me"])
def test_production_refuses_a_missing_or_public_secret_key(monkeypatch, key):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY must be set to a long random value"):
        load_settings(monkeypatch, **{**PRODUCTION, "SECRET_KEY": key})


def test_production_refuses_to_guess_the_host_names(monkeypatch):
    env = {k: v for k, v in PRODUCTION.items() if k != "ALLOWED_HOSTS"}
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS must list the site's host names"):
        load_settings(monkeypatch, **env)


def test_a_trusted_origin_needs_its_scheme(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"'leaderboard.example.org' must be a full origin"):
        load_settings(monkeypatch, **PRODUCTION, CSRF_TRUSTED_ORIGINS="leaderboard.example.org")


def test_production_refuses_a_visibility_timeout_under_the_hard_limit(monkeypatch):
    with pytest.raises(ImproperlyConfigured, match=r"CELERY_VISIBILITY_TIMEOUT \(600 s\) must be above .* \(780 s\)"):
        load_settings(monkeypatch, **PRODUCTION, CELERY_VISIBILITY_TIMEOUT="600")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("LOG_FORMAT", "xml", r"LOG_FORMAT='xml' is not allowed; use one of \['plain', 'json'\]"),
        ("DEBUG", "maybe", r"DEBUG='maybe' is not a boolean"),
        ("SECURE_HSTS_SECONDS", "a year", r"SECURE_HSTS_SECONDS='a year' is not an integer"),
    ],
)
def test_bad_values_name_the_variable_and_what_is_allowed(monkeypatch, name, value, message):
    with pytest.raises(ValueError, match=message):
        load_settings(monkeypatch, **{name: value})


# --- structured logs ------------------------------------------------------------------------------------------


def test_json_log_lines_with_secrets_redacted():
    code = (
        "import django, logging; django.setup()\n"
        "from benchmark.endpoints.redaction import register_secret\n"
        "register_secret('endpoint-key-0123456789')\n"
        "log = logging.getLogger('lifeplanner.check')\n"
        "log.warning('calling with %s', 'endpoint-key-0123456789',\n"
        "            extra={'run_id': 7, 'header': 'Bearer abcdefghijkl'})\n"
        "try:\n    raise RuntimeError('key sk-abcdefghijklmnop leaked')\n"
        "except RuntimeError:\n    log.exception('failed')\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "lifeplanner_site.settings", "LOG_FORMAT": "json"}
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    warning, error = lines
    assert warning["message"] == "calling with [redacted]" and warning["level"] == "WARNING"
    assert warning["logger"] == "lifeplanner.check" and warning["run_id"] == 7
    assert warning["header"] == "Bearer [redacted]"
    assert error["level"] == "ERROR" and "RuntimeError: key [redacted] leaked" in error["exception"]
    assert "0123456789" not in result.stderr and "sk-abc" not in result.stderr


def json_records(stack, service: str) -> list[dict]:
    # Celery prints its start-up banner as plain text before logging starts; every log record is JSON.
    return [json.loads(line) for line in stack.log(service).splitlines() if line.startswith("{")]


def test_the_workers_of_the_stack_log_json(stack):
    records = json_records(stack, "worker-housekeeping")
    assert any(r["logger"] == "celery.apps.worker" and r["message"].endswith("ready.") for r in records)
    wait_for(
        lambda: any(r["logger"] == "celery.worker.strategy" for r in json_records(stack, "worker-housekeeping")),
        30,
        "the housekeeping worker to receive a sweep from beat",
    )
    received = next(r for r in json_records(stack, "worker-housekeeping") if r["logger"] == "celery.worker.strategy")
    assert received["data"]["name"] == "benchmark.tasks.housekeeping_sweep_task"  # extra fields stay structured


def test_gunicorn_logs_json_too(stack):
    records = [json.loads(line) for line in stack.log("web").splitlines()]
    assert any(
        r["logger"] == "gunicorn.error" and r["message"].startswith("Listening at: http://127.0.0.1:") for r in records
    )


# --- the served site (gunicorn and WhiteNoise with the production settings) --------------------------------------


def fetch(stack, path: str, *, https: bool = True, host: str = SITE_HOST, **headers: str):
    request = urllib.request.Request(
        f"http://127.0.0.1:{stack.port}{path}",
        headers={"Host": host, **({"X-Forwarded-Proto": "https"} if https else {}), **headers},
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        return opener.open(request, timeout=30)
    except urllib.error.HTTPError as exc:
        return exc


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def test_plain_http_is_redirected_to_https(stack):
    response = fetch(stack, "/accounts/login/", https=False)
    assert response.status == 301
    assert response.headers["Location"] == f"https://{SITE_HOST}/accounts/login/"


def test_https_pages_carry_hsts_and_secure_cookies(stack):
    response = fetch(stack, "/accounts/login/")
    assert response.status == 200
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("csrftoken=") and "Secure" in cookie
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_an_unknown_host_is_refused(stack):
    assert fetch(stack, "/accounts/login/", host="attacker.example").status == 400


def test_static_files_are_hashed_compressed_and_cached_for_a_year(stack):
    page = fetch(stack, "/accounts/login/").read().decode()
    css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
    assert css, "the page does not link the hashed stylesheet"
    response = fetch(stack, css.group(1), **{"Accept-Encoding": "gzip"})
    assert response.status == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert "max-age=315360000" in response.headers["Cache-Control"] and "immutable" in response.headers["Cache-Control"]
