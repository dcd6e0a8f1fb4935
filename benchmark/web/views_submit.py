"""Pages for signing in, API tokens, submitting a model, and a run's live progress (JSON).

Views parse input, call one service or selector, render. The API key is a password field that
is never rendered back, and no message quotes it.
"""

from __future__ import annotations

import json
from typing import cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from benchmark.accounts.selectors import api_token_of
from benchmark.accounts.services import api_token_create, api_token_revoke
from benchmark.cases.models import Release
from benchmark.endpoints.services import MAX_CONCURRENCY, MAX_REQUESTS_PER_MINUTE
from benchmark.runs.models import EvaluationRun
from benchmark.runs.services import run_progress
from benchmark.runs.visibility import can_run_on, run_visible
from benchmark.submissions.services import (
    SubmissionLimitReached,
    submission_create,
    submission_default_release,
    submissions_of,
    submissions_per_day,
)
from benchmark.submissions.smoke import full_run_of

ACTIVE = (EvaluationRun.QUEUED, EvaluationRun.RUNNING)


class SubmissionForm(forms.Form):
    """Parses the form; the endpoint rules themselves are checked by the service."""

    name = forms.CharField(max_length=100, help_text="Shown on the leaderboard, e.g. “my-model v2”.")
    model = forms.CharField(
        max_length=200, help_text="litellm model string, e.g. openai/gpt-4o-mini or hosted_vllm/my-model."
    )
    api_base = forms.CharField(
        max_length=500,
        required=False,
        label="API base URL",
        help_text="http(s) URL of an OpenAI-compatible server; empty for the provider's default.",
    )
    api_key = forms.CharField(
        required=False,
        label="API key",
        strip=True,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "off"}),
        help_text="Stored encrypted; never shown again.",
    )
    no_key = forms.BooleanField(
        required=False,
        label="My server takes no API key",
        help_text="Only with an API base URL; an empty key without this is refused (the "
        "site's own keys are never used).",
    )
    concurrency = forms.IntegerField(
        min_value=1, max_value=MAX_CONCURRENCY, initial=4, help_text="Requests in flight at once."
    )
    requests_per_minute = forms.IntegerField(
        min_value=1, max_value=MAX_REQUESTS_PER_MINUTE, required=False, help_text="Optional cap; empty for none."
    )
    params = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Extra parameters",
        help_text='Optional JSON object of litellm parameters, e.g. {"max_tokens": 2048}.',
    )
    release = forms.ModelChoiceField(
        queryset=Release.objects.order_by("-created_at", "-id"), to_field_name="name", required=False, empty_label=None
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Offer only the releases this user may run on (hidden ones: HIDDEN_RELEASE_RUNNERS); a posted hidden
        # release is still read, so the service can say why it is refused.
        if user is not None and not self.is_bound:
            field = cast(forms.ModelChoiceField, self.fields["release"])
            assert field.queryset is not None  # the field above has one
            allowed = [r.pk for r in field.queryset if can_run_on(user=user, release=r)]
            field.queryset = field.queryset.filter(pk__in=allowed)

    def clean_params(self) -> dict | None:
        text = self.cleaned_data["params"].strip()
        if not text:
            return None
        try:
            value = json.loads(text)
        except (ValueError, RecursionError) as exc:  # RecursionError: nested too deep to parse
            raise ValidationError(f'params must be a JSON object such as {{"max_tokens": 2048}} ({exc})') from None
        if not isinstance(value, dict):
            raise ValidationError(
                f'params must be a JSON object such as {{"max_tokens": 2048}}, not a {type(value).__name__}'
            )
        return value


@login_required
@require_http_methods(["GET", "POST"])
def submit(request: HttpRequest) -> HttpResponse:
    """The submission form and the user's submissions with their smoke-test reports."""
    if request.method == "POST":
        form = SubmissionForm(request.POST, user=request.user)
        if form.is_valid() and _create(request, form):
            return redirect("submit")
    else:
        form = SubmissionForm(initial={"release": _default_release_name()}, user=request.user)
    return render(
        request,
        "web/submit.html",
        {
            "form": form,
            "submissions": submissions_of(user=request.user),
            "limit": submissions_per_day(),
            "staff_exempt": request.user.is_staff,
        },
    )


def _create(request: HttpRequest, form: SubmissionForm) -> bool:
    try:
        smoke = submission_create(user=request.user, **form.cleaned_data)
    except SubmissionLimitReached as exc:
        form.add_error(None, str(exc))
        return False
    except ValidationError as exc:
        _attach_errors(form, exc)
        return False
    messages.success(
        request, f"Submitted: the smoke test (run {smoke.id}) is queued; the full run starts when it passes."
    )
    return True


def _attach_errors(form: SubmissionForm, exc: ValidationError) -> None:
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for name, errors in exc.message_dict.items():
        form.add_error(name if name in form.fields else None, errors)


def _default_release_name() -> str | None:
    try:
        return submission_default_release().name
    except ValidationError:
        return None


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


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """See whether one has an API token; create (or replace) it, shown once; or revoke it."""
    created = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action not in ("create", "revoke"):
            return render(
                request,
                "web/token.html",
                {"token": api_token_of(user=request.user), "error": "unknown action: use create or revoke"},
                status=400,
            )
        if action == "create":
            created = api_token_create(user=request.user)
        else:
            api_token_revoke(user=request.user)
            messages.success(request, "Your API token was revoked.")
            return redirect("api-token")
    response = render(request, "web/token.html", {"token": api_token_of(user=request.user), "created": created})
    response["Cache-Control"] = "no-store"  # the page showing a new token must not be cached
    return response
