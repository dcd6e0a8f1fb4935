"""The evidence-note reader: /notes/<note_id>/ shows a note as the note_detail tool gives it, nothing hidden."""

from __future__ import annotations

import pytest
from django.urls import reverse

from environment.models import Place, SocialFact
from environment.tools.gateway import call_tool
from tests.web.conftest import HOSTILE_COMMENT, HOSTILE_TEXT, HOSTILE_TITLE, hostile_note_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def note(grid_city):
    note = hostile_note_create(city=grid_city, note_id="reader-1")
    place = Place.objects.filter(city=grid_city).order_by("place_id")[0]
    note.place = place
    note.kind = "outdated"
    note.save(update_fields=["place", "kind"])
    SocialFact.objects.create(
        place=place, kind=SocialFact.STATIC, key="secret_key", label="SECRET-FACT-LABEL", note_ids=[note.note_id]
    )
    return note


def read(client, note_id: str, **params):
    return client.get(reverse("note", args=[note_id]), params)


def test_the_note_reads_as_the_tool_returns_it(client, note):
    tool = call_tool("agent", "note_detail", {"note_id": "reader-1"}, city="gridtown").result
    response = read(client, "reader-1", city="gridtown")
    html = response.content.decode()
    assert response.status_code == 200
    assert f"{tool['liked_count']} likes" in html and tool["time"] in html and "bakery" in html
    comment = tool["comments"][0]
    assert f"{comment['like_count']} likes · {comment['time']}" in html and "1 comments" in html
    # hostile text stays text
    for hostile in (HOSTILE_TITLE, HOSTILE_TEXT, HOSTILE_COMMENT):
        assert hostile not in html
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;" in html and "&lt;img src=x onerror" in html


def test_hidden_world_data_never_appears(client, note):
    html = read(client, "reader-1", city="gridtown").content.decode()
    place = note.place
    for secret in ("SECRET-FACT-LABEL", "secret_key", "outdated", f">{place.place_id}<", place.name):
        assert secret not in html, secret


def test_the_default_city_is_the_sites(client, note, settings):
    settings.LIFEPLANNER_CITY = "gridtown"
    assert read(client, "reader-1").status_code == 200


@pytest.mark.parametrize(
    "note_id, params, status, says",
    [
        ("reader-404", {"city": "gridtown"}, 404, "no note &#x27;reader-404&#x27; in city &#x27;gridtown&#x27;"),
        ("reader-1", {"city": "atlantis"}, 404, "no note &#x27;reader-1&#x27; in city &#x27;atlantis&#x27;"),
        ("bad id!", {"city": "gridtown"}, 400, "note_id must be 1 to 40 letters"),
        ("x" * 41, {"city": "gridtown"}, 400, "note_id must be"),
        ("reader-1", {"city": "Grid Town"}, 400, "city must be a city&#x27;s name"),
    ],
)
def test_unknown_notes_are_404_and_bad_ids_400(client, note, note_id, params, status, says):
    response = read(client, note_id, **params)
    assert response.status_code == status and says in response.content.decode()
    assert "manage.py" not in response.content.decode()  # no operator's hint for visitors


def test_required_evidence_links_to_the_reader_for_those_who_may_see_it(client, note, make_grid_release, users):
    link = '<a class="note-link" href="/notes/reader-1/?city=gridtown">'
    evidence = {"attributes": [], "note_ids": ["reader-1"]}
    public = make_grid_release(case_id="reader-public", required_evidence=evidence)
    hidden = make_grid_release(split="hidden", case_id="reader-hidden", required_evidence=evidence)
    assert link in client.get(reverse("case", args=[public.name, "reader-public"])).content.decode()
    hidden_url = reverse("case", args=[hidden.name, "reader-hidden"])
    assert client.get(hidden_url).status_code == 200 and link not in client.get(hidden_url).content.decode()
    client.force_login(users["curator"])
    assert link in client.get(hidden_url).content.decode()


def test_the_replays_notes_panel_links_each_note_to_the_reader(client, note, grid_release, record_trajectory):
    trajectory = record_trajectory(
        release=grid_release, calls=[("search_notes", {"keyword": "buns"}), ("note_detail", {"note_id": "reader-1"})]
    )
    html = client.get(reverse("trajectory", args=[trajectory.pk])).content.decode()
    assert html.count('<a class="note-link" href="/notes/reader-1/?city=gridtown">reader-1</a>') == 2
    assert read(client, "reader-1", city="gridtown").status_code == 200
