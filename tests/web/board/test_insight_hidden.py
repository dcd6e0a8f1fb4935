"""The insight surfaces on the hidden-release world of test_hidden_releases.py: the hardest-cases matrix shows
verdicts to curators only and the cost page no secret to anyone; the replay search is for curators and staff."""

from __future__ import annotations

import re

import pytest

from benchmark.runs.aggregates import run_aggregates
from tests.web.test_hidden_releases import NOT_CURATORS, RUN_SECRETS, hidden_world  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db
STEP_SECRETS = ("ARGUMENT-MARK", "OBSERVATION-MARK", "MODEL-TEXT-MARK")


def _get(client, url: str, account, **params) -> str:
    client.logout()
    if account is not None:
        client.force_login(account)
    response = client.get(url, params)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.mark.parametrize("role", (*NOT_CURATORS, "curator"))
def test_the_matrix_shows_verdicts_to_curators_only_and_the_cost_page_no_secret(client, hidden_world, role):  # noqa: F811
    for run in hidden_world["hidden"].runs.all():  # the world's runs end without stored results: store them
        run.aggregates = run_aggregates(run=run)
        run.save(update_fields=["aggregates"])
    account = hidden_world["users"][role] if role else None
    matrix = _get(client, "/releases/hid-hidden/matrix/", account, baselines="1")  # reference runs: baselines
    replay = f"/trajectories/{hidden_world['trajectory'].id}/"
    if role == "curator":
        assert 'data-state="pass"' in matrix and replay in matrix
    else:  # a verdict per case is one bit of the gold: the columns, no cell
        assert "data-state=" not in matrix and replay not in matrix and "hidden-per-case" in matrix
    cost = _get(client, "/releases/hid-hidden/cost/", account)
    assert [s for s in RUN_SECRETS if s in matrix + cost] == []


@pytest.mark.parametrize("role", NOT_CURATORS)
def test_a_non_curator_has_no_replay_to_search(client, hidden_world, role):  # noqa: F811
    account = hidden_world["users"][role] if role else None
    client.logout()
    if account is not None:
        client.force_login(account)
    for secret in (*STEP_SECRETS, "place_search"):
        response = client.get(f"/trajectories/{hidden_world['trajectory'].id}/", {"q": secret})
        assert response.status_code == 404 and secret not in response.content.decode()


@pytest.mark.parametrize("role", ("curator", "staff"))
def test_curators_and_staff_search_everything(client, hidden_world, role):  # noqa: F811
    url = f"/trajectories/{hidden_world['trajectory'].id}/"
    for secret in STEP_SECRETS:
        page = _get(client, url, hidden_world["users"][role], q=secret)
        assert re.findall(r'data-step="(\d+)"', page) == ["1"], secret
