"""Pages of the board: the leaderboard (home, and its downloads), a model's card, and what explains a
release beyond the leaderboard: its hardest cases (a case x run matrix) and its score against cost.

Views parse the query string, call the selectors of benchmark.board (leaderboard.py, model_cards.py) and this
package's query.py, matrix.py and cost_plot.py, and render. Bad query values get a 400 page that names the value
and what is allowed; an unknown release or model a 404.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from benchmark.board import leaderboard, model_cards
from benchmark.board.leaderboard import leaderboard_rows
from benchmark.board.visibility import HIDDEN_PER_CASE
from benchmark.cases.models import CATEGORIES, LEVELS, Release
from benchmark.web.board import cost_plot, matrix
from benchmark.web.board.downloads import leaderboard_download
from benchmark.web.board.query import BoardRequestError, board_for, search_context
from benchmark.web.files import download_format
from benchmark.web.glossary import BY_ANCHOR
from benchmark.web.pages import error_page, fmt, query
from benchmark.web.plots import MAX_SERIES, levels_svg
from benchmark.web.runs.report import LEVEL_CODES
from benchmark.web.selectors import city_summaries
from kernel.vocabulary import Category

# ------------------------------------------------------------------ leaderboard (home)


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    try:
        board = board_for(params=request.GET, user=request.user)
        download = download_format(request.GET["format"]) if request.GET.get("format") else ""
    except BoardRequestError as exc:
        return error_page(request, exc.message, status=exc.status)
    except ValueError as exc:
        return error_page(request, str(exc))
    if download:
        return leaderboard_download(board, fmt=download)
    shown = [_display_row(r) for r in board.rows]
    return render(
        request,
        "web/leaderboard.html",
        {
            "releases": board.releases,
            "release": board.release,
            "rows": shown,
            "sections": _sections(shown, release=board.release),
            "all_rows": board.all_rows,
            "cell_term": BY_ANCHOR["cell"],
            "cell_groups": _cell_groups(),
            "sort": board.query.sort,
            "verified_only": board.query.verified,
            "columns": _sort_columns(request, board.query.sort),
            "cell_heads": _cell_heads(request, board.query.sort),
            "case_count": board.case_count,
            "cities": city_summaries(),
            "category_heads": _category_heads(request, board.query),
            **search_context(board),
        },
    )


# The leaderboard's tables (leaderboard.SECTIONS): anchor, heading, what the reader must know of its rows.
_SECTION_TEXT = {
    "verified": (
        "models",
        "Verified runs",
        "Run by this platform on every case of the release: the only ranked table.",
    ),
    "self_reported": (
        "self-reported",
        "Self-reported runs (not ranked)",
        "Answers produced elsewhere and uploaded: scored here like any run, but nobody here saw them made, so "
        "they are never ranked among the verified runs. Each says who ran it and how on its run page.",
    ),
    "partial": (
        "partial",
        "Partial runs (not ranked)",
        "Runs over part of the release (e.g. a sample of each cell): their figures cover fewer cases, so they "
        "show no interval and no rank until the run is completed.",
    ),
    "baseline": (
        "baselines",
        "Baselines (not ranked)",
        "Reference points, not models under test: the reference agent replays the gold answers (an oracle), the "
        "heuristic and skeptic agents and the rank rules are no-model floors, and a scripted endpoint answers "
        "from the release's answers.",
    ),
}


_SECTION_TITLES = {key: title for key, (_, title, _) in _SECTION_TEXT.items()}


def _sections(rows: list[dict], *, release) -> list[dict]:
    """The leaderboard's tables that have rows, in order, each with its heading and note."""
    out = []
    for key in leaderboard.SECTIONS:
        chosen = [r for r in rows if r["section"] == key]
        if chosen:
            anchor, title, note = _SECTION_TEXT[key]
            caption = f"{title} on {release.name}"
            out.append({"key": key, "anchor": anchor, "title": title, "note": note, "rows": chosen, "caption": caption})
    return out


def _display_row(row: dict) -> dict:
    """A leaderboard row with its figures formatted, the cells in column order, and the rank as text."""
    rank, overall = row["rank"], row["overall"]
    return {
        **row,
        "cell_text": [fmt(row["cells"][key]) for key in leaderboard.CELL_KEYS],
        "rank_text": "–" if not rank else str(rank[0]) if rank[0] == rank[1] else f"{rank[0]}–{rank[1]}",
        "overall_text": {k: fmt(v, missing="") for k, v in overall.items()} if overall else None,
        "pass_k_text": _pass_k_text(row.get("pass_k")),
        "macro_text": fmt(row["macro"]),
        "tokens_text": fmt(row["avg_tokens"], 0),
        "cost_text": fmt(row["cost"], 4, missing="—"),
        "category_text": _category_text(row.get("category")),
    }


def _pass_k_text(pass_k: dict | None) -> dict | None:
    """pass^k beside the overall PR: {k, value, low, high} as text (low and high "" without an interval)."""
    if not pass_k:
        return None
    return {"k": pass_k["k"], **{key: fmt(pass_k[key], missing="") for key in ("value", "low", "high")}}


def _category_text(category: dict | None) -> dict | None:
    """The category view's figures as text: the category's pass rate, then its L0, L1, L2 cells."""
    if not category:
        return None
    return {"overall": fmt(category["overall"]), "cells": [fmt(v) for v in category["cells"].values()]}


# (sort key, header, what the first click sorts by, glossary entry): the template puts the first four
# before the cells.
_COLUMNS = [
    ("rank", "Rank", "rank", "rank"),
    ("name", "Run / model", "name", ""),
    ("date", "Date", "-date", ""),
    ("verified", "Verified", "-verified", ""),
    ("overall", "Overall PR (95% CI)", "-overall", "overall"),
    ("macro", "Cell mean", "-macro", "macro"),
    ("tokens", "Tokens / case", "tokens", "tokens"),
    ("cost", "Cost (USD)", "cost", "cost"),
]


def _sort_link(request: HttpRequest, current: str, column: str, first: str) -> dict:
    """A header link: the first click sorts the column its natural way, the next click reverses it."""
    active = current.lstrip("-") == column
    target = ("" if current.startswith("-") else "-") + column if active else first
    arrow = ("▼" if current.startswith("-") else "▲") if active else ""
    aria_sort = ("descending" if current.startswith("-") else "ascending") if active else ""
    return {"url": query(request.GET, sort=target, page=None), "active": active, "arrow": arrow, "aria_sort": aria_sort}


def _sort_columns(request: HttpRequest, current: str) -> list[dict]:
    return [
        {
            "key": key,
            "label": label,
            "term": BY_ANCHOR[anchor] if anchor else None,
            **_sort_link(request, current, key, first),
        }
        for key, label, first, anchor in _COLUMNS
    ]


def _cell_groups() -> list[tuple[str, int]]:
    """The category headers over the cells: (label, number of levels)."""
    spans: dict[str, int] = {}
    for key in leaderboard.CELL_KEYS:
        category = key.split("/")[0]
        spans[category] = spans.get(category, 0) + 1
    return [(Category(category).label, span) for category, span in spans.items()]


def _cell_heads(request: HttpRequest, current: str) -> list[dict]:
    return [
        {
            "key": key,
            "label": f"{Category(key.split('/')[0]).short} {key.split('/')[1]}",
            "term": BY_ANCHOR["cell"],
            **_sort_link(request, current, key, "-" + key),
        }
        for key in leaderboard.CELL_KEYS
    ]


def _category_heads(request: HttpRequest, query) -> list[dict]:
    """The category view's level headers, L0 to L2; a level the category lacks (Trip Design's L0) has no link."""
    if not query.category:
        return []
    heads = {c["key"]: c for c in _cell_heads(request, query.sort)}
    return [{**heads.get(f"{query.category}/{level}", {"url": ""}), "label": level} for level, _ in LEVELS]


# ------------------------------------------------------------------ model card


def model_page(request: HttpRequest, model: str) -> HttpResponse:
    """A model's card: its declared metadata and its listed runs across releases (benchmark/board/model_cards.py)."""
    card = model_cards.model_card(model=model, user=request.user)
    if card is None:
        return error_page(request, f"no listed run of a model {model[:200]!r} that you can see", status=404)
    for entry in card["runs"]:
        entry["row_text"] = _display_row(entry["row"]) if entry["row"] else None
        entry["table"] = _SECTION_TITLES[entry["row"]["section"]] if entry["row"] else ""
    return render(request, "web/model.html", card)


# ------------------------------------------------------------------ release pages


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
        "page_query": query(request.GET, page=None),
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
