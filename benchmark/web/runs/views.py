"""Pages of a run: its report (tables 2 and 3, figures 5 and 6, its failed cases), its failed cases as files,
its live progress, and the owner's buttons (actions.py).

Views parse the query string, call the selectors of benchmark.runs (results.py for a run's tables), this
package's report.py and pass_k.py, and render. Bad query values get a 400 page that names the value and what is
allowed; an unknown or invisible run a 404.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from benchmark.agents.config import RUN_FILTERS, RunConfig
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
from benchmark.runs.services import run_progress
from benchmark.submissions.smoke import full_run_of
from benchmark.web.failures import REASONS
from benchmark.web.files import attachment, download_format, json_text
from benchmark.web.glossary import BY_ANCHOR, term_for
from benchmark.web.pages import error_page, fmt, query, trajectory_url
from benchmark.web.plots import (
    EXCEEDANCE_AT,
    exceedance_svg,
    exceedance_table,
    failures_svg,
    levels_svg,
    token_histogram,
    tokens_svg,
)
from benchmark.web.process_caveat import NOTE_TOOLS, notes_caveat, trivially_high
from benchmark.web.runs import pass_k, report
from benchmark.web.runs.failure_export import failures_csv, failures_document

FAILED_PAGE_SIZE = 50
PROGRESS_TEMPLATE = "web/_progress.html"
CONFIG_SHOWN = (*RunConfig.model_fields, *RUN_FILTERS)  # the run page's settings, then its filters
ACTIVE = (EvaluationRun.QUEUED, EvaluationRun.RUNNING)


def run_page(request: HttpRequest, run_id: int) -> HttpResponse:
    run = get_object_or_404(EvaluationRun.objects.select_related("release", "endpoint", "created_by"), id=run_id)
    if not run_visible(user=request.user, run=run):
        raise Http404("no such run")
    try:
        filters = report.FailureFilters.parse(
            category=request.GET.get("category", ""),
            level=request.GET.get("level", ""),
            reason=request.GET.get("reason", ""),
        )
        curves = _curve_level(request.GET.get("curves"))
    except ValueError as exc:
        return error_page(request, str(exc))
    cases = report.run_cases(run=run)
    results = run_results(run=run)
    figures = _figures(run, cases, curves)
    calls = sum(row["calls"] for row in figures["tools"]["rows"])
    note_calls = sum(row["calls"] for row in figures["tools"]["rows"] if row["tool"] in NOTE_TOOLS)
    caveat = notes_caveat(calls=calls, note_calls=note_calls)
    table3 = _table3_text(report.table3_rows(results), caveat=caveat)
    per_case = per_case_visible(user=request.user, release=run.release)
    failed = report.failed_cases(cases, filters=filters) if per_case else []
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
            "statuses": report.status_counts(cases),
            "table2": results.table2,
            "table3": table3,
            "process_caveat": caveat if any(row["trivial"] for row in table3) else "",
            "cells": report.cell_table(results),
            "categories_breakdown": _breakdown_text(report.category_breakdown(results)),
            "reasons": report.reason_counts(cases, filters=filters),
            "reason_rules": REASONS,
            "category_choices": CATEGORIES,
            "level_choices": [lv for lv, _ in LEVELS],
            "metric_names": report.TABLE3_METRICS,
            "metric_heads": [{"label": name, "term": term_for(name)} for name in report.TABLE3_METRICS],
            "terms": {anchor.replace("-", "_"): term for anchor, term in BY_ANCHOR.items()},
            "can_manage": run_manageable(user=request.user, run=run),
            "listing_problems": run_listing_problems(run) if run.purpose == EvaluationRun.EVALUATION else [],
            "overall": _overall(results),
            "config": _config(run),
            "endpoint_details": endpoint_details_visible(user=request.user, endpoint=run.endpoint),
            "progress_template": _progress_template(run),
            "compare_with": _compare_choices(request, run),
            "page_query": query(request.GET, page=None),
            "answers_visible": can_see_answers(user=request.user, release=run.release),
            "per_case_visible": per_case,
            "hidden_per_case": HIDDEN_PER_CASE.format(release=run.release.name),
            "failures_query": urlencode({k: v for k, v in vars(filters).items() if v}),
            "pass_k": pass_k.pass_k_rows(cases),
            "level_bars": _level_bars(run, results),
            **figures,
        },
    )


def _level_bars(run: EvaluationRun, results: RunResults) -> str:
    """PR@0.9 per level as bars beside table 3 ("" before any case is scored)."""
    values = {level: (results.table3.get(level) or {}).get("PR") for level in report.LEVEL_CODES}
    if all(value is None for value in values.values()):
        return ""
    return levels_svg([(run.name, values)], levels=report.LEVEL_CODES)


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
    series = report.curve_series(cases, level=curves)
    order = report.CURVE_SERIES
    tools = report.tool_failures(run=run)
    done = report.done_cases(cases)
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
            for name in report.CURVE_METRICS
            if series[name]
        ],
        "exceedance_at": EXCEEDANCE_AT,
        "tools": tools,
        "tool_plot": failures_svg(tools["rows"], tools["kinds"]) if tools["kinds"] else "",
        "tokens_plot": tokens_svg(passed, failed) if with_tokens else "",
        "tokens_table": token_histogram(passed, failed)[1] if with_tokens else [],
    }


# ------------------------------------------------------------------ files and progress


def run_failures_download(request: HttpRequest, run_id: int, fmt: str) -> HttpResponse:
    """``/runs/<id>/failures.csv`` or ``.json``: the run page's failed cases, with its filters."""
    run = get_object_or_404(EvaluationRun.objects.select_related("release"), id=run_id)
    if not run_visible(user=request.user, run=run):
        raise Http404("no such run")
    if not per_case_visible(user=request.user, release=run.release):
        return error_page(request, HIDDEN_PER_CASE.format(release=run.release.name), status=404)
    try:
        fmt = download_format(fmt)
        filters = report.FailureFilters.parse(
            category=request.GET.get("category", ""),
            level=request.GET.get("level", ""),
            reason=request.GET.get("reason", ""),
        )
    except ValueError as exc:
        return error_page(request, str(exc))
    document = failures_document(
        run=run, user=request.user, filters=filters, replay_url=lambda i: request.build_absolute_uri(trajectory_url(i))
    )
    body = failures_csv(document) if fmt == "csv" else json_text(document)
    return attachment(body, filename=f"lifeplanner-run-{run.id}-{run.release.name}-failures", fmt=fmt)


@require_GET
def run_progress_json(request: HttpRequest, run_id: int) -> JsonResponse:
    """A visible run's status and trajectory counts, for the progress partial's polling."""
    run = get_object_or_404(EvaluationRun.objects.select_related("endpoint"), id=run_id)
    if not run_visible(user=request.user, run=run):
        raise Http404("no such run")
    full = full_run_of(smoke=run) if run.purpose == EvaluationRun.SMOKE else None
    return JsonResponse(
        {
            "run": run.id,
            "status": run.status,
            "purpose": run.purpose,
            "finished": run.status not in ACTIVE,
            "progress": run_progress(run=run),
            "full_run": full.id if full else None,
        }
    )
