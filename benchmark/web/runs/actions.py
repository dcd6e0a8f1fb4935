"""The run page's buttons: cancel a running run, unlist it from the leaderboard or list it again.

POST only (CSRF-protected by the middleware); the permission is checked in
``benchmark.board.moderation``: the run's owner and staff. Anyone else gets a 403.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from benchmark.board.moderation import run_cancel_by, run_unlist
from benchmark.board.visibility import run_visible
from benchmark.runs.models import EvaluationRun


def _run(request: HttpRequest, run_id: int) -> EvaluationRun:
    run = get_object_or_404(EvaluationRun, id=run_id)
    if not run_visible(user=request.user, run=run):
        raise Http404("no such run")
    return run


@require_POST
def run_cancel_view(request: HttpRequest, run_id: int) -> HttpResponse:
    run = _run(request, run_id)
    try:
        stopped = run_cancel_by(run=run, user=request.user)
    except ValueError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, f"Run cancelled: {stopped} queued case{'s' if stopped != 1 else ''} stopped.")
    return redirect("run", run_id=run.id)


@require_POST
def run_unlist_view(request: HttpRequest, run_id: int) -> HttpResponse:
    run = _run(request, run_id)
    listed = request.POST.get("listed") == "1"
    run_unlist(run=run, user=request.user, listed=listed)
    messages.success(request, "Run listed on the leaderboard again." if listed else "Run hidden from the leaderboard.")
    return redirect("run", run_id=run.id)
