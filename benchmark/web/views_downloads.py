"""Downloads that are not a page's own ``?format=``: a run's failed cases as CSV or JSON.

(The leaderboard's downloads are the home page with ``?format=csv`` or ``?format=json``:
``views_board.leaderboard_page``.)
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from benchmark.board.visibility import HIDDEN_PER_CASE, per_case_visible, run_visible
from benchmark.runs.models import EvaluationRun

from . import run_report
from .downloads import attachment, download_format, failures_csv, json_text
from .failure_export import failures_document
from .views_board import error_page, trajectory_url


def run_failures_download(request: HttpRequest, run_id: int, fmt: str) -> HttpResponse:
    """``/runs/<id>/failures.csv`` or ``.json``: the run page's failed cases, with its filters."""
    run = get_object_or_404(EvaluationRun.objects.select_related("release"), id=run_id)
    if not run_visible(user=request.user, run=run):
        raise Http404("no such run")
    if not per_case_visible(user=request.user, release=run.release):
        return error_page(request, HIDDEN_PER_CASE.format(release=run.release.name), status=404)
    try:
        fmt = download_format(fmt)
        filters = run_report.FailureFilters.parse(
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
