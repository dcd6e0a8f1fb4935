"""Pages of the board: the leaderboard (home) and a run's report (the case browser: views_cases.py).

Views parse the query string, call the selectors of benchmark.runs (leaderboard.py, and results.py
for a run's tables), run_report.py and case_browser.py, and render. Bad query values get a 400 page
that names the value and what is allowed; unknown or invisible objects a 404.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import urlencode

from benchmark.agents.config import RUN_FILTERS, RunConfig
from benchmark.board import leaderboard, model_cards
from benchmark.board.moderation import run_manageable
from benchmark.board.visibility import (
    HIDDEN_PER_CASE,
    can_see_answers,
    endpoint_details_visible,
    per_case_visible,
    run_visible,
    runs_visible,
)
from benchmark.cases.models import CATEGORIES, LEVELS
from benchmark.runs.listing import run_listing_problems
from benchmark.runs.models import EvaluationRun
from benchmark.runs.results import RunResults, run_results
from benchmark.web.selectors import city_summaries
from kernel.vocabulary import Category

from . import run_pass_k, run_report
from .board_query import BoardRequestError, board_for, search_context
from .downloads import download_format, leaderboard_download
from .failures import REASONS
from .glossary import BY_ANCHOR, term_for
from .plots import (
    EXCEEDANCE_AT,
    exceedance_svg,
    exceedance_table,
    failures_svg,
    levels_svg,
    token_histogram,
    tokens_svg,
)
from .process_caveat import NOTE_TOOLS, notes_caveat, trivially_high

FAILED_PAGE_SIZE = 50
PROGRESS_TEMPLATE = "web/_progress.html"
CONFIG_SHOWN = (*RunConfig.model_fields, *RUN_FILTERS)  # the run page's settings, then its filters


def error_page(request: HttpRequest, message: str, *, status: int = 400) -> HttpResponse:
    return render(request, "web/board_error.html", {"message": message, "status": status}, status=status)


def trajectory_url(trajectory_id: int) -> str:
    """The replay page of a trajectory."""
    return reverse("trajectory", args=[trajectory_id])


def _query(request: HttpRequest, **changes) -> str:
    """The current query string with ``changes`` applied (None removes a key)."""
    params: dict[str, Any] = {k: v for k, v in request.GET.items()}
    params.update(changes)
    return "?" + urlencode({k: v for k, v in params.items() if v not in (None, "")})


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


def fmt(value: float | None, digits: int = 1, missing: str = "–") -> str:
    """A number as the tables show it (formatted here: the template filter costs 30 µs a cell)."""
    return missing if value is None else f"{value:,.{digits}f}"


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
    return {"url": _query(request, sort=target, page=None), "active": active, "arrow": arrow, "aria_sort": aria_sort}


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


# ------------------------------------------------------------------ run page


def run_page(request: HttpRequest, run_id: int) -> HttpResponse:
    run = get_object_or_404(EvaluationRun.objects.select_related("release", "endpoint", "created_by"), id=run_id)
    if not run_visible(user=request.user, run=run):
        raise Http404("no such run")
    try:
        filters = run_report.FailureFilters.parse(
            category=request.GET.get("category", ""),
            level=request.GET.get("level", ""),
            reason=request.GET.get("reason", ""),
        )
        curves = _curve_level(request.GET.get("curves"))
    except ValueError as exc:
        return error_page(request, str(exc))
    cases = run_report.run_cases(run=run)
    results = run_results(run=run)
    figures = _figures(run, cases, curves)
    calls = sum(row["calls"] for row in figures["tools"]["rows"])
    note_calls = sum(row["calls"] for row in figures["tools"]["rows"] if row["tool"] in NOTE_TOOLS)
    caveat = notes_caveat(calls=calls, note_calls=note_calls)
    table3 = _table3_text(run_report.table3_rows(results), caveat=caveat)
    per_case = per_case_visible(user=request.user, release=run.release)
    failed = run_report.failed_cases(cases, filters=filters) if per_case else []
    page = Paginator(failed, FAILED_PAGE_SIZE).get_page(request.GET.get("page"))
    for case in page.object_list:
        case["replay_url"] = trajectory_url(case["id"])
    return render(
        request,
        "web/run.html",
        {
            "run": run,
            "filters": filters,
            "cases_total": len(cases),
            "page": page,
            "failed_total": len(failed),
            "statuses": run_report.status_counts(cases),
            "table2": results.table2,
            "table3": table3,
            "process_caveat": caveat if any(row["trivial"] for row in table3) else "",
            "cells": run_report.cell_table(results),
            "categories_breakdown": _breakdown_text(run_report.category_breakdown(results)),
            "reasons": run_report.reason_counts(cases, filters=filters),
            "reason_rules": REASONS,
            "category_choices": CATEGORIES,
            "level_choices": [lv for lv, _ in LEVELS],
            "metric_names": run_report.TABLE3_METRICS,
            "metric_heads": [{"label": name, "term": term_for(name)} for name in run_report.TABLE3_METRICS],
            "terms": {anchor.replace("-", "_"): term for anchor, term in BY_ANCHOR.items()},
            "can_manage": run_manageable(user=request.user, run=run),
            "listing_problems": run_listing_problems(run) if run.purpose == EvaluationRun.EVALUATION else [],
            "overall": _overall(results),
            "config": _config(run),
            "endpoint_details": endpoint_details_visible(user=request.user, endpoint=run.endpoint),
            "progress_template": _progress_template(run),
            "compare_with": _compare_choices(request, run),
            "page_query": _query(request, page=None),
            "answers_visible": can_see_answers(user=request.user, release=run.release),
            "per_case_visible": per_case,
            "hidden_per_case": HIDDEN_PER_CASE.format(release=run.release.name),
            "failures_query": urlencode({k: v for k, v in vars(filters).items() if v}),
            "pass_k": run_pass_k.pass_k_rows(cases),
            "level_bars": _level_bars(run, results),
            **figures,
        },
    )


def _level_bars(run: EvaluationRun, results: RunResults) -> str:
    """PR@0.9 per level as bars beside table 3 ("" before any case is scored)."""
    values = {level: (results.table3.get(level) or {}).get("PR") for level in run_report.LEVEL_CODES}
    if all(value is None for value in values.values()):
        return ""
    return levels_svg([(run.name, values)], levels=run_report.LEVEL_CODES)


def _table3_text(rows: list[dict], *, caveat: str = "") -> list[dict]:
    """Table 3's rows as text; ``trivial``: a process metric that is high only because no note was read."""
    return [
        {
            **r,
            "text": [fmt(v, 0 if r["metric"] == "tokens" else 1) for v in r["values"]],
            "term": term_for(r["metric"]),
            "trivial": any(trivially_high(r["metric"], v, caveat=caveat, percent=True) for v in r["values"]),
        }
        for r in rows
    ]


def _breakdown_text(rows: list[dict]) -> list[dict]:
    return [
        {
            **r,
            "pr_text": fmt(r["pr"]),
            "metric_text": [fmt(v) for v in r["metrics"].values()],
            "tokens_text": fmt(r["tokens"], 0),
        }
        for r in rows
    ]


def _curve_level(value: str | None) -> str:
    if value in (None, "", "all"):
        return ""
    levels = [lv for lv, _ in LEVELS]
    if value not in levels:
        raise ValueError(f"curves must be all or one of {', '.join(levels)}; got {value!r}")
    return value


def _overall(results: RunResults) -> dict:
    """The headline: table 2's overall pass rate; its interval only once the run has ended."""
    table2 = results.table2
    if not table2.get("overall"):
        return {"final": False, "value": None, "n": 0}
    if results.final:
        # n counts cases (with several trials table 2's n counts trajectories; ``cases`` the cases)
        return {
            "final": True,
            **table2["overall"],
            "macro": table2.get("macro"),
            "n": table2.get("cases") or table2.get("n"),
        }
    return {"final": False, "value": table2["overall"]["value"], "n": table2["n"]}


def _config(run: EvaluationRun) -> list[tuple[str, object]]:
    return [(key, run.config[key]) for key in CONFIG_SHOWN if key in (run.config or {})]


def _progress_template(run: EvaluationRun) -> str:
    """The live-progress partial (templates/web/_progress.html), while the run is queued or running."""
    return PROGRESS_TEMPLATE if run.status in (EvaluationRun.QUEUED, EvaluationRun.RUNNING) else ""


def _compare_choices(request: HttpRequest, run: EvaluationRun) -> list[Mapping[str, Any]]:
    runs = runs_visible(user=request.user).filter(release_id=run.release_id, purpose=EvaluationRun.EVALUATION)
    return list(runs.exclude(id=run.id).order_by("-id").values("id", "name")[:200])


def _figures(run: EvaluationRun, cases: list[dict], curves: str) -> dict:
    """Figures 5 and 6 and the tokens histogram, drawn as SVG, with their numbers as tables."""
    series = run_report.curve_series(cases, level=curves)
    order = run_report.CURVE_SERIES
    tools = run_report.tool_failures(run=run)
    done = run_report.done_cases(cases)
    passed = [c["tokens"] for c in done if c["passed"]]
    failed = [c["tokens"] for c in done if not c["passed"]]
    with_tokens = any(passed + failed)
    return {
        "curves": curves,
        "curve_levels": [lv for lv, _ in LEVELS],
        "curve_panels": [
            {
                "metric": name,
                "svg": exceedance_svg(name, series[name], order=order),
                "table": exceedance_table(series[name]),
            }
            for name in run_report.CURVE_METRICS
            if series[name]
        ],
        "exceedance_at": EXCEEDANCE_AT,
        "tools": tools,
        "tool_plot": failures_svg(tools["rows"], tools["kinds"]) if tools["kinds"] else "",
        "tokens_plot": tokens_svg(passed, failed) if with_tokens else "",
        "tokens_table": token_histogram(passed, failed)[1] if with_tokens else [],
    }
