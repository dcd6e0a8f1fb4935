"""The about page (/about/): what the benchmark measures, the paper and how to cite it, the code and the data
licences, how to get an account and how to connect an agent (an endpoint, or one's own agent over MCP).

Three settings say what only the site's operator knows: ``SOURCE_CODE_URL`` (where the code is published),
``ACCOUNT_CONTACT`` (a mailto: or https: address to ask for an account) and ``RUN_MCP_URL`` (where this
site's run-mode MCP server answers). Left empty, the page says what a researcher can do on a copy of their own.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

PAPER_URL = "https://arxiv.org/abs/2608.25039"
PAPER_TITLE = "LifePlanner: Evaluating LLM Agents for Geo-spatial Planning with Social Media Data"
PAPER_BIBTEX = """@article{dong2026lifeplanner,
  title   = {LifePlanner: Evaluating {LLM} Agents for Geo-spatial Planning with Social Media Data},
  author  = {Dong, Zhen and Peng, Yuning and Shi, Yutao and Zhong, Lei and Mao, Yongsen and Liu, Yuan
             and Wang, Haiping},
  journal = {arXiv preprint arXiv:2608.25039},
  year    = {2026},
  url     = {https://arxiv.org/abs/2608.25039}
}"""
LOCAL_RUN_MCP_URL = "http://127.0.0.1:8766/mcp"


def platform_bibtex(*, code_url: str) -> str:
    """The platform's own entry: the software that computed the numbers one cites."""
    lines = [
        "@software{lifeplanner_platform,",
        "  title  = {{LifePlanner}: an open evaluation platform for the {LifePlanner} geo-spatial planning benchmark},",
        "  note   = {Implements arXiv:2608.25039: the city, the tools over MCP, the cases, the scoring,",
        "            the leaderboard},",
        "  year   = {2026},",
        "  license = {Apache-2.0}",
    ]
    if code_url:
        lines[-1] += ","
        lines.append(f"  url    = {{{code_url}}}")
    return "\n".join([*lines, "}"])


def about_page(request: HttpRequest) -> HttpResponse:
    code_url = settings.SOURCE_CODE_URL
    return render(
        request,
        "web/about.html",
        {
            "paper_url": PAPER_URL,
            "paper_title": PAPER_TITLE,
            "paper_bibtex": PAPER_BIBTEX,
            "platform_bibtex": platform_bibtex(code_url=code_url),
            "code_url": code_url,
            "account_contact": settings.ACCOUNT_CONTACT,
            "run_mcp_url": settings.RUN_MCP_URL or LOCAL_RUN_MCP_URL,
            "run_mcp_hosted": bool(settings.RUN_MCP_URL),
        },
    )
