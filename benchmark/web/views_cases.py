"""The case browser: a release's cases (``/cases/``), a case page, and a case's newest release.

Views parse the query string, call case_browser.py and render; a bad filter gets a 400 page naming it, an
unknown release or case a 404.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from benchmark.board.visibility import HIDDEN_PER_CASE, per_case_visible
from benchmark.cases.models import CATEGORIES, LEVELS, Release, ReleaseCase

from . import case_browser
from .views_board import _query, error_page, trajectory_url


def cases_page(request: HttpRequest) -> HttpResponse:
    releases = case_browser.browsable_releases()
    release = next((r for r in releases if r.split == Release.PUBLIC), releases[0] if releases else None)
    try:
        if request.GET.get("release"):
            release = case_browser.release_by_name(releases, request.GET["release"])
    except LookupError as exc:
        return error_page(request, str(exc), status=404)
    try:
        filters = case_browser.CaseFilters.parse(
            category=request.GET.get("category", ""), level=request.GET.get("level", ""), q=request.GET.get("q", "")
        )
    except ValueError as exc:
        return error_page(request, str(exc))
    cases: QuerySet | list = case_browser.release_cases(release=release, filters=filters) if release else []
    page = Paginator(cases, case_browser.PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "web/cases.html",
        {
            "releases": releases,
            "release": release,
            "filters": filters,
            "page": page,
            "category_choices": CATEGORIES,
            "level_choices": [lv for lv, _ in LEVELS],
            "page_query": _query(request, page=None),
        },
    )


def case_page(request: HttpRequest, release_name: str, case_id: str) -> HttpResponse:
    try:
        entry = case_browser.release_entry(release_name=release_name, case_id=case_id)
    except ReleaseCase.DoesNotExist:
        return error_page(request, f"release {release_name!r} has no case {case_id!r}", status=404)
    view = case_browser.case_view(entry=entry, user=request.user)
    results = case_browser.case_results(entry=entry, user=request.user)
    for result in results:
        result["replay_url"] = trajectory_url(result["id"])
    return render(
        request,
        "web/case.html",
        {
            "release": entry.release,
            "case": view,
            "results": results,
            "hidden_per_case": ""
            if per_case_visible(user=request.user, release=entry.release)
            else HIDDEN_PER_CASE.format(release=entry.release.name),
            "case_map": case_browser.case_map(entry=entry) if view["answers_visible"] else None,
        },
    )


def case_latest(request: HttpRequest, case_id: str) -> HttpResponse:
    """A case in the newest release that holds it."""
    try:
        release = case_browser.newest_release_of(case_id=case_id)
    except Release.DoesNotExist as exc:
        return error_page(request, str(exc), status=404)
    return redirect("case", release_name=release.name, case_id=case_id)
