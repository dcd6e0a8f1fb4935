"""Every metric explained (issue 15, point 3): the glossary page, and a tooltip and a glossary link on
every metric header of the leaderboard and the run page; sortable headers say how they sort (aria-sort)."""

import re

import pytest

from benchmark.web.glossary import TERMS
from tests.factories import failing_scores, passing_scores, release_with_cases, run_with_results

pytestmark = pytest.mark.django_db
# A "?" link beside a sortable header, or the header's label itself as the link.
GLOSSARY_LINK = re.compile(r'<a class="gloss(?:-term)?" href="/glossary/#([\w-]+)" title="([^"]+)"')


@pytest.fixture
def run():
    release = release_with_cases("gloss-v1")
    return run_with_results(release, name="half", results=[(True, passing_scores()), (False, failing_scores())])


def _anchors(html: str) -> set[str]:
    return set(re.findall(r'<dt id="([\w-]+)">', html))


def test_the_glossary_defines_every_metric_and_links_the_full_definitions(client):
    html = client.get("/glossary/").content.decode()
    for name in ("PR@0.9", "IG", "TE", "RP", "A (Attribute", "PIoU", "RD_distance and RD_time", "OC", "SC"):
        assert name in html
    for name in ("pass^k", "Cell mean", "Tokens / case", "Range", "Measures"):
        assert name in html
    assert _anchors(html) == {term.anchor for term in TERMS}
    assert 'href="/glossary/metrics.md"' in html
    doc = client.get("/glossary/metrics.md")
    assert doc["Content-Type"].startswith("text/plain") and doc.content.decode().startswith("# Metrics")


def _header_cells(html: str, table: str = "board leaderboard") -> list[str]:
    """The header cells of the tables of class ``table``."""
    heads = re.findall(rf'<table class="{table}">.*?<thead>(.*?)</thead>', html, re.S)
    return [th for thead in heads for th in re.findall(r"<th\b.*?</th>", thead, re.S)]


def test_every_metric_header_of_the_leaderboard_has_a_tooltip_and_a_glossary_link(client, run):
    html = client.get("/").content.decode()
    glossary = _anchors(client.get("/glossary/").content.decode())
    headers = _header_cells(html)
    plain = [th for th in headers if "gloss" not in th]
    assert all(re.search(r">(Run / model|Date|Verified) ", th) or 'scope="col" class="num"' in th for th in plain)
    cells = [th for th in plain if 'class="num"' in th]
    assert len(cells) == 11 and all('title="Cell (category × level)' in th for th in cells)  # each cell's tooltip
    links = dict(GLOSSARY_LINK.findall(html))
    assert set(links) == {"rank", "overall", "macro", "tokens", "cost", "cell"} and set(links) <= glossary
    assert all(tip.startswith(("Rank", "Overall", "Cell", "Tokens", "Cost")) for tip in links.values())


def test_every_metric_header_of_the_run_page_links_the_glossary(client, run):
    html = client.get(f"/runs/{run.id}/").content.decode()
    glossary = _anchors(client.get("/glossary/").content.decode())
    links = set(GLOSSARY_LINK.findall(html))
    anchors = {anchor for anchor, _ in links}
    assert {"pr", "IG", "TE", "RP", "A", "PIoU", "RD", "OC", "SC", "tokens", "cell"} <= anchors <= glossary
    assert 'href="/glossary/#macro"' in html  # the headline's cell mean


@pytest.mark.parametrize(
    ("sort", "label", "order"), [("", "Rank", "ascending"), ("-overall", "Overall PR", "descending")]
)
def test_the_sorted_column_says_so_with_aria_sort(client, run, sort, label, order):
    html = client.get(f"/?sort={sort}" if sort else "/").content.decode()
    sorted_headers = [th for th in _header_cells(html) if "aria-sort" in th]
    assert len(sorted_headers) == 1
    assert f'aria-sort="{order}"' in sorted_headers[0] and f">{label}" in sorted_headers[0]


def test_the_category_view_matrix_and_cost_pages_link_their_metric_headers(client, run):
    glossary = _anchors(client.get("/glossary/").content.decode())
    pages = {
        "/?release=gloss-v1&category=routing": {"rank", "overall", "pr", "cell"},
        "/releases/gloss-v1/matrix/": {"pr", "pass-k"},
        "/releases/gloss-v1/cost/?x=tokens": {"overall", "tokens"},
    }
    for url, expected in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        anchors = {anchor for anchor, _ in GLOSSARY_LINK.findall(response.content.decode())}
        assert expected <= anchors <= glossary, (url, anchors)
    category = client.get("/?release=gloss-v1&category=routing").content.decode()
    heads = re.findall(r"<th\b.*?</th>", category.split("<thead>", 1)[1].split("</thead>", 1)[0], re.S)
    for th in heads:  # every score column: its sort link or plain label, and the "?" beside it
        if 'class="num"' in th:
            assert "gloss" in th, th
