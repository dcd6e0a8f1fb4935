"""The about page: what the benchmark measures, the paper and its citation, the code and data licences, accounts
and how to connect an agent; the leaderboard and the sign-in page lead to it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from benchmark.web.about import PAPER_BIBTEX, PAPER_URL, platform_bibtex

pytestmark = pytest.mark.django_db


def test_the_about_page_links_the_paper_and_gives_both_bibtex_entries(client):
    page = client.get("/about/").content.decode()
    assert f'href="{PAPER_URL}"' in page and "arXiv 2608.25039" in page
    assert "@article{dong2026lifeplanner," in page and "@software{lifeplanner_platform," in page
    assert "Dong, Zhen and Peng, Yuning and Shi, Yutao and Zhong, Lei and Mao, Yongsen and Liu, Yuan" in page
    assert "and Wang, Haiping}," in page
    for anchor in ("paper", "cite", "code", "accounts", "connect"):
        assert f'id="{anchor}"' in page and f'href="#{anchor}"' in page


def test_bibtex_entries_are_balanced_and_the_platforms_names_the_code_when_published():
    for entry in (PAPER_BIBTEX, platform_bibtex(code_url=""), platform_bibtex(code_url="https://git.example.org/lp")):
        assert entry.count("{") == entry.count("}") and entry.rstrip().endswith("}")
    assert "url    = {https://git.example.org/lp}" in platform_bibtex(code_url="https://git.example.org/lp")
    assert "url" not in platform_bibtex(code_url="")


def test_licences_accounts_and_connecting_follow_the_operators_settings(client, settings):
    page = client.get("/about/").content.decode()
    assert "Apache License 2.0" in page and "Open Database License (ODbL 1.0)" in page
    assert "has not published the address of its copy of the code" in page
    assert "python manage.py createsuperuser" in page  # no contact set: what to do on one's own copy
    assert "http://127.0.0.1:8766/mcp" in page and "python manage.py serve_run_mcp" in page
    settings.SOURCE_CODE_URL = "https://git.example.org/lifeplanner"
    settings.ACCOUNT_CONTACT = "mailto:bench@example.org"
    settings.RUN_MCP_URL = "https://bench.example.org/mcp"
    page = client.get("/about/").content.decode()
    assert 'href="https://git.example.org/lifeplanner"' in page and 'href="mailto:bench@example.org"' in page
    assert "https://bench.example.org/mcp" in page and "on a copy of your own, after" not in page
    assert "Authorization: Bearer &lt;run token&gt;" in page and "next_case" in page and "submit_answer" in page


def test_the_python_example_on_the_page_is_valid_python(client):
    import ast
    import html
    import re

    page = client.get("/about/").content.decode()
    [code] = re.findall(r'<pre class="code">(.*?)</pre>', page, flags=re.S)
    ast.parse(html.unescape(code))


@pytest.mark.parametrize(
    ("name", "value"),
    [("SOURCE_CODE_URL", "javascript:alert(1)"), ("ACCOUNT_CONTACT", "ftp://x"), ("RUN_MCP_URL", "https://a b")],
)
def test_a_setting_that_is_not_a_web_or_mail_address_stops_the_site(monkeypatch, name, value):
    import importlib

    import lifeplanner_site.settings as site_settings

    monkeypatch.setenv(name, value)
    with pytest.raises(ImproperlyConfigured, match=f"{name} must start with https://"):
        importlib.reload(site_settings)
    monkeypatch.delenv(name)
    importlib.reload(site_settings)


def test_the_leaderboard_the_sign_in_page_and_every_page_lead_to_it(client):
    home = client.get("/").content.decode()
    assert 'href="/about/"' in home and 'href="https://arxiv.org/abs/2608.25039"' in home
    login = client.get("/accounts/login/").content.decode()
    assert 'href="/about/#accounts">How to get an account</a>' in login
    assert '<a href="/about/">About</a>' in client.get("/glossary/").content.decode()  # the header of every page
