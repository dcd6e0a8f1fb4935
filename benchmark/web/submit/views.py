"""Submitting a model: the form, its connection test (followed as JSON), and cancelling one's submission.

Views parse input, call one service or selector, render. The API key is a password field that
is never rendered back, and no message quotes it. A key typed for a connection test is kept, encrypted, in
the user's session for ``KEPT_KEY_TTL_S``, so that the following submit may leave the field empty; it is
forgotten once submitted, on request, or when it expires.
"""

from __future__ import annotations

import json
import time
from typing import cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from benchmark.board.visibility import can_run_on
from benchmark.cases.models import Release
from benchmark.endpoints.secrets import SecretDecryptionError, decrypt_secret, encrypt_secret
from benchmark.endpoints.services import (
    MAX_CONCURRENCY,
    MAX_REQUESTS_PER_MINUTE,
    ConnectionTestBusy,
    connection_test_start,
    connection_test_state,
)
from benchmark.runs.models import EvaluationRun
from benchmark.submissions.selectors import submission_full_run_cost, submissions_of
from benchmark.submissions.services import (
    SubmissionLimitReached,
    submission_cancel,
    submission_check,
    submission_create,
    submission_default_release,
    submissions_per_day,
)
from benchmark.web.throttle import budget_spent, parse_rate

ACTIVE = (EvaluationRun.QUEUED, EvaluationRun.RUNNING)
ENDPOINT_FIELDS = ("name", "model", "api_base", "api_key", "concurrency", "requests_per_minute", "params")
PROBE_FIELDS = ("model", "api_base", "api_key", "no_key", "params")
KEPT_KEY = "submit-tested-key"  # the session's entry: {"secret": encrypted key, "at": when it was kept}
KEPT_KEY_TTL_S = 900


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
        queryset=Release.objects.order_by("-created_at", "-id"),
        to_field_name="name",
        required=False,
        empty_label=None,
        error_messages={
            "invalid_choice": "you may not run on that release (a hidden release is for curators and staff): "
            "choose one of the releases listed"
        },
    )

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Offer only the releases this user may run on, before and after a POST: a posted release the user may
        # not run on is an invalid choice, refused with the message above.
        if user is not None:
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
    """The submission form (with its connection test) and the user's submissions with their state."""
    probe, status = None, 200
    if request.method == "POST":
        form = SubmissionForm(request.POST, user=request.user)
        action = request.POST.get("action")
        if action == "forget-key":
            request.session.pop(KEPT_KEY, None)
            messages.success(request, "The API key kept from your connection test is forgotten.")
        elif action == "test":
            probe, status = _test_connection(request, form)
        elif _create(request, form):
            request.session.pop(KEPT_KEY, None)  # used by this submission, or replaced by a typed one
            return redirect("submit")
    else:
        form = SubmissionForm(initial={"release": _default_release_name()}, user=request.user)
    return render(request, "web/submit.html", _page(request, form, probe), status=status)


def _page(request: HttpRequest, form: SubmissionForm, probe: dict | None) -> dict:
    field = cast(forms.ModelChoiceField, form.fields["release"])
    releases = [r for r in (field.queryset or []) if can_run_on(user=request.user, release=r)]
    return {
        "form": form,
        "probe": probe,
        "costs": [submission_full_run_cost(release=r) for r in releases],
        "submissions": submissions_of(user=request.user),
        "limit": submissions_per_day(),
        "staff_exempt": request.user.is_staff,
        "key_kept": _kept_key(request) is not None,
        "kept_key_minutes": KEPT_KEY_TTL_S // 60,
    }


def _kept_key(request: HttpRequest) -> str | None:
    """The key kept from this session's last connection test, while it is fresh; None otherwise."""
    kept = request.session.get(KEPT_KEY)
    if not isinstance(kept, dict) or time.time() - float(kept.get("at", 0)) > KEPT_KEY_TTL_S:
        request.session.pop(KEPT_KEY, None)
        return None
    try:
        return decrypt_secret(str(kept.get("secret", "")))
    except SecretDecryptionError:  # the site's keys changed since: as good as expired
        request.session.pop(KEPT_KEY, None)
        return None


def _with_kept_key(request: HttpRequest, form: SubmissionForm) -> None:
    """An empty key field (without "no key") takes the key kept from the connection test; a typed key is kept."""
    data = form.cleaned_data
    if "api_key" not in data or data.get("no_key"):
        return
    if data["api_key"]:
        request.session[KEPT_KEY] = {"secret": encrypt_secret(data["api_key"]), "at": time.time()}
    else:
        data["api_key"] = _kept_key(request) or ""


def _create(request: HttpRequest, form: SubmissionForm) -> bool:
    """Submit, or show every field's problems at once: the form's own and the services' together."""
    valid = form.is_valid()
    _with_kept_key(request, form)
    try:
        if not valid:
            submission_check(user=request.user, skip=frozenset(form.errors), **_values(form))
            return False
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


def _values(form: SubmissionForm) -> dict:
    """The fields as the services take them: cleaned where the form accepted them, else as typed (the
    services' problems with a field the form refused are left out, so nothing is said twice)."""
    values = {name: form.cleaned_data.get(name, form.data.get(name)) for name in ENDPOINT_FIELDS}
    values["release"] = form.cleaned_data.get("release")
    values["no_key"] = bool(form.cleaned_data.get("no_key"))
    if "params" not in form.cleaned_data:
        values["params"] = None
    return values


def _test_connection(request: HttpRequest, form: SubmissionForm) -> tuple[dict, int]:
    """Queue one model call to the endpoint typed in the form, made by a worker; no run, no submission spent.
    The page shows the test's state, and follows it (connection-test.js) until its result comes."""
    limit = parse_rate(settings.CONNECTION_TEST_RATE)
    if limit is not None:
        count, seconds = limit
        wait = budget_spent(scope="connection-test", ident=str(request.user.pk), count=count, seconds=seconds)
        if wait is not None:
            message = f"too many connection tests: at most {count} per {seconds} s; try again in {wait} s"
            return {"ok": False, "message": message}, 429
    form.is_valid()
    _with_kept_key(request, form)
    problems = [f for f in PROBE_FIELDS if f in form.errors]
    if problems:
        return {"ok": False, "message": f"not tried: fix {', '.join(problems)} first"}, 200
    data = form.cleaned_data
    try:
        test_id = connection_test_start(
            user_id=_user_id(request),
            model=data["model"],
            api_base=data["api_base"],
            api_key=data["api_key"],
            no_key=data["no_key"],
            params=data["params"],
        )
    except ConnectionTestBusy as exc:
        return {"ok": False, "message": str(exc)}, 429
    state = connection_test_state(test_id=test_id, user_id=_user_id(request))
    assert state is not None  # just written, by this user
    return {**state, "url": reverse("connection-test", args=[test_id])}, 200


def _user_id(request: HttpRequest) -> int:
    """The signed-in user's id (the views calling this require a signed-in user)."""
    assert request.user.pk is not None
    return int(request.user.pk)


@login_required
@require_GET
def connection_test_json(request: HttpRequest, test_id: str) -> JsonResponse:
    """One's own connection test: its state, and its result once done (another user's is a 404)."""
    state = connection_test_state(test_id=test_id, user_id=_user_id(request))
    if state is None:
        raise Http404("no such connection test")
    return JsonResponse(state)


def _attach_errors(form: SubmissionForm, exc: ValidationError) -> None:
    if not hasattr(exc, "error_dict"):
        form.add_error(None, exc)
        return
    for name, errors in exc.message_dict.items():
        form.add_error(name if name in form.fields else None, errors)


@login_required
@require_POST
def submission_cancel_view(request: HttpRequest, run_id: int) -> HttpResponse:
    """Cancel one's own smoke test or full run (staff: anyone's); others get 404, as if it did not exist."""
    run = get_object_or_404(EvaluationRun, id=run_id)
    try:
        stopped = submission_cancel(user=request.user, run=run)
    except PermissionDenied:
        raise Http404("no such run") from None
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("submit")
    messages.success(request, f"Cancelled run {run.id}: {stopped} case{'s' if stopped != 1 else ''} will not run.")
    return redirect("submit")


def _default_release_name() -> str | None:
    try:
        return submission_default_release().name
    except ValidationError:
        return None
