"""axe-core, injected into the pages in Debian's Chromium: no serious or critical violation on any page.

Every page a visitor reads (leaderboard, run, replay of a failed case, compare and its side-by-side
replay, cases, case, glossary, about, a model card, the site's 404 page, sign-in, submit) is checked at
1400x900 and at 390x844, in the light and the dark colour scheme (``prefers-color-scheme``; contrast is
checked in both); the dark pages' screenshots go to test-artifacts/screenshots/<page>-<size>-dark.png. axe-core is
vendored under tests/web/vendor/ (version and checksum in its README): no network is needed.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.web.browser import SCREENSHOTS, needs_chromium
from tests.web.test_browser import failed_replay_with_a_diff

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
AXE_SHA256 = "29348999450cdf2849a8e70b7912fc2da85a849da39c0d0d5394f51d4a9ed95c"  # axe-core 4.14.1
BLOCKING = {"serious", "critical"}
SIZES = [(1400, 900), (390, 844)]
SCHEMES = ["light", "dark"]

pytestmark = [
    needs_chromium,
    pytest.mark.django_db,
]


@pytest.fixture(scope="module")
def axe_source() -> str:
    source = AXE.read_bytes()
    assert hashlib.sha256(source).hexdigest() == AXE_SHA256, f"{AXE} is not the vendored axe-core 4.14.1"
    return source.decode()


@pytest.fixture(scope="module")
def signed_in_state(site, browser, django_db_blocker):
    """A committed member's session (storage state) for the pages behind sign-in."""
    from django.contrib.auth.models import User

    with django_db_blocker.unblock():  # the server thread writes the session and last_login
        User.objects.filter(username="axe-member").delete()
        user = User.objects.create_user("axe-member", password="axe-pw")
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{site}/accounts/login/?next=/submit/")
        page.fill("input[name=username]", "axe-member")
        page.fill("input[name=password]", "axe-pw")
        page.click("main form button[type=submit]")
        page.wait_for_url(f"{site}/submit/")
        state = context.storage_state()
        context.close()
    yield state
    with django_db_blocker.unblock():
        user.delete()


@pytest.fixture(scope="module")
def pages(site, web_runs, web_model_run, django_db_blocker) -> dict[str, str]:
    """Page name -> URL, one of every kind of page."""
    from benchmark.runs.models import Step

    reference, heuristic = web_runs["reference"], web_runs["heuristic"]
    with django_db_blocker.unblock():
        failed_id, _ = failed_replay_with_a_diff(site, heuristic)
        entry = heuristic.trajectories.get(id=failed_id).entry
        case_id = entry.case.case_id
        step = Step.objects.filter(trajectory__run=reference, tool="note_detail").order_by("id").first()
        note_id = step.arguments["note_id"]
    return {
        "leaderboard": f"{site}/?release=web-fixture",
        "run": f"{site}/runs/{heuristic.id}/",
        "replay": f"{site}/trajectories/{failed_id}/",
        "compare": f"{site}/compare/?a={reference.id}&b={heuristic.id}",
        "compare-side-by-side": f"{site}/compare/?a={reference.id}&b={heuristic.id}&case={case_id}&trial=0",
        "cases": f"{site}/cases/?release=web-fixture",
        "case": f"{site}/cases/web-fixture/{case_id}/",
        "replay-search": f"{site}/trajectories/{failed_id}/?q=search",
        "matrix": f"{site}/releases/web-fixture/matrix/?baselines=1",
        "cost": f"{site}/releases/web-fixture/cost/",
        "note": f"{site}/notes/{note_id}/",
        "glossary": f"{site}/glossary/",
        "about": f"{site}/about/",
        "model": f"{site}/models/{web_model_run.endpoint.model}/",
        "not-found": f"{site}/runs/99999999/",
        "login": f"{site}/accounts/login/",
        "submit": f"{site}/submit/",
    }


def violations(page, axe_source: str) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now."""
    # Run through the DevTools protocol, which the page's Content-Security-Policy does not govern (an inline
    # <script> tag, add_script_tag, would be refused, as any inline script of the site would be).
    page.evaluate(f"() => {{ {axe_source}\n; window.axe = axe; }}")
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations.map(v => ({"
        "id: v.id, impact: v.impact, help: v.help,"
        "nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(0, 2).join(' '))"
        "}))"
    )
    return [v for v in found if v["impact"] in BLOCKING]


def readable(found: list[dict]) -> str:
    return "\n".join(f"{v['impact']} {v['id']} ({v['help']}): " + " | ".join(v["nodes"][:4]) for v in found)


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_serious_or_critical_accessibility_violation_on_any_page(
    browser,
    pages,
    signed_in_state,
    axe_source,
    width,
    height,
    scheme,
):
    context = browser.new_context(
        viewport={"width": width, "height": height}, color_scheme=scheme, storage_state=signed_in_state
    )
    page = context.new_page()
    report = {}
    for name, url in pages.items():
        response = page.goto(url)
        expected = 404 if name == "not-found" else 200
        assert response.status == expected, f"{name}: {url} answered {response.status}"
        if page.locator("#replay-map").count():
            page.wait_for_selector("#replay-map[data-ready=true]")
        if page.locator("[data-streets]").count():
            page.wait_for_selector("[data-streets=loaded]")
        if scheme == "dark":
            page.screenshot(path=SCREENSHOTS / f"{name}-{width}x{height}-dark.png", full_page=True)
        found = violations(page, axe_source)
        if found:
            report[name] = readable(found)
    context.close()
    assert report == {}, "\n\n".join(f"{name} at {width}x{height}, {scheme}:\n{text}" for name, text in report.items())
