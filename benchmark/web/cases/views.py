"""The case browser: a release's cases (``/cases/``), a case page, a case's newest release, and the reader of
one evidence note (``/notes/<id>/``), where a case's evidence and a replay's retrieved notes link.

Views parse the query string, call browser.py and render; a bad filter gets a 400 page naming it, an
unknown release or case a 404.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from benchmark.board.visibility import HIDDEN_PER_CASE, per_case_visible
from benchmark.cases.models import CATEGORIES, LEVELS, Release, ReleaseCase
from benchmark.web.cases import browser, note_reader
from benchmark.web.pages import error_page, query, trajectory_url


def cases_page(request: HttpRequest) -> HttpResponse:
    releases = browser.browsable_releases()
    release = next((r for r in releases if r.split == Release.PUBLIC), releases[0] if releases else None)
    try:
        if request.GET.get("release"):
            release = browser.release_by_name(releases, request.GET["release"])
    except LookupError as exc:
        return error_page(request, str(exc), status=404)
    try:
        filters = browser.CaseFilters.parse(
            category=request.GET.get("category", ""), level=request.GET.get("level", ""), q=request.GET.get("q", "")
        )
    except ValueError as exc:
        return error_page(request, str(exc))
    cases: QuerySet | list = browser.release_cases(release=release, filters=filters) if release else []
    page = Paginator(cases, browser.PAGE_SIZE).get_page(request.GET.get("page"))
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
            "page_query": query(request.GET, page=None),
        },
    )


def case_page(request: HttpRequest, release_name: str, case_id: str) -> HttpResponse:
    try:
        entry = browser.release_entry(release_name=release_name, case_id=case_id)
    except ReleaseCase.DoesNotExist:
        return error_page(request, f"release {release_name!r} has no case {case_id!r}", status=404)
    view = browser.case_view(entry=entry, user=request.user)
    results = browser.case_results(entry=entry, user=request.user)
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
            "case_map": browser.case_map(entry=entry) if view["answers_visible"] else None,
        },
    )


def case_latest(request: HttpRequest, case_id: str) -> HttpResponse:
    """A case in the newest release that holds it."""
    try:
        release = browser.newest_release_of(case_id=case_id)
    except Release.DoesNotExist as exc:
        return error_page(request, str(exc), status=404)
    return redirect("case", release_name=release.name, case_id=case_id)


@require_GET
def note_page(request: HttpRequest, note_id: str) -> HttpResponse:
    try:
        city = note_reader.note_params_check(note_id=note_id, city=request.GET.get("city", ""))
    except ValueError as exc:
        return error_page(request, str(exc))
    try:
        note = note_reader.note_read(note_id=note_id, city=city)
    except note_reader.NoteNotFound:  # the tool's message may carry an operator's hint: not for visitors
        return error_page(request, f"no note {note_id[:80]!r} in city {city!r}", status=404)
    return render(request, "web/note.html", {"note": note, "city": city})
