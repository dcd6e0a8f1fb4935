"""Model endpoints: keys encrypted at rest, the request forgery guard, validation, the admin, log redaction."""

import logging
import socket

import pytest
from cryptography.fernet import Fernet
from django.core.exceptions import ValidationError

import benchmark.endpoints.admin  # noqa: F401  registers the admin (until benchmark.admin imports it)
from benchmark.endpoints.models import ModelEndpoint
from benchmark.endpoints.redaction import SecretRedactingFilter, register_secret
from benchmark.endpoints.secrets import SecretDecryptionError, decrypt_secret, encrypt_secret
from benchmark.endpoints.services import (
    UNCHANGED,
    ApiBaseNotAllowed,
    assert_api_base_allowed,
    check_api_base,
    endpoint_api_key,
    endpoint_create,
    endpoint_for_cli,
    endpoint_keys_rotate,
    endpoint_update,
)

KEY = "sk-live-4f9a0c1e2b3d4f5a6b7c"
PUBLIC = "http://93.184.216.34/v1"  # an IP literal: resolving it needs no network
ADD_URL = "/admin/endpoints/modelendpoint/"


@pytest.fixture(autouse=True)
def private_endpoints_off(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = False
    settings.FIELD_ENCRYPTION_KEY = "test passphrase one"
    settings.FIELD_ENCRYPTION_KEYS_OLD = []
    return settings


def make_endpoint(**changes):
    fields = {"name": "fast-model", "model": "openai/gpt-4o-mini", "api_base": PUBLIC, "api_key": KEY} | changes
    return endpoint_create(**fields)


# --- encryption at rest -----------------------------------------------------------------------------


def test_encrypted_secret_round_trips_and_the_token_does_not_contain_it():
    token = encrypt_secret(KEY)
    assert KEY not in token and "4f9a0c1e" not in token
    assert decrypt_secret(token) == KEY


@pytest.mark.django_db
def test_stored_key_column_holds_only_ciphertext_and_decrypts_for_the_evaluation_layer():
    endpoint = make_endpoint()
    stored = ModelEndpoint.objects.filter(pk=endpoint.pk).values_list("api_key_encrypted", flat=True).get()
    assert stored and KEY not in stored and "4f9a0c1e2b3d" not in stored
    assert endpoint_api_key(ModelEndpoint.objects.get(pk=endpoint.pk)) == KEY


@pytest.mark.django_db
def test_endpoint_without_key_has_none():
    assert endpoint_api_key(make_endpoint(api_key=None, no_key=True)) is None


def test_a_fernet_key_setting_is_used_as_is(settings):
    key = Fernet.generate_key()
    settings.FIELD_ENCRYPTION_KEY = key.decode()
    assert decrypt_secret(Fernet(key).encrypt(b"abc").decode()) == "abc"


def test_old_keys_still_decrypt_after_rotation(settings):
    old_token = encrypt_secret(KEY)
    settings.FIELD_ENCRYPTION_KEY = Fernet.generate_key().decode()
    settings.FIELD_ENCRYPTION_KEYS_OLD = ["test passphrase one"]
    assert decrypt_secret(old_token) == KEY


@pytest.mark.django_db
def test_endpoint_keys_rotate_reencrypts_so_the_old_key_can_be_dropped(settings):
    endpoint = make_endpoint()
    settings.FIELD_ENCRYPTION_KEY = "test passphrase two"
    settings.FIELD_ENCRYPTION_KEYS_OLD = ["test passphrase one"]
    assert endpoint_keys_rotate() == 1
    settings.FIELD_ENCRYPTION_KEYS_OLD = []
    assert endpoint_api_key(ModelEndpoint.objects.get(pk=endpoint.pk)) == KEY


def test_wrong_key_gives_a_clear_error_without_the_token_or_keys(settings):
    token = encrypt_secret(KEY)
    settings.FIELD_ENCRYPTION_KEY = "another passphrase"
    with pytest.raises(SecretDecryptionError) as caught:
        decrypt_secret(token)
    message = str(caught.value)
    assert "cannot be decrypted with the configured keys" in message and "FIELD_ENCRYPTION_KEYS_OLD" in message
    assert token not in message and "passphrase" not in message and KEY not in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_default_key_is_derived_from_secret_key(settings):
    settings.FIELD_ENCRYPTION_KEY = ""
    token = encrypt_secret(KEY)
    assert decrypt_secret(token) == KEY
    settings.SECRET_KEY = "a different secret key"
    with pytest.raises(SecretDecryptionError):
        decrypt_secret(token)


# --- the request forgery guard ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        (
            "http://127.0.0.1:8000/v1",
            "api_base host 127.0.0.1 is a loopback address; private endpoints are disabled (ALLOW_PRIVATE_ENDPOINTS)",
        ),
        ("http://10.1.2.3/v1", "api_base host 10.1.2.3 is a private address"),
        ("http://172.16.0.9/v1", "api_base host 172.16.0.9 is a private address"),
        ("http://192.168.1.20/v1", "api_base host 192.168.1.20 is a private address"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address (the cloud metadata"),
        ("http://[::1]:8000/v1", "api_base host ::1 is a loopback address"),
        ("https://[fc00::5]/v1", "api_base host fc00::5 is a unique-local address"),
        ("http://[::ffff:127.0.0.1]/v1", "::ffff:127.0.0.1 is a loopback address (IPv4 127.0.0.1 embedded"),
        ("http://[::ffff:10.0.0.1]/v1", "is a private address (IPv4 10.0.0.1 embedded"),
        ("http://0.0.0.0:8000/v1", "is an unspecified address"),
        ("http://2130706433/v1", "api_base host 2130706433 resolves to 127.0.0.1, a loopback address"),
        ("http://localhost:8000/v1", "api_base host localhost resolves to"),
        ("file:///etc/passwd", "api_base scheme 'file' is not allowed: use an http:// or https:// URL"),
        ("ftp://example.com/models", "api_base scheme 'ftp' is not allowed"),
        ("gopher://example.com/", "api_base scheme 'gopher' is not allowed"),
        ("example.com/v1", "api_base URL has no scheme"),
        ("http://user:pw@example.com/v1", "api_base host example.com: credentials in the URL (user:password@)"),
        ("http:///v1", "api_base has no host"),
        ("http://example.com\\@127.0.0.1/", "must not contain spaces, backslashes"),
    ],
)
def test_api_base_guard_refuses_internal_and_odd_urls_naming_host_and_reason(url, expected):
    with pytest.raises(ValidationError) as caught:
        check_api_base(url)
    message = caught.value.message_dict["api_base"][0]
    assert expected in message
    assert ":pw@" not in message
    if "localhost" in url:
        assert "loopback address" in message
    with pytest.raises(ApiBaseNotAllowed, match="api_base"):
        assert_api_base_allowed(url)


def test_public_address_and_empty_api_base_are_allowed():
    assert check_api_base(PUBLIC) == PUBLIC
    assert check_api_base("  ") == ""
    assert_api_base_allowed(PUBLIC)
    assert_api_base_allowed("")


def test_allow_private_endpoints_setting_allows_loopback_but_not_odd_urls(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True
    assert check_api_base("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1"
    assert_api_base_allowed("http://vllm:8000/v1")
    with pytest.raises(ValidationError, match="credentials"):
        check_api_base("http://user:pw@127.0.0.1/v1")
    with pytest.raises(ValidationError, match="scheme 'file'"):
        check_api_base("file:///etc/passwd")


def fake_dns(monkeypatch, answers):
    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in answers[host]
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_a_host_with_any_private_address_is_refused(monkeypatch):
    fake_dns(monkeypatch, {"models.example.test": ["93.184.216.34", "10.0.0.7"]})
    with pytest.raises(ValidationError, match="models.example.test resolves to 10.0.0.7, a private address"):
        check_api_base("https://models.example.test/v1")


def test_unresolvable_host_is_refused(monkeypatch):
    fake_dns(monkeypatch, {})
    with pytest.raises(ValidationError, match="api_base host nowhere.example.test does not resolve"):
        check_api_base("https://nowhere.example.test/v1")


@pytest.mark.django_db
def test_request_time_guard_catches_a_host_whose_dns_changed_after_saving(monkeypatch):
    fake_dns(monkeypatch, {"models.example.test": ["93.184.216.34"]})
    endpoint = make_endpoint(api_base="https://models.example.test/v1")
    fake_dns(monkeypatch, {"models.example.test": ["127.0.0.1"]})
    with pytest.raises(ApiBaseNotAllowed, match="resolves to 127.0.0.1, a loopback address"):
        assert_api_base_allowed(endpoint.api_base)


# --- validation -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_endpoint_create_names_every_invalid_field_and_what_is_allowed():
    with pytest.raises(ValidationError) as caught:
        endpoint_create(
            name=" ",
            model="nonsense/x",
            api_base="http://10.0.0.1/v1",
            api_key="two words",
            params={"api_key": "x", "messages": [], "temperature": 0.1},
            concurrency=0,
            requests_per_minute=0,
        )
    errors = {field: " ".join(messages) for field, messages in caught.value.message_dict.items()}
    assert set(errors) == {"name", "model", "api_base", "params", "concurrency", "requests_per_minute", "api_key"}
    assert "name is required" in errors["name"]
    assert "'nonsense' is not a litellm provider" in errors["model"] and "provider/model" in errors["model"]
    assert "10.0.0.1 is a private address" in errors["api_base"]
    assert "params may not set api_key, messages" in errors["params"]
    assert "concurrency must be a whole number from 1 to 256" in errors["concurrency"]
    assert "requests_per_minute must be a whole number from 1 to 100000" in errors["requests_per_minute"]
    assert "api_key must be one line without spaces" in errors["api_key"]
    assert not ModelEndpoint.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes, field, expected",
    [
        ({"model": ""}, "model", "model is required"),
        ({"model": "my-local-model"}, "model", "is not a model name litellm knows"),
        ({"params": [1, 2]}, "params", "params must be a JSON object"),
        ({"params": {"aws_secret_access_key": "x"}}, "params", "credentials belong in the API key field"),
        ({"concurrency": 257}, "concurrency", "from 1 to 256"),
        ({"concurrency": True}, "concurrency", "from 1 to 256"),
        ({"requests_per_minute": 100_001}, "requests_per_minute", "from 1 to 100000, or empty for no limit"),
    ],
)
def test_endpoint_create_refuses_bad_values(changes, field, expected):
    with pytest.raises(ValidationError) as caught:
        make_endpoint(**changes)
    assert list(caught.value.message_dict) == [field]
    assert expected in caught.value.message_dict[field][0]


@pytest.mark.django_db
def test_endpoint_create_accepts_known_bare_names_and_limits():
    endpoint = make_endpoint(
        model="gpt-4o-mini", api_base="", params={"temperature": 0.2}, concurrency=256, requests_per_minute=100_000
    )
    assert (endpoint.model, endpoint.api_base, endpoint.concurrency) == ("gpt-4o-mini", "", 256)


@pytest.mark.django_db
def test_endpoint_names_are_unique():
    make_endpoint()
    with pytest.raises(ValidationError, match="you already have an endpoint named 'fast-model'"):
        make_endpoint(api_key=None)


@pytest.mark.django_db
def test_endpoint_update_keeps_the_key_unless_told():
    endpoint = make_endpoint()
    endpoint_update(endpoint=endpoint, concurrency=8, api_key=UNCHANGED)
    endpoint.refresh_from_db()
    assert endpoint.concurrency == 8 and endpoint_api_key(endpoint) == KEY
    endpoint_update(endpoint=endpoint, api_key="sk-new-key-0123456789")
    assert endpoint_api_key(endpoint) == "sk-new-key-0123456789"
    endpoint_update(endpoint=endpoint, api_key="")
    assert endpoint_api_key(endpoint) is None
    with pytest.raises(ValidationError, match="concurrency must be"):
        endpoint_update(endpoint=endpoint, concurrency=0)


@pytest.mark.django_db
def test_cli_endpoint_is_reused_per_model_and_base_and_takes_this_runs_key(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # a local model server, as the demo runs
    first = endpoint_for_cli(model="hosted_vllm/qwen", api_base="http://127.0.0.1:8001/v1", api_key=KEY)
    again = endpoint_for_cli(model="hosted_vllm/qwen", api_base="http://127.0.0.1:8001/v1", api_key=None, concurrency=2)
    assert again.pk == first.pk and again.concurrency == 2 and endpoint_api_key(again) is None
    other = endpoint_for_cli(model="hosted_vllm/qwen", api_base="http://127.0.0.1:8002/v1", api_key=None)
    assert other.pk != first.pk


@pytest.mark.django_db
def test_cli_endpoint_is_guarded_like_any_other(settings):
    with pytest.raises(ValidationError, match="127.0.0.1 is a loopback address"):
        endpoint_for_cli(model="hosted_vllm/qwen", api_base="http://127.0.0.1:8001/v1", api_key=None)


# --- the admin ----------------------------------------------------------------------------------------


def add_form(**changes):
    return {
        "name": "admin-model",
        "model": "openai/gpt-4o-mini",
        "api_base": PUBLIC,
        "api_key": KEY,
        "params": "{}",
        "concurrency": "4",
        "requests_per_minute": "",
        "owner": "",
    } | changes


@pytest.mark.django_db
def test_admin_adds_an_endpoint_whose_key_is_never_rendered_back(admin_client, admin_user):
    response = admin_client.post(f"{ADD_URL}add/", add_form())
    assert response.status_code == 302, response.content.decode()
    endpoint = ModelEndpoint.objects.get(name="admin-model")
    assert endpoint_api_key(endpoint) == KEY and endpoint.owner == admin_user

    change_page = admin_client.get(f"{ADD_URL}{endpoint.pk}/change/").content.decode()
    assert "key set" in change_page and 'type="password"' in change_page
    assert KEY not in change_page and "4f9a0c1e" not in change_page
    assert endpoint.api_key_encrypted not in change_page
    changelist = admin_client.get(ADD_URL).content.decode()
    assert "key set" in changelist and KEY not in changelist


@pytest.mark.django_db
def test_admin_change_with_an_empty_key_keeps_the_stored_key(admin_client):
    endpoint = make_endpoint()
    response = admin_client.post(
        f"{ADD_URL}{endpoint.pk}/change/", add_form(name="fast-model", api_key="", concurrency="12")
    )
    assert response.status_code == 302, response.content.decode()
    endpoint.refresh_from_db()
    assert endpoint.concurrency == 12 and endpoint_api_key(endpoint) == KEY


@pytest.mark.django_db
def test_admin_can_remove_the_key_and_the_list_then_says_no_key(admin_client):
    endpoint = make_endpoint()
    admin_client.post(f"{ADD_URL}{endpoint.pk}/change/", add_form(name="fast-model", api_key="", remove_api_key="on"))
    endpoint.refresh_from_db()
    assert endpoint.api_key_encrypted == "" and "no key" in admin_client.get(ADD_URL).content.decode()


@pytest.mark.django_db
def test_admin_shows_the_guard_error_and_does_not_echo_the_key(admin_client):
    response = admin_client.post(f"{ADD_URL}add/", add_form(api_base="http://169.254.169.254/latest"))
    page = response.content.decode()
    assert response.status_code == 200 and not ModelEndpoint.objects.exists()
    assert "api_base host 169.254.169.254 is a link-local address" in page
    assert KEY not in page


# --- log redaction ----------------------------------------------------------------------------------


@pytest.fixture
def redacted_caplog(caplog):
    redacting = SecretRedactingFilter()
    caplog.handler.addFilter(redacting)
    caplog.set_level(logging.INFO, logger="tests.redaction")
    yield caplog
    caplog.handler.removeFilter(redacting)


def test_log_filter_redacts_registered_secrets_key_patterns_and_tracebacks(redacted_caplog):
    log = logging.getLogger("tests.redaction")
    register_secret("hunter2-registered-value")
    log.warning("calling the model with key %s", "hunter2-registered-value")
    log.error("provider said: Incorrect API key provided: sk-proj-abcdefghijkl1234")
    log.info("headers: {'Authorization': 'Bearer abcdefghijklmnopqrstuvwxyz0123'}")
    try:
        raise RuntimeError("auth failed for hunter2-registered-value")
    except RuntimeError:
        log.exception("model call failed")
    text = redacted_caplog.text
    assert "hunter2-registered-value" not in text and "sk-proj-abcdefghijkl1234" not in text
    assert "abcdefghijklmnopqrstuvwxyz0123" not in text
    assert "calling the model with key [redacted]" in text and "Bearer [redacted]" in text
    assert "RuntimeError: auth failed for [redacted]" in text


@pytest.mark.django_db
def test_a_key_decrypted_for_a_run_is_redacted_from_logs(redacted_caplog):
    key = "plain-looking-provider-key-77"
    stored = ModelEndpoint.objects.create(
        name="stored", model="openai/gpt-4o-mini", api_key_encrypted=encrypt_secret(key)
    )
    endpoint_api_key(stored)
    logging.getLogger("tests.redaction").info("retrying with %s", key)
    assert key not in redacted_caplog.text and "retrying with [redacted]" in redacted_caplog.text
