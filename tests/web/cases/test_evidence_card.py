"""The evidence card of an L2 case: the rule, the notes that settle the gold, and each rival note with the
reason it does not count, computed from the verifier's own look-alikes; on the page, in Chromium."""

from __future__ import annotations

import pytest

from benchmark.cases.audit.verify import verify_case
from benchmark.cases.evidence_card import evidence_card
from benchmark.cases.models import Case
from benchmark.cases.services.cases import case_document
from tests.web.browser import needs_chromium


@pytest.fixture(scope="module")
def carded(web_release, django_db_blocker):
    """An L2 case of the web fixture release with its verification (and so its look-alikes) stored."""
    with django_db_blocker.unblock():
        entry = (
            web_release.entries.filter(case__level="L2", case__category="nearby_discovery")
            .select_related("case")
            .order_by("position")
            .first()
        )
        case = entry.case
        before = case.verification
        result = verify_case(case_document(case), replay=False)
        assert result.ok, result.failures
        Case.objects.filter(pk=case.pk).update(verification=result.to_dict())
        case.refresh_from_db()
    yield case
    with django_db_blocker.unblock():
        Case.objects.filter(pk=case.pk).update(verification=before)


def _card(case) -> dict:
    return evidence_card(
        level=case.level, city_name=case.city_name, uniqueness=case.uniqueness, verification=case.verification
    )


def test_every_generated_l2_case_is_verified_with_the_lookalikes_its_card_shows(generated_cases, django_db_blocker):
    l2 = [d for d in generated_cases[0] if d.level == "L2"]
    assert len({d.category for d in l2}) == 4  # every L2 cell
    with django_db_blocker.unblock():
        for document in l2:
            result = verify_case(document, replay=False)
            assert result.ok and result.evidence, document.case_id
            card = evidence_card(
                level="L2", city_name=document.city_name, uniqueness=document.uniqueness, verification=result.to_dict()
            )
            gold = card["golds"][0]
            assert gold["lookalikes"] >= 3 and gold["decoys"] >= 2 and len(gold["rivals"]) >= 2
            assert sum(i["counts"] for i in gold["gold_items"]) >= 2  # the rule's two supports
            for rival in gold["rivals"]:
                assert rival["items"] and not any(i["counts"] and i["holds"] for i in rival["items"])
                assert all(i["why"].startswith("does not count") for i in rival["items"] if not i["counts"])


@pytest.mark.django_db
def test_the_card_is_only_for_l2_cases_with_a_stored_verification(carded):
    card = _card(carded)
    assert card["rule"].startswith("A fact holds at a place")
    assert evidence_card(level="L1", city_name="helsinki", uniqueness={}, verification=carded.verification) is None
    assert evidence_card(level="L2", city_name="helsinki", uniqueness={}, verification={"ok": True}) is None


@needs_chromium
@pytest.mark.django_db
def test_a_curator_reads_a_rivals_note_and_why_it_does_not_count_on_the_case_page(site, browser, carded, web_release):
    card = _card(carded)
    rival = card["golds"][0]["rivals"][0]
    item = next(i for i in rival["items"] if not i["counts"])
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route("**/tile.openstreetmap.org/**", lambda route: route.abort())
    page.goto(f"{site}/cases/{web_release.name}/{carded.case_id}/")
    section = page.locator("#evidence-card")
    assert section.is_visible()
    assert "A fact holds at a place" in section.inner_text()
    first = section.locator("details.rival").first
    assert rival["name"] in first.locator("summary").inner_text()
    row = first.locator("li.not-counted", has_text=item["text"][:60]).first
    assert row.is_visible()  # the first rival is open
    assert item["why"] in row.inner_text()
    gold_rows = section.locator("ul.gold-items li.counts")
    assert gold_rows.count() >= 2
    page.close()
    assert errors == []
