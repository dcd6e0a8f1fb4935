"""The OpenStreetMap attribution the ODbL asks for, on every page of the site."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/cases/", "/accounts/login/"])
def test_every_page_credits_openstreetmap_under_the_odbl(client, url):
    html = client.get(url).content.decode()
    assert "OpenStreetMap contributors" in html and "https://www.openstreetmap.org/copyright" in html
    assert "Open Database License (ODbL)" in html
