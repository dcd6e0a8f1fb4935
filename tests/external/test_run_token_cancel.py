"""Cancelling a run revokes its run tokens (issue 13): an external agent holding one can do nothing more."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from benchmark.external.agents import RunTokenRefused, external_next_case, external_run_create, external_tool_call
from benchmark.runs.models import EvaluationRun, Trajectory
from benchmark.runs.services import run_cancel

pytestmark = pytest.mark.django_db


@pytest.fixture
def release(grid_city):
    from tests.factories import CELLS
    from tests.factories import release as make_release

    return make_release("token-cancel", cells=CELLS[:2])


def test_cancelling_a_run_revokes_its_tokens_and_stops_the_case_a_token_held(release):
    run, token = external_run_create(release=release, name="external")
    held = external_next_case(token=token)
    assert held is not None
    assert run_cancel(run=run) == 2  # the held case and the queued one
    assert run.tokens.get().revoked
    for call in (
        lambda: external_next_case(token=token),
        lambda: external_tool_call(token=token, tool="place_search", arguments={"query_name": "Koira"}),
    ):
        with pytest.raises(RunTokenRefused, match="revoked"):
            call()
    assert set(run.trajectories.values_list("status", flat=True)) == {Trajectory.CANCELLED}


def test_the_cancel_command_revokes_them_too(release):
    run, token = external_run_create(release=release, name="external")
    call_command("evaluate", "--cancel", str(run.id), stdout=io.StringIO())
    with pytest.raises(RunTokenRefused, match="revoked"):
        external_next_case(token=token)


def test_a_token_of_a_run_cancelled_another_way_is_refused_as_well(release):
    run, token = external_run_create(release=release, name="external")
    EvaluationRun.objects.filter(id=run.id).update(status=EvaluationRun.CANCELLED)  # e.g. in the admin
    with pytest.raises(RunTokenRefused, match="was cancelled"):
        external_next_case(token=token)
