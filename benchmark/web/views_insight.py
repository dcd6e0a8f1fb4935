"""Pages that explain a release beyond the leaderboard: its hardest cases (case x run matrix), score
against cost, and the evidence-note reader. Views parse the query string, call one read, render; a
bad value gets the board's 400 page naming it, an unknown release or note a 404."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from benchmark.board.leaderboard import leaderboard_rows
from benchmark.board.visibility import HIDDEN_PER_CASE
from benchmark.cases.models import CATEGORIES, LEVELS, Release

from . import cost_plot, matrix, note_reader
from .plots import MAX_SERIES, levels_svg
from .run_report import LEVEL_CODES
from .views_board import _query, error_page


def _release(name: str) -> Release | None:
    return Release.objects.filter(name=name).first()


@require_GET
def release_matrix(request: HttpRequest, release_name: str) -> HttpResponse:
    release = _release(release_name)
    if release is None:
        return error_page(request, f"no release named {release_name!r}", status=404)
    try:
        filters = matrix.MatrixFilters.parse(
            category=request.GET.get("category", ""),
            level=request.GET.get("level", ""),
            baselines=request.GET.get("baselines", ""),
            page=request.GET.get("page", ""),
        )
    except ValueError as exc:
        return error_page(request, str(exc))
    data = matrix.release_matrix(release=release, user=request.user, filters=filters)
    context = {
        "release": release,
        "filters": filters,
        "runs": data["runs"],
        "page": Paginator(data["cases"], matrix.PAGE_SIZE).get_page(filters.page),
        "totals": data["totals"],
        "per_case_visible": data["per_case_visible"],
        "hidden_per_case": HIDDEN_PER_CASE.format(release=release.name),
        "category_choices": CATEGORIES,
        "level_choices": [lv for lv, _ in LEVELS],
        "page_query": _query(request, page=None),
    }
    return render(request, "web/matrix.html", context)


@require_GET
def release_cost(request: HttpRequest, release_name: str) -> HttpResponse:
    release = _release(release_name)
    if release is None:
        return error_page(request, f"no release named {release_name!r}", status=404)
    rows = leaderboard_rows(release=release, user=request.user)
    axis = request.GET.get("x") or cost_plot.default_axis(rows)
    try:
        points, left_out, log = cost_plot.cost_points(rows, axis=axis)
    except ValueError as exc:
        return error_page(request, str(exc))
    context = {
        "release": release,
        "axis": axis,
        "axes": cost_plot.AXES,
        "axis_label": cost_plot.AXES[axis][1],
        "points": points,
        "left_out": left_out,
        "log": log,
        "svg": cost_plot.cost_svg(points, axis=axis, log=log) if points else "",
        **_level_figure(rows),
    }
    return render(request, "web/cost.html", context)


def _level_figure(rows: list[dict]) -> dict:
    """The pass rate per level of the first MAX_SERIES leaderboard rows with a result (in the leaderboard's
    order: verified runs best first, then self-reported, partial, baselines), as grouped bars."""
    scored = [row for row in rows if any(value is not None for value in row["levels"].values())]
    shown = scored[:MAX_SERIES]
    svg = levels_svg([(row["name"], row["levels"]) for row in shown], levels=LEVEL_CODES) if shown else ""
    return {"level_rows": shown, "level_svg": svg, "level_more": len(scored) - len(shown), "levels": LEVEL_CODES}


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
