"""The trajectory replay: geometry per tool call, tables, notes, answers, visibility, escaping, queries."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.gis.geos import GEOSGeometry, Point
from django.urls import reverse

from benchmark.runs.models import EvaluationRun
from benchmark.web.replay.document import HIDDEN_EXPLANATION, replay_payload
from benchmark.web.replay.steps import turn_points
from environment.models import Place
from tests.web.conftest import HOSTILE_COMMENT, HOSTILE_TEXT, HOSTILE_TITLE, every_tool_calls, hostile_note_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def hostile_note(grid_city):
    return hostile_note_create(city=grid_city)


def reference_answer() -> dict:
    from tests.factories import routing_document

    return routing_document().answer


@pytest.fixture
def full_trajectory(make_grid_release, record_trajectory, hostile_note):
    release = make_grid_release(required_evidence={"attributes": [], "note_ids": [hostile_note.note_id]})
    return record_trajectory(
        release=release,
        calls=every_tool_calls(hostile_note.note_id),
        answer=reference_answer(),
        model_text="I will look <script>alert('model')</script> around.",
    )


def kinds(step: dict) -> list[str]:
    return [f["properties"]["kind"] for f in step["features"]]


def location(place_id: str) -> list[float]:
    loc = Place.objects.get(city__name="gridtown", place_id=place_id).location
    return [loc.x, loc.y]


def test_search_results_are_ranked_markers_at_the_places(full_trajectory):
    step = replay_payload(trajectory=full_trajectory, user=None)["steps"][0]
    ids = [row[2] for row in step["table"]["rows"]]  # in the tool's order (best rating first)
    assert sorted(ids) == ["N1", "N7"]
    assert [(f["properties"]["rank"], f["properties"]["place_id"]) for f in step["features"]] == [
        (1, ids[0]),
        (2, ids[1]),
    ]
    assert [f["geometry"]["coordinates"] for f in step["features"]] == [location(ids[0]), location(ids[1])]


def test_nearby_search_around_a_place_draws_its_circle_center_and_results(full_trajectory):
    step = replay_payload(trajectory=full_trajectory, user=None)["steps"][1]
    circle = step["features"][0]
    assert kinds(step)[:2] == ["circle", "center"]
    assert circle["properties"]["radius_m"] == 250 and circle["geometry"]["coordinates"] == location("N4")
    ranked = [f["properties"]["place_id"] for f in step["features"] if f["properties"]["kind"] == "result"]
    assert ranked == [row[2] for row in step["table"]["rows"]] and len(ranked) >= 2
    assert step["table"]["columns"][-1] == "Distance (m)"


def test_nearby_search_along_a_route_draws_the_buffer_that_holds_every_result(full_trajectory):
    step = replay_payload(trajectory=full_trajectory, user=None)["steps"][2]
    assert kinds(step)[:2] == ["buffer", "route"] and kinds(step).count("endpoint") == 2
    buffer = GEOSGeometry(json.dumps(step["features"][0]["geometry"]))
    results = [f for f in step["features"] if f["properties"]["kind"] == "result"]
    assert results, "the search along the route found places"
    assert all(buffer.contains(Point(*f["geometry"]["coordinates"])) for f in results)
    far = Place.objects.get(city__name="gridtown", place_id="N8").location  # the far corner of the grid
    assert not buffer.contains(Point(far.x, far.y))


def test_routing_draws_its_line_with_a_point_per_turn_step(full_trajectory):
    payload = replay_payload(trajectory=full_trajectory, user=None)
    step = payload["steps"][3]
    observation = full_trajectory.steps.get(index=3).observation
    route = step["features"][0]
    assert route["properties"]["kind"] == "route" and route["geometry"] == observation["geometry"]
    turns = [f for f in step["features"] if f["properties"]["kind"] == "turn"]
    assert [t["properties"]["instruction"] for t in turns] == [s["instruction"] for s in observation["steps"]]
    assert turns[0]["geometry"]["coordinates"] == observation["geometry"]["coordinates"][0]
    assert [row[1] for row in step["table"]["rows"]] == [s["instruction"] for s in observation["steps"]]


def test_turn_points_lie_at_each_steps_distance_along_the_line():
    line = {"type": "LineString", "coordinates": [[24.0, 60.0], [24.0, 60.001], [24.002, 60.001]]}
    north = 111.2  # metres in 0.001 degree of latitude
    points = turn_points(
        line,
        [
            {"instruction": "north", "distance_m": north / 2},
            {"instruction": "on", "distance_m": north / 2},
            {"instruction": "east"},
        ],
    )
    coords = [p["geometry"]["coordinates"] for p in points]
    assert coords[0] == [24.0, 60.0]
    assert coords[1] == pytest.approx([24.0, 60.0005], abs=1e-6)
    assert coords[2] == pytest.approx([24.0, 60.001], abs=1e-6)


def test_place_detail_marks_the_place_and_lists_its_fields(full_trajectory):
    step = replay_payload(trajectory=full_trajectory, user=None)["steps"][4]
    assert kinds(step) == ["place"] and step["features"][0]["properties"]["place_id"] == "N4"
    assert ["name", "Hotel Aurora"] in step["table"]["rows"]


def test_notes_steps_list_the_notes_and_mark_required_evidence(full_trajectory, hostile_note):
    steps = replay_payload(trajectory=full_trajectory, user=None)["steps"]
    listed, detail = {n["note_id"]: n for n in steps[5]["notes"]}, steps[6]["notes"]
    assert listed["hostile-1"]["full"] is False  # the city's own notes about buns may be listed too
    assert listed["hostile-1"]["text"] is None and listed["hostile-1"]["likes"] == 7
    assert detail == [
        {
            "note_id": "hostile-1",
            "title": HOSTILE_TITLE,
            "text": HOSTILE_TEXT,
            "time": detail[0]["time"],
            "likes": 7,
            "collected": 1,
            "comment_count": 1,
            "tags": "bakery",
            "full": True,
            "comments": [{"content": HOSTILE_COMMENT, "time": detail[0]["comments"][0]["time"], "likes": 3}],
            "required": True,
        }
    ]
    assert steps[5]["features"] == [] and steps[6]["features"] == []


def test_a_failed_call_shows_its_error_and_draws_nothing(full_trajectory):
    step = replay_payload(trajectory=full_trajectory, user=None)["steps"][7]
    assert step["error_kind"] == "not_found" and step["features"] == []
    assert step["table"]["summary"] == ["The call failed."]
    assert dict(step["table"]["rows"])["parameter"] == "end_place_id"


def test_answer_and_reference_are_numbered_stops_with_routed_legs(full_trajectory):
    payload = replay_payload(trajectory=full_trajectory, user=None)
    for drawn in (payload["answer"], payload["reference"]):
        assert [(s["number"], s["place_id"]) for s in drawn["stops"]] == [(1, "N1"), (2, "N4"), (3, "N5")]
        legs = [f for f in drawn["features"] if f["properties"]["kind"] == "leg"]
        assert [f["properties"]["leg"] for f in legs] == [1, 2] and drawn["vehicle"] == "walking"
        assert legs[0]["geometry"]["coordinates"][0] == location("N1")
        names = {s["place_id"]: s["name"] for s in drawn["stops"]}
        ends = [(f["properties"]["from"], f["properties"]["to"]) for f in legs]
        assert ends == [("N1", "N4"), ("N4", "N5")]  # the map names each leg by the places it joins
        assert [(f["properties"]["from_name"], f["properties"]["to_name"]) for f in legs] == [
            (names[a], names[b]) for a, b in ends
        ]
        assert all(names.values())
    assert payload["steps"][-1]["features"] == payload["answer"]["features"]


def test_metrics_come_with_their_explanations(full_trajectory):
    metrics = {m["name"]: m for m in replay_payload(trajectory=full_trajectory, user=None)["metrics"]}
    assert {"pass_rate", "PIoU", "TE", "IG", "grounding"} <= set(metrics)
    assert metrics["PIoU"]["value"] == 1.0 and "PIoU = 1" in metrics["PIoU"]["explanation"]
    assert metrics["TE"]["explanation"] == full_trajectory.scores["TE"]["explanation"]


def test_places_cited_but_never_fetched_are_flagged_on_the_answer(client, grid_release, record_trajectory):
    answer = {
        "start": {"place_id": "N1"},
        "end": {"place_id": "N5"},
        "waypoints": [{"place_id": "N9"}],
        "vehicle": "walking",
        "mode": "distance",
    }
    trajectory = record_trajectory(
        release=grid_release, calls=[("place_search", {"query_name": "Kahvila Koira"})], answer=answer
    )
    payload = replay_payload(trajectory=trajectory, user=None)
    flagged = {f["value"] for f in payload["answer"]["flags"] if f["kind"] == "place_id"}
    assert flagged == {"N5", "N9"}
    assert {s["place_id"]: s["flagged"] for s in payload["answer"]["stops"]} == {"N1": False, "N9": True, "N5": True}
    html = client.get(reverse("trajectory", args=[trajectory.pk])).content.decode()
    assert html.count('<span class="badge flag">never fetched') == 2 and "place_id <code>N9</code>" in html


def test_hostile_text_is_escaped_in_the_page_and_in_the_embedded_data(client, full_trajectory):
    response = client.get(reverse("trajectory", args=[full_trajectory.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    for raw in (
        "<script>alert('title')</script>",
        "<img src=x onerror",
        HOSTILE_COMMENT,
        "<b>buns</b>",
        "<script>alert('model')</script>",
    ):
        assert raw not in html
    assert "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt; Best &lt;b&gt;buns&lt;/b&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt; Lovely spot" in html
    assert "&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert not [tag for tag in re.findall(r"<script[^>]*>", html) if "alert" in tag or "onerror" in tag]


def test_replay_json_carries_the_same_document(client, full_trajectory):
    response = client.get(reverse("trajectory-json", args=[full_trajectory.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert data == json.loads(json.dumps(replay_payload(trajectory=full_trajectory, user=None)))
    assert data["steps"][6]["notes"][0]["title"] == HOSTILE_TITLE


def test_every_step_is_on_the_page_without_javascript(client, full_trajectory):
    html = client.get(reverse("trajectory", args=[full_trajectory.pk])).content.decode()
    assert html.count('class="step-panel"') == full_trajectory.steps.count()
    assert html.count('class="step-panel answer-panel"') == 1
    assert html.count('class="note required"') == 2  # the note in the search list and in its detail
    assert 'class="timeline" hidden' in html  # the script reveals the timeline; without it all panels show


def test_a_hidden_release_keeps_answers_observations_and_explanations_for_curators(
    client, make_grid_release, record_trajectory, hostile_note, users
):
    release = make_grid_release(split="hidden", required_evidence={"attributes": [], "note_ids": ["hostile-1"]})
    trajectory = record_trajectory(
        release=release, calls=every_tool_calls("hostile-1"), answer=reference_answer(), model_text="MODEL-TEXT-MARK"
    )
    url = reverse("trajectory", args=[trajectory.pk])
    for user in (None, users["member"]):  # staff see the answers, like curators
        payload = replay_payload(trajectory=trajectory, user=user)
        assert payload["reference"] is None and payload["answers_visible"] is False
        assert payload["answer"]["raw"] is None and payload["answer"]["stops"] == [] and payload["answer"]["submitted"]
        assert [s["tool"] for s in payload["steps"]] == [t for t, _ in every_tool_calls("hostile-1")] + [
            "submit_answer"
        ]
        assert all(
            s["arguments"] is None
            and s["model_text"] is None
            and s["notes"] == []
            and s["features"] == []
            and s["table"]["rows"] == []
            and s["withheld"]
            for s in payload["steps"]
        )
        assert payload["steps"][7]["error_kind"] == "not_found"  # how each call went stays
        metrics = {m["name"]: m for m in payload["metrics"]}
        assert metrics["PIoU"]["value"] == 1.0 and metrics["TE"]["value"] == trajectory.scores["TE"]["value"]
        assert {m["explanation"] for m in payload["metrics"]} == {HIDDEN_EXPLANATION}  # TE's gives |reference path|
        client.logout()
        if user:
            client.force_login(user)
        html = client.get(url).content.decode()
        assert "Reference answer" not in html and "required evidence</span>" not in html
        for secret in ("812.4", "buns", "MODEL-TEXT-MARK", trajectory.scores["TE"]["explanation"]):
            assert secret not in html
    for reader in ("staff", "curator"):
        client.force_login(users[reader])
        html = client.get(url).content.decode()
        assert "Reference answer" in html and "required evidence</span>" in html and "MODEL-TEXT-MARK" in html
    curator_view = replay_payload(trajectory=trajectory, user=users["curator"])
    assert curator_view["reference"]["stops"][1]["place_id"] == "N4" and curator_view["answer"]["raw"]["vehicle"]


@pytest.mark.parametrize("viewer, status", [(None, 404), ("member", 404), ("submitter", 200), ("staff", 200)])
def test_a_smoke_run_replays_only_for_its_submitter_and_staff(
    client, grid_release, record_trajectory, users, viewer, status
):
    from django.contrib.auth.models import User

    submitter = User.objects.create_user("submitter", password="pw")
    users["submitter"] = submitter
    trajectory = record_trajectory(
        release=grid_release,
        calls=[("place_detail", {"place_id": "N4"})],
        answer={"place_id": "N4"},
        purpose=EvaluationRun.SMOKE,
        created_by=submitter,
    )
    if viewer:
        client.force_login(users[viewer])
    assert client.get(reverse("trajectory", args=[trajectory.pk])).status_code == status
    response = client.get(reverse("trajectory-json", args=[trajectory.pk]))
    assert response.status_code == status
    if status == 404:
        assert response.json() == {"error": f"No trajectory {trajectory.pk}, or it belongs to a run you cannot see."}


def test_an_unknown_trajectory_is_not_found(client):
    assert client.get(reverse("trajectory", args=[999999])).status_code == 404


def test_the_replay_page_needs_a_bounded_number_of_queries(
    client, full_trajectory, grid_release, users, record_trajectory, django_assert_max_num_queries
):
    """Trajectory, run visibility, steps, city, places, and one query for every route buffer together."""
    short = record_trajectory(
        release=grid_release, calls=[("place_detail", {"place_id": "N4"})], answer={"place_id": "N4"}
    )
    client.get(reverse("trajectory", args=[short.pk]))  # warm the per-process city caches
    for trajectory in (short, full_trajectory):
        with django_assert_max_num_queries(6):
            assert client.get(reverse("trajectory", args=[trajectory.pk])).status_code == 200
    client.force_login(users["curator"])
    with django_assert_max_num_queries(10):  # + session, user, and the user's permissions
        assert client.get(reverse("trajectory", args=[full_trajectory.pk])).status_code == 200


def test_an_earlier_submission_is_drawn_from_its_own_result(grid_release, record_trajectory):
    first = {"place_id": "N7"}
    trajectory = record_trajectory(
        release=grid_release,
        calls=[("place_search", {"query_name": "Kahvila"}), ("submit_answer", {"result": first})],
        answer={"place_id": "N1"},
    )
    steps = replay_payload(trajectory=trajectory, user=None)["steps"]
    assert [f["properties"]["place_id"] for f in steps[1]["features"]] == ["N7"]
    assert [f["properties"]["place_id"] for f in steps[2]["features"]] == ["N1"]


def test_a_case_still_queued_shows_its_status(client, grid_release):
    from benchmark.runs.services import run_create

    trajectory = run_create(agent="reference", release=grid_release).trajectories.get()
    html = client.get(reverse("trajectory", args=[trajectory.pk])).content.decode()
    assert "This case is queued: its steps appear when it finishes." in html
    assert html.count('class="step-panel') == 1  # only the (empty) answer panel


def test_a_city_that_is_not_built_here_still_shows_the_steps(client, full_trajectory):
    from benchmark.cases.models import Release

    Release.objects.filter(pk=full_trajectory.run.release_id).update(city_name="atlantis")
    full_trajectory.run.release.refresh_from_db()
    payload = replay_payload(trajectory=full_trajectory, user=None)
    assert payload["city"] == {"name": "atlantis", "built": False, "same_version": False}
    drawn = {step["tool"]: set(kinds(step)) for step in payload["steps"] if step["features"]}
    assert drawn == {"routing": {"route", "turn"}} and len(payload["steps"]) == 9  # lines the observation carries
    html = client.get(reverse("trajectory", args=[full_trajectory.pk])).content.decode()
    assert "City atlantis is not built on this server" in html and '"streets_url": null' in html


def embedded_map_data(html: str) -> dict:
    return json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)[1])


@pytest.mark.parametrize(
    "step, start", [("3", 2), ("9", 8), ("answer", 9), ("1", 0), ("10", 0), ("0", 0), ("x", 0), ("", 0)]
)
def test_a_step_in_the_url_opens_that_step(client, full_trajectory, step, start):
    url = reverse("trajectory", args=[full_trajectory.pk])
    data = embedded_map_data(client.get(url, {"step": step}).content.decode())
    assert len(data["tracks"][0]["steps"]) == 9  # 8 calls and submit_answer; position 9 is the final answer
    assert data["start"] == start and data["step_urls"] is True


def test_maps_have_no_tiles_by_default_and_draw_our_streets(client, full_trajectory, settings):
    html = client.get(reverse("trajectory", args=[full_trajectory.pk])).content.decode()
    assert settings.MAP_TILE_URL == "" and settings.LEAFLET_CONFIG["TILES"] == []
    assert '"layers": []' in html and "{z}" not in html and "tile.openstreetmap" not in html
    assert "js/streets.js" in html and embedded_map_data(html)["streets_url"] == "/city/gridtown/streets.geojson"
