"""Accounts and tokens (issue 13): sign-in throttling, API tokens stored only as hashes, endpoint names
unique per user, and owners deleting their endpoints and keys from the site."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from benchmark.endpoints.models import ModelEndpoint
from benchmark.endpoints.services import endpoint_create
from benchmark.runs.models import EvaluationRun
from tests.factories import SECRET, finished_run, release, user

pytestmark = pytest.mark.django_db


def sign_in(client, username: str, password: str):
    return client.post("/accounts/login/", {"username": username, "password": password})


def endpoint(name: str, owner, **fields) -> ModelEndpoint:
    return endpoint_create(
        name=name, model="openai/gpt-4o-mini", api_base="http://127.0.0.1:9/v1", api_key=SECRET, owner=owner, **fields
    )


@pytest.fixture(autouse=True)
def _private_endpoints(settings):
    settings.ALLOW_PRIVATE_ENDPOINTS = True  # the endpoints here point at 127.0.0.1


# --- sign-in throttling ---------------------------------------------------------------------------


def test_after_thirty_wrong_passwords_the_right_one_does_not_sign_in(client):
    user("guessed")
    for _ in range(30):
        sign_in(client, "guessed", "wrong")
    locked = sign_in(client, "guessed", "pw")
    assert locked.status_code == 429 and "Too many sign-in attempts" in locked.content.decode()
    assert "locked after 5 wrong passwords in a row" in locked.content.decode()
    assert "Try again in 15 minutes" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get("/submit/").status_code == 302  # still signed out


def test_the_fifth_wrong_password_in_a_row_already_answers_429_as_the_docs_say(client, settings):
    user("typist")
    codes = [sign_in(client, "typist", "wrong").status_code for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert settings.AXES_FAILURE_LIMIT == 5 and codes == [200, 200, 200, 200, 429]


def test_the_lockout_is_per_username_and_ends_after_its_time(client, settings):
    from axes.models import AccessAttempt

    user("guessed"), user("bystander")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "guessed", "wrong")
    assert sign_in(client, "guessed", "pw").status_code == 429
    assert sign_in(client, "bystander", "pw").status_code == 302  # another account is not locked
    client.post("/accounts/logout/")
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert sign_in(client, "guessed", "pw").status_code == 302


def test_a_few_wrong_passwords_are_forgiven_by_the_right_one(client, settings):
    user("typo")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert "did not match" in sign_in(client, "typo", "wrong").content.decode()
    assert sign_in(client, "typo", "pw").status_code == 302


# --- API tokens -----------------------------------------------------------------------------------


def test_an_api_token_is_stored_only_as_its_hash_and_works_once_shown(client):
    from benchmark.accounts.models import ApiToken

    account = user("tokened")
    client.force_login(account)
    page = client.post("/accounts/token/", {"action": "create"}).content.decode()
    token = re.search(r'class="token-value">([^<]+)<', page).group(1)
    stored = ApiToken.objects.get(user=account)
    assert stored.key_hash == hashlib.sha256(token.encode()).hexdigest() and token not in stored.key_hash
    assert APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/v1/endpoints/").status_code == 200
    assert APIClient(HTTP_AUTHORIZATION=f"Token {stored.key_hash}").get("/api/v1/endpoints/").status_code == 401
    account.is_active = False
    account.save()
    assert APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/v1/endpoints/").status_code == 401


def test_drf_tokens_stored_in_clear_are_migrated_to_hashes_and_keep_working():
    import importlib

    from django.db.migrations.loader import MigrationLoader

    from benchmark.accounts.models import ApiToken
    from benchmark.accounts.services import api_token_hash

    migration = importlib.import_module("benchmark.migrations.0009_accounts_and_tokens")
    account = user("old-token")
    old_key = "0123456789abcdef0123456789abcdef01234567"  # DRF's format: 40 hex digits
    with connection.cursor() as cursor:  # the table of rest_framework.authtoken, as an older site has it
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS authtoken_token (key varchar(40) PRIMARY KEY, "
            "created timestamp with time zone NOT NULL, user_id integer NOT NULL UNIQUE)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, now(), %s)", [old_key, account.id]
        )
    # The data migration runs with the models of its time (ApiToken was then benchmark's).
    at_0009 = MigrationLoader(connection).project_state(("benchmark", "0009_accounts_and_tokens")).apps
    migration.hash_drf_tokens(at_0009, connection.schema_editor())

    assert ApiToken.objects.get(user=account).key_hash == api_token_hash(old_key)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM authtoken_token")
        assert cursor.fetchone()[0] == 0  # no token left in clear
    assert APIClient(HTTP_AUTHORIZATION=f"Token {old_key}").get("/api/v1/endpoints/").status_code == 200


# --- endpoint names -------------------------------------------------------------------------------


def test_endpoint_names_are_unique_per_user_and_another_users_names_cannot_be_probed(client):
    release("acc-public")
    owner, prober = user("acc-owner"), user("acc-prober")
    endpoint("secret project x", owner)
    client.force_login(prober)
    form = {
        "name": "secret project x",
        "model": "openai/gpt-4o-mini",
        "api_base": "http://127.0.0.1:9/v1",
        "api_key": SECRET,
        "concurrency": "2",
        "requests_per_minute": "",
        "params": "",
        "release": "acc-public",
    }
    response = client.post("/submit/", form)
    assert response.status_code == 302, response.content.decode()  # the same name as another user's: accepted
    assert ModelEndpoint.objects.filter(name="secret project x").count() == 2
    again = client.post("/submit/", form).content.decode()
    assert "you already have an endpoint named" in again and "another" not in again


# --- deleting one's endpoints and keys ------------------------------------------------------------


def test_the_endpoints_page_lists_only_ones_own_endpoints(client):
    owner, other = user("lister"), user("stranger")
    endpoint("mine", owner)
    endpoint("theirs", other)
    client.force_login(owner)
    page = client.get("/accounts/endpoints/").content.decode()
    assert "mine" in page and "theirs" not in page and SECRET not in page and "Remove key" in page
    assert client.get("/submit/").content.decode().count('href="/accounts/endpoints/"') == 1


def test_an_owner_removes_a_key_and_deletes_an_endpoint_nobody_ran(client):
    owner = user("deleter")
    unused = endpoint("unused", owner)
    client.force_login(owner)
    assert client.post(f"/accounts/endpoints/{unused.id}/remove-key/").status_code == 302
    unused.refresh_from_db()
    assert unused.api_key_encrypted == ""
    assert client.post(f"/accounts/endpoints/{unused.id}/delete/").status_code == 302
    assert not ModelEndpoint.objects.filter(id=unused.id).exists()


def test_an_endpoint_with_finished_runs_is_retired_its_runs_kept_and_its_name_free(client):
    owner = user("retirer")
    used = endpoint("used", owner)
    run = finished_run(release("acc-retire"), name="used run", created_by=owner, endpoint=used)
    client.force_login(owner)
    response = client.post(f"/accounts/endpoints/{used.id}/delete/", follow=True)
    assert "stay on the leaderboard" in response.content.decode()
    used.refresh_from_db()
    assert used.deleted_at is not None and used.api_key_encrypted == ""
    assert EvaluationRun.objects.get(id=run.id).endpoint_id == used.id
    assert "used" not in client.get("/accounts/endpoints/").content.decode().split("<table")[-1]
    assert endpoint("used", owner).id != used.id  # the name is free again
    from benchmark.runs.services import run_create

    with pytest.raises(ValueError, match="was deleted by its owner"):
        run_create(agent="litellm", release=run.release, endpoint=used)


def test_an_endpoint_with_a_run_in_progress_cannot_be_deleted(client):
    owner = user("busy")
    busy = endpoint("busy", owner)
    run = finished_run(release("acc-busy"), name="busy run", created_by=owner, endpoint=busy)
    EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.RUNNING)
    client.force_login(owner)
    page = client.post(f"/accounts/endpoints/{busy.id}/delete/", follow=True).content.decode()
    assert f"in use by queued or running run(s) {run.id}" in page and 'role="alert"' in page
    busy.refresh_from_db()
    assert busy.deleted_at is None and busy.api_key_encrypted


def test_another_users_endpoint_cannot_be_touched(client):
    owner, intruder = user("holder"), user("intruder")
    held = endpoint("held", owner)
    client.force_login(intruder)
    assert client.post(f"/accounts/endpoints/{held.id}/remove-key/").status_code == 404
    assert client.post(f"/accounts/endpoints/{held.id}/delete/").status_code == 404
    assert client.get(f"/accounts/endpoints/{held.id}/delete/").status_code == 405
    held.refresh_from_db()
    assert held.api_key_encrypted and held.deleted_at is None
    client.logout()
    assert client.get("/accounts/endpoints/")["Location"].startswith("/accounts/login/")
