"""The pages in a real browser: Debian's headless Chromium through Playwright, on a live server.

The browser opens the leaderboard, a run, and a replay; steps through the timeline with the
buttons and the arrow keys; at every position checks that the map draws exactly that step's
layers (Leaflet's SVG paths, and the places its marker icons and count badges stand for,
counted in the DOM against replay.json) and that
the notes panel shows that step's notes; and checks that hostile note text stays inert text.
Screenshots go to test-artifacts/screenshots/.

The server and the browser are the ``site`` and ``browser`` fixtures of tests/web/browser.py, which
every module of tests/web gets through conftest.py. The server reads only committed data: the
session's runs and this module's own fixtures.
"""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import parse_qs, urlparse

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium

MARKER_KINDS = {"result", "endpoint", "stop"}  # drawn as divIcon markers; every other kind is an SVG path
# The places the marker icons stand for: one per numbered marker, data-count per count badge (js/map-markers.js)
PLACES_SHOWN = """(map) => Array.from(document.querySelectorAll(map + ' .lp-marker'))
    .reduce((total, icon) => total + Number(icon.getAttribute('data-count') || 1), 0)"""

pytestmark = [needs_chromium, pytest.mark.django_db]


@pytest.fixture(scope="module")
def hostile_replay(grid_city, web_runs, django_db_blocker):
    """A committed trajectory on the grid city that reads a note with hostile title, text and comment."""
    from benchmark.cases.services import case_create, release_freeze
    from tests.factories import routing_document
    from tests.web import conftest as web

    with django_db_blocker.unblock():
        note = web.hostile_note_create(city=grid_city, note_id=web.HOSTILE_BROWSER_NOTE)
        case = case_create(document=routing_document(status="validated", case_id=f"{web.CASE_PREFIX}grid-hostile"))
        release = release_freeze(name="web-grid-hostile", split="public", cases=[case], audit=False)
        trajectory = web.recorded_trajectory(
            release=release, calls=web.every_tool_calls(note.note_id), answer=case.answer, name="web hostile"
        )
    yield trajectory
    with django_db_blocker.unblock():
        trajectory.run.delete()
        release.delete()
        case.delete()
        note.delete()


@pytest.fixture(params=[(1400, 900), (390, 844)], ids=["1400x900", "390x844"])
def page(browser, request):
    """A page at a desktop's and at a phone's size: every flow below runs at both."""
    width, height = request.param
    page = browser.new_page(viewport={"width": width, "height": height})
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("dialog", lambda dialog: (page.errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.route("**/tile.openstreetmap.org/**", lambda route: route.abort())  # offline: no tile server answers
    yield page
    page.close()


def size_of(page) -> str:
    return "{width}x{height}".format(**page.viewport_size)


def replay_json(site: str, trajectory_id: int) -> dict:
    with urllib.request.urlopen(f"{site}/trajectories/{trajectory_id}/replay.json", timeout=30) as response:
        return json.load(response)


def drawn_position(payload: dict, position: int) -> int:
    """The step whose map shows at ``position``: a step that draws nothing (a note read) keeps the map of the last
    earlier step that drew something."""
    steps, drawn = payload["steps"], position
    while 0 < drawn < len(steps) and not steps[drawn]["features"]:
        drawn -= 1
    return drawn


def expected_layers(payload: dict, position: int) -> tuple[int, int]:
    """(SVG paths, marker icons) the map must show at ``position`` of the timeline."""
    steps = payload["steps"]
    drawn = drawn_position(payload, position)
    features = steps[drawn]["features"] if position < len(steps) else payload["answer"]["features"]
    if position == len(steps) and payload["reference"]:
        features = features + payload["reference"]["features"]
    markers = sum(f["properties"]["kind"] in MARKER_KINDS for f in features)
    return len(features) - markers, markers


def shown(page) -> dict:
    panel = page.locator("[data-track=A] .step-panel:not([hidden])")
    return {
        "position": int(page.get_attribute("[data-track=A]", "data-position")),
        "label": page.inner_text("[data-track=A] .timeline .position"),
        "panels": panel.count(),
        "paths": page.locator("#replay-map path.lp-step").count(),
        "markers": places_shown(page),
        "notes": panel.locator(".notes .note h5").all_inner_texts(),
        "map_from": int(page.get_attribute("[data-track=A]", "data-map-from")),
        "map_caption": page.inner_text("[data-track=A] .timeline .map-from"),
    }


def places_shown(page, map_selector: str = "#replay-map") -> int:
    """The places the map's marker icons represent (a count badge stands for several; a reference ring for one)."""
    return page.evaluate(PLACES_SHOWN, map_selector)


def open_replay(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#replay-map[data-ready=true]")
    page.wait_for_selector("#replay-map[data-streets=loaded]")


def check_position(page, payload: dict, position: int) -> dict:
    state = shown(page)
    steps = payload["steps"]
    assert state["position"] == position and state["panels"] == 1
    assert state["label"] == (
        f"Step {position + 1} of {len(steps)}: {steps[position]['tool']}" if position < len(steps) else "Final answer"
    )
    assert (state["paths"], state["markers"]) == expected_layers(payload, position), f"position {position}"
    drawn = drawn_position(payload, position)
    assert state["map_from"] == drawn
    assert state["map_caption"] == (
        f"(the map of step {drawn + 1}: this step draws nothing)" if drawn != position else ""
    )
    notes = steps[position]["notes"] if position < len(steps) else []
    assert [text.removesuffix(" required evidence") for text in state["notes"]] == [n["title"] for n in notes]
    return state


def test_leaderboard_run_and_replay_step_through_the_timeline(site, page, web_runs):
    heuristic = web_runs["heuristic"]
    page.goto(f"{site}/?release=web-fixture")
    page.screenshot(path=SCREENSHOTS / f"flow-leaderboard-{size_of(page)}.png", full_page=True)
    page.get_by_role("link", name=heuristic.name, exact=True).click()
    page.wait_for_url(f"{site}/runs/{heuristic.id}/")
    page.screenshot(path=SCREENSHOTS / f"flow-run-{size_of(page)}.png", full_page=True)
    page.get_by_role("link", name="replay").first.click()
    page.wait_for_url("**/trajectories/*/**")
    open_replay(page, page.url)
    payload = replay_json(site, int(urlparse(page.url).path.rstrip("/").rsplit("/", 1)[1]))
    last = len(payload["steps"])
    assert payload["trajectory"]["passed"] is False and last >= 2

    states = [check_position(page, payload, 0)]
    page.screenshot(path=SCREENSHOTS / f"replay-step-1-{size_of(page)}.png")
    for position in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        states.append(check_position(page, payload, position))
    page.screenshot(path=SCREENSHOTS / f"replay-answer-{size_of(page)}.png")
    page.keyboard.press("ArrowRight")  # past the end: stays on the answer
    check_position(page, payload, last)
    page.click("[data-track=A] [data-action=prev]")
    check_position(page, payload, last - 1)
    page.keyboard.press("ArrowLeft")
    check_position(page, payload, last - 2)
    assert len({(s["paths"], s["markers"]) for s in states}) > 1, "the map's layers change along the timeline"
    assert page.errors == []


def test_notes_panel_follows_the_timeline_and_marks_required_evidence(site, page, web_runs, django_db_blocker):
    with django_db_blocker.unblock():
        trajectory = (
            web_runs["reference"].trajectories.filter(steps__tool="note_detail").order_by("entry__position").first()
        )
    payload = replay_json(site, trajectory.id)
    open_replay(page, f"{site}/trajectories/{trajectory.id}/")
    notes_seen = []
    for position in range(len(payload["steps"]) + 1):
        if position:
            page.click("[data-track=A] [data-action=next]")
        notes_seen.append(check_position(page, payload, position)["notes"])
        if payload["steps"][position:] and payload["steps"][position]["tool"] == "note_detail":
            page.screenshot(path=SCREENSHOTS / f"replay-notes-{size_of(page)}.png")
            assert page.locator("[data-track=A] .step-panel:not([hidden]) .note.required").count() == 1
    assert len({tuple(n) for n in notes_seen}) > 2, "the notes panel changes with the steps"
    assert page.errors == []


def test_hostile_note_text_stays_text_in_the_browser(site, page, hostile_replay):
    from tests.web.conftest import HOSTILE_COMMENT, HOSTILE_TEXT, HOSTILE_TITLE

    payload = replay_json(site, hostile_replay.id)
    open_replay(page, f"{site}/trajectories/{hostile_replay.id}/")
    detail = next(i for i, s in enumerate(payload["steps"]) if s["tool"] == "note_detail")
    page.click(f"[data-track=A] .step-list a[data-position='{detail}']")
    check_position(page, payload, detail)
    note = page.locator("[data-track=A] .step-panel:not([hidden]) .note")
    assert note.locator("h5").inner_text().startswith(HOSTILE_TITLE)
    assert note.locator(".note-text").inner_text() == HOSTILE_TEXT
    assert HOSTILE_COMMENT in note.locator(".comments li").inner_text()
    assert page.locator("img[src=x]").count() == 0 and page.locator("b", has_text="buns").count() == 0
    page.screenshot(path=SCREENSHOTS / f"replay-hostile-note-{size_of(page)}.png")
    assert page.errors == []  # no script ran and no dialog opened


def layers_of(payload: dict, position: int) -> tuple[int, int]:
    """(paths, markers) of one track at ``position``, without the reference."""
    steps = payload["steps"]
    drawn = position  # a step that draws nothing keeps the map of the last step that drew something
    while 0 < drawn < len(steps) and not steps[drawn]["features"]:
        drawn -= 1
    features = steps[drawn]["features"] if position < len(steps) else payload["answer"]["features"]
    markers = sum(f["properties"]["kind"] in MARKER_KINDS for f in features)
    return len(features) - markers, markers


def test_compare_replays_both_runs_side_by_side_on_one_map(site, page, web_runs):
    a, b = web_runs["reference"], web_runs["heuristic"]
    page.goto(f"{site}/compare/?a={a.id}&b={b.id}")
    page.screenshot(path=SCREENSHOTS / f"flow-compare-{size_of(page)}.png", full_page=True)
    page.locator("#won a", has_text="side by side").first.click()
    page.wait_for_selector("#replay-map[data-ready=true]")
    data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
    payloads = {t["key"]: replay_json(site, t["trajectory"]) for t in data["tracks"]}
    reference = payloads["A"]["reference"]["features"]

    def check(pos_a: int, pos_b: int) -> None:
        assert [int(page.get_attribute(f"[data-track={k}]", "data-position")) for k in "AB"] == [pos_a, pos_b]
        (paths_a, markers_a), (paths_b, markers_b) = layers_of(payloads["A"], pos_a), layers_of(payloads["B"], pos_b)
        at_answer = pos_a == len(payloads["A"]["steps"]) or pos_b == len(payloads["B"]["steps"])
        ref_markers = sum(f["properties"]["kind"] == "stop" for f in reference) if at_answer else 0
        ref_paths = len(reference) - ref_markers if at_answer else 0
        assert page.locator("#replay-map path.lp-step").count() == paths_a + paths_b + ref_paths
        assert places_shown(page) == markers_a + markers_b + ref_markers

    check(0, 0)
    labels = [t["label"] for t in data["tracks"]]  # on one map, every marker's name says whose it is
    names = page.locator("#replay-map .leaflet-marker-icon").evaluate_all("(els) => els.map((e) => e.ariaLabel)")
    assert names and all(any(f"{label}, result" in name for label in labels) for name in names), names
    page.click("[data-track=B] [data-action=next]")
    check(0, 1)
    page.keyboard.press("ArrowRight")  # the keys follow the run last clicked: B
    check(0, 2)
    answer_a = len(payloads["A"]["steps"])
    page.click(f"[data-track=A] .step-list a[data-position='{answer_a}']")
    check(answer_a, 2)
    page.screenshot(path=SCREENSHOTS / f"flow-compare-side-by-side-{size_of(page)}.png")
    page.click("[data-track=B] [data-action=prev]")
    page.click("[data-track=B] [data-action=play]")
    page.wait_for_selector("[data-track=B][data-position='2']", timeout=5000)
    assert page.inner_text("[data-track=B] [data-action=play]") == "Pause"
    assert page.errors == []


def failed_replay_with_a_diff(site: str, run) -> tuple[int, dict]:
    """A failed trajectory of ``run`` whose answer differs from the reference in its places: (id, replay.json)."""
    for trajectory_id in run.trajectories.filter(passed=False).order_by("entry__position").values_list("id", flat=True):
        payload = replay_json(site, trajectory_id)
        diff = payload["failure"]["diff"]
        if diff["missing"] or diff["extra"]:
            return trajectory_id, payload
    raise AssertionError(f"run {run.id} has no failed case with a wrong place")


@pytest.mark.parametrize("width, height", [(1400, 900), (390, 844)])
def test_a_failed_replay_shows_reasons_and_diff_before_any_click_and_stays_on_this_server(
    site, browser, web_runs, django_db_blocker, width, height
):
    with django_db_blocker.unblock():
        trajectory_id, payload = failed_replay_with_a_diff(site, web_runs["heuristic"])
    page = browser.new_page(viewport={"width": width, "height": height})
    requests, problems = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda message: problems.append(message) if message.type == "error" else None)
    open_replay(page, f"{site}/trajectories/{trajectory_id}/")
    page.screenshot(path=SCREENSHOTS / f"replay-failed-{width}x{height}.png")

    summary = page.locator(".failure-summary")
    assert summary.is_visible()
    assert summary.bounding_box()["y"] < page.locator("#replay-map").bounding_box()["y"]  # above the map
    failure = payload["failure"]
    assert summary.locator(".reasons li strong").all_inner_texts() == [r["label"] for r in failure["reasons"]]
    for kind in ("missing", "extra"):
        items = summary.locator(f".diff-{kind}")
        assert items.count() == len(failure["diff"][kind])
        for item, place in zip(items.all_inner_texts(), failure["diff"][kind]):
            assert place["place_id"] in item and place["name"] in item and place["name"]
            assert items.first.is_visible()

    local = {"localhost", "127.0.0.1"}
    assert requests and all(urlparse(u).scheme in ("data", "blob") or urlparse(u).hostname in local for u in requests)
    assert [p if isinstance(p, str) else p.text for p in problems] == []  # the favicon too is found
    page.close()


def test_the_step_is_in_the_url_and_the_focused_map_keeps_the_arrow_keys(site, page, web_runs, django_db_blocker):
    with django_db_blocker.unblock():
        trajectory_id, payload = failed_replay_with_a_diff(site, web_runs["heuristic"])
    last = len(payload["steps"])
    assert last >= 2
    open_replay(page, f"{site}/trajectories/{trajectory_id}/?step=2")
    check_position(page, payload, 1)
    page.click("[data-track=A] [data-action=next]")
    check_position(page, payload, 2 if last > 2 else last)
    assert parse_qs(urlparse(page.url).query)["step"] == ["3" if last > 2 else "answer"]
    page.keyboard.press("ArrowLeft")
    check_position(page, payload, 1)
    assert parse_qs(urlparse(page.url).query)["step"] == ["2"]
    page.focus("#replay-map")  # the map has the focus: the arrows pan it, the step stays
    page.keyboard.press("ArrowLeft")
    check_position(page, payload, 1)
    open_replay(page, f"{site}/trajectories/{trajectory_id}/?step=answer")
    check_position(page, payload, last)
    rings = sum(f["properties"]["kind"] == "stop" for f in payload["reference"]["features"])
    assert page.locator("#replay-map .lp-reference-stop").count() == rings > 0
    page.screenshot(path=SCREENSHOTS / f"replay-answer-and-reference-{size_of(page)}.png")
    assert page.errors == []


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)])
def test_baselines_apart_and_every_metric_header_leads_to_the_glossary(site, browser, web_runs, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{site}/?release=web-fixture")
    baselines = page.locator("#baselines + p + .table-scroll table")
    assert baselines.locator(".badge.baseline").count() == 2  # the reference and heuristic runs, unranked
    assert page.locator("th[aria-sort]").first.get_attribute("aria-sort") == "ascending"
    page.screenshot(path=SCREENSHOTS / f"baselines-leaderboard-{width}x{height}.png", full_page=True)
    links = page.locator("thead a.gloss")
    anchors = {links.nth(i).get_attribute("href").split("#")[1] for i in range(links.count())}
    assert anchors == {"rank", "overall", "macro", "tokens", "cost", "cell"}
    for anchor in sorted(anchors):
        page.goto(f"{site}/?release=web-fixture")
        link = page.locator(f'thead a.gloss[href="/glossary/#{anchor}"]').first
        assert link.get_attribute("title")  # the tooltip
        link.scroll_into_view_if_needed()
        link.click()
        page.wait_for_url(f"{site}/glossary/#{anchor}")
        assert page.locator(f"dt#{anchor}").is_visible()
    page.screenshot(path=SCREENSHOTS / f"glossary-from-a-header-{width}x{height}.png")
    page.close()


def test_a_side_by_side_link_opens_at_its_maps_and_the_category_filter_narrows_the_comparison(site, page, web_runs):
    """Without its #side-by-side anchor, a shared side-by-side link still opens with the map on the first screen;
    choosing a category in the comparison lists that category's cells and cases only."""
    from benchmark.web.replay.compare import runs_compare

    a, b = web_runs["reference"], web_runs["heuristic"]
    row = runs_compare(a=a, b=b)["won"][0]
    page.goto(f"{site}/compare/?a={a.id}&b={b.id}&case={row['case_id']}&trial=0")
    page.wait_for_selector("#replay-map[data-ready=true]")
    top = page.evaluate("document.getElementById('replay-map').getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"] * 0.75, top  # the map starts in the first screen
    page.click("text=the whole comparison")
    page.select_option("#comparison select[name=category]", row["category"])
    page.click("#comparison button[type=submit]")
    page.wait_for_selector("table.compare-cells")
    assert parse_qs(urlparse(page.url).query)["category"] == [row["category"]]
    cells = page.eval_on_selector_all("table.compare-cells tr[data-cell]", "(rows) => rows.map((r) => r.dataset.cell)")
    assert cells and {cell.split("/")[0] for cell in cells} == {row["category"]}
    won = page.eval_on_selector_all("#won tr[data-case]", "(rows) => rows.map((r) => r.dataset.case)")
    assert row["case_id"] in won
    page.screenshot(path=SCREENSHOTS / f"flow-compare-category-{size_of(page)}.png", full_page=True)
    assert page.errors == []


@pytest.fixture(scope="module")
def trials_board(django_db_blocker):
    """A committed release with a run of three trials per case, so its leaderboard has a pass^k to show."""
    from benchmark.cases.models import Case
    from tests.factories import release_with_cases, run_with_trials

    with django_db_blocker.unblock():
        release = release_with_cases("web-trials-board")
        run = run_with_trials(
            release, name="three trials", trials=3, passed=lambda pos, trial: pos % 3 != 0 or trial == 0
        )
        case_ids = list(release.entries.values_list("case_id", flat=True))
    yield release, run
    with django_db_blocker.unblock():
        run.delete()
        release.delete()
        Case.objects.filter(pk__in=case_ids).delete()


def test_the_leaderboard_shows_pass_hat_k_beside_the_pass_rate_and_no_table_scrolls_sideways(site, page, trials_board):
    release, run = trials_board
    page.goto(f"{site}/?release={release.name}")
    row = page.locator("tr", has=page.locator(f'a[href="/runs/{run.id}/"]'))
    pass_k = row.locator("td.overall .pass-k")
    expected = run.aggregates["table2"]["pass_hat_k"]
    assert pass_k.is_visible() and pass_k.inner_text().splitlines()[0].strip() == f"pass^3 {expected['value']:,.1f}"
    if page.viewport_size["width"] >= 1400:
        wide = page.evaluate(
            "Array.from(document.querySelectorAll('.table-scroll')).filter((b) => b.scrollWidth > b.clientWidth + 1)"
            ".length"
        )
        assert wide == 0
    page.screenshot(path=SCREENSHOTS / f"flow-leaderboard-pass-k-{size_of(page)}.png", full_page=True)
    assert page.errors == []
