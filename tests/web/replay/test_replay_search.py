"""Search inside a trajectory: ?q= on the replay page lists the steps whose text contains the query."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from benchmark.web.replay.document import replay_payload
from benchmark.web.replay.search import observation_texts, steps_matching
from tests.web.conftest import every_tool_calls, hostile_note_create

pytestmark = pytest.mark.django_db
TOOLS = [tool for tool, _ in every_tool_calls("hostile-1")]  # 8 calls, then submit_answer when answered


@pytest.fixture
def hostile_note(grid_city):
    return hostile_note_create(city=grid_city)


def found(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li value="\d+" data-step="(\d+)">', html)]


def search(client, trajectory, q: str):
    return client.get(reverse("trajectory", args=[trajectory.pk]), {"q": q})


@pytest.fixture
def trajectory(grid_release, record_trajectory, hostile_note):
    return record_trajectory(
        release=grid_release, calls=every_tool_calls("hostile-1"), model_text="Looking for CINNAMON rolls"
    )


def test_matches_tool_names_arguments_observations_notes_and_model_text(client, trajectory):
    assert found(search(client, trajectory, "ROUTING").content.decode()) == [4, 8]  # tool name, any case
    html = search(client, trajectory, "buns").content.decode()
    assert found(html) == [6, 7]  # search_notes' keyword and hit; note_detail's note
    assert "2 steps of 8 contain" in html and 'href="?q=buns&amp;step=6"' in html
    assert html.count('<li class="search-match">') == 2  # the timeline marks the same steps
    assert (
        '<li class="search-match"><a href="#A-step-6"' in html
        and '<li class="search-match"><a href="#A-step-7"' in html
    )
    assert found(search(client, trajectory, "N404").content.decode()) == [8]  # an argument of the failing call
    assert found(search(client, trajectory, "not_found").content.decode()) == [8]  # its error kind
    assert found(search(client, trajectory, "cinnamon").content.decode()) == list(range(1, 9))  # model text
    assert found(search(client, trajectory, "no such words anywhere").content.decode()) == []


def test_where_a_match_was_found_is_named(client, trajectory):
    payload = replay_payload(trajectory=trajectory, user=None)
    by_step = {m["number"]: m for m in steps_matching(payload, "buns")}
    assert by_step[6]["where"][0] == "arguments" and "notes" in by_step[7]["where"]
    assert "buns" in by_step[6]["snippet"].lower()


def test_the_query_is_escaped(client, trajectory):
    html = search(client, trajectory, "<script>alert(1)</script>").content.decode()
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_on_a_hidden_release_only_curators_search_what_the_agent_saw(
    client, make_grid_release, record_trajectory, hostile_note, users
):
    release = make_grid_release(split="hidden")
    trajectory = record_trajectory(
        release=release, calls=every_tool_calls("hostile-1"), model_text="MODEL-TEXT-MARK", answer={"x": 1}
    )
    for user in (None, users["member"]):
        client.logout()
        if user:
            client.force_login(user)
        for secret in ("buns", "N404", "MODEL-TEXT-MARK", "Withheld", "812", "routing"):
            response = search(client, trajectory, secret)  # no replay at all: a per-case result
            assert response.status_code == 404 and found(response.content.decode()) == [], secret
        # What the replay document withholds from them (its second line of defence) is not searched either.
        payload = replay_payload(trajectory=trajectory, user=user)
        observations = observation_texts(trajectory=trajectory, payload=payload)
        for secret in ("buns", "N404", "MODEL-TEXT-MARK", "812"):
            assert steps_matching(payload, secret, observations) == [], secret
        assert [s["number"] for s in steps_matching(payload, "routing", observations)] == [4, 8]
    client.force_login(users["curator"])
    assert found(search(client, trajectory, "buns").content.decode()) == [6, 7]
    assert found(search(client, trajectory, "MODEL-TEXT-MARK").content.decode()) == list(range(1, 10))


@pytest.mark.parametrize("q, says", [("x" * 201, "at most 200 characters; got 201"), ("a\x07b", "control characters")])
def test_a_bad_query_is_a_400_naming_q(client, trajectory, q, says):
    response = search(client, trajectory, q)
    assert response.status_code == 400 and "q " in response.content.decode() and says in response.content.decode()


def test_without_a_query_the_page_has_the_search_box_and_no_results(client, trajectory):
    html = client.get(reverse("trajectory", args=[trajectory.pk])).content.decode()
    assert 'name="q"' in html and 'class="search-results"' not in html and "search-count" not in html
