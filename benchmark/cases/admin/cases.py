"""Case curation in the admin: review on a map, edit through the audit history, validate, reject, re-verify."""

from __future__ import annotations

import json

import pydantic
from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from benchmark.cases.document import CaseDocument
from benchmark.cases.models import Case, Release
from benchmark.cases.permissions import is_curator
from benchmark.cases.selectors import DOCUMENT_FIELDS, case_map_geojson
from benchmark.cases.services import (
    CaseVerificationError,
    case_create,
    case_duplicate_as_draft,
    case_reject,
    case_reverify,
    case_update,
    case_validate,
)
from benchmark.cases.services.cases import EDITABLE_FIELDS

from .html import pretty_json, tool_path_html

JSON_FIELDS = (
    "answer",
    "reference_path",
    "engine_path",
    "required_evidence",
    "constraints",
    "uniqueness",
    "provenance",
)


class CaseForm(forms.ModelForm):
    """The case edit form; it refuses anything that is not a valid case document."""

    edit_reason = forms.CharField(
        required=False,
        label="Reason for this change (required)",
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Why you changed the case; kept in its audit history.",
    )

    class Meta:
        model = Case
        fields = [
            "case_id",
            "type",
            "category",
            "level",
            "question",
            "answer",
            "reference_path",
            "engine_path",
            "required_evidence",
            "constraints",
            "uniqueness",
            "status",
            "rejection_reason",
            "provenance",
            "verification",
            "city_name",
            "city_version",
        ]

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returns
        values = {name: data[name] if name in data else getattr(self.instance, name) for name in DOCUMENT_FIELDS}
        try:
            self.document = CaseDocument.model_validate(values)
        except pydantic.ValidationError as exc:  # report it on the offending field
            for err in exc.errors(include_url=False):
                field = str(err["loc"][0]) if err["loc"] else None
                where = ".".join(map(str, err["loc"]))
                self.add_error(field if field in self.fields else None, f"{where}: {err['msg']}")
        changed = [name for name in self.changed_data if name != "edit_reason"]
        if self.instance.pk is not None and changed and not (data.get("edit_reason") or "").strip():
            self.add_error(
                "edit_reason", f"say why you changed {', '.join(changed)}: the reason goes into the case's history"
            )
        return data


def frozen_in(case: Case) -> list[str]:
    """The names of the releases that hold ``case`` (a frozen case is no longer edited or rejected)."""
    return list(case.releases.order_by("name").values_list("name", flat=True).distinct())


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    form = CaseForm
    change_form_template = "admin/cases/case/change_form.html"
    object_history_template = "admin/cases/case/object_history.html"
    list_display = ["case_id", "type", "status", "question_short", "city_version_short"]
    list_filter = ["category", "level", "status", "releases"]
    # The answer and the constraints too: a curator looks a case up by a place it names ("Filippa").
    search_fields = ["question", "case_id", "answer", "constraints"]
    actions = ["validate_cases", "reject_cases", "reverify_cases", "duplicate_cases"]
    REVIEW = [
        "answer_html",
        "reference_path_html",
        "engine_path_html",
        "required_evidence_html",
        "constraints_html",
        "uniqueness_html",
        "provenance_html",
        "verification_html",
    ]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        return qs if is_curator(request.user) else qs.exclude(releases__split=Release.HIDDEN)

    def has_curate_permission(self, request) -> bool:
        return is_curator(request.user)

    def has_change_permission(self, request, obj=None) -> bool:
        # A frozen case is read-only: its releases keep their snapshots, so an edit would only confuse.
        return super().has_change_permission(request, obj) and (obj is None or not frozen_in(obj))

    def get_fieldsets(self, request, obj=None):
        head = ["case_id", "type", "category", "level", "city_name", "city_version", "question"]
        if obj is None:
            return [(None, {"fields": head + list(JSON_FIELDS)})]
        sets = [
            (None, {"fields": head[:1] + ["status", "rejection_reason"] + head[1:]}),
            ("Review", {"fields": self.REVIEW}),
        ]
        if self.has_change_permission(request, obj):
            sets.append(("Edit the documents (JSON)", {"classes": ["collapse"], "fields": list(JSON_FIELDS)}))
            sets.append(("Why you change it", {"fields": ["edit_reason"]}))
        return sets + [("History", {"fields": ["history_html"]})]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        return ["case_id", "status", "rejection_reason", *self.REVIEW, "history_html"]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        case = self.get_object(request, unquote(object_id))
        extra = {}
        if case is not None:
            frozen = frozen_in(case)
            extra = {
                "case_map": case_map_geojson(case),
                "frozen_releases": frozen,
                # Its public page and its runs (the public page lists them), once a release holds it.
                "public_url": reverse("case_latest", args=[case.case_id]) if frozen else "",
                "can_reject": self.has_curate_permission(request) and case.status != Case.REJECTED,
                "reject_url": reverse("admin:cases_case_reject", args=[case.pk]),
                "reject_form": RejectForm(),
            }
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def get_urls(self):
        reject = path("<int:object_id>/reject/", self.admin_site.admin_view(self.reject_view), name="cases_case_reject")
        return [reject, *super().get_urls()]

    def reject_view(self, request, object_id):
        """The Reject button of a case's page (POST, with its reason): ``case_reject``, then back to the page."""
        if request.method != "POST" or not self.has_curate_permission(request):
            raise PermissionDenied
        case = self.get_object(request, str(object_id))
        if case is None:  # unknown, or a hidden release's case for someone who may not see it
            raise Http404("no such case")
        try:
            case_reject(case=case, actor=request.user, reason=request.POST.get("reason", ""))
        except ValidationError as exc:
            self.message_user(request, f"Not rejected: {' '.join(exc.messages)}.", messages.ERROR)
        else:
            self.message_user(request, f"Rejected {case.case_id}: {case.rejection_reason}", messages.SUCCESS)
            frozen = frozen_in(case)
            if frozen:
                self.message_user(
                    request, f"{_frozen_warning({case.case_id: frozen})}; it stays in those releases.", messages.WARNING
                )
        return HttpResponseRedirect(reverse("admin:cases_case_change", args=[case.pk]))

    def history_view(self, request, object_id, extra_context=None):
        """Django's History button shows the case's audit history (CaseEvent), not the admin's own log."""
        case = self.get_object(request, unquote(object_id))
        events = list(case.events.select_related("actor")) if case is not None else []
        for event in events:
            event.changes_json = json.dumps(event.changes, indent=1, ensure_ascii=False, sort_keys=True)
        return super().history_view(request, object_id, {**(extra_context or {}), "case_events": events})

    def save_model(self, request, obj, form, change):
        if change:
            changes = {f: form.cleaned_data[f] for f in form.changed_data if f in EDITABLE_FIELDS}
            stale = stale_quotes(Case.objects.get(pk=obj.pk), changes)
            if stale:
                self.message_user(request, stale, messages.WARNING)
            case = case_update(
                case=Case.objects.get(pk=obj.pk),
                changes=changes,
                actor=request.user,
                reason=form.cleaned_data.get("edit_reason", ""),
            )
        else:
            case = case_create(document=form.document, actor=request.user)
        obj.pk = case.pk
        obj.refresh_from_db()

    # ---------------------------------------------------------------- list columns

    @admin.display(description="question", ordering="question")
    def question_short(self, case):
        return Truncator(case.question).chars(80)

    @admin.display(description="city version", ordering="city_version")
    def city_version_short(self, case):
        return case.city_version[:12]

    # ---------------------------------------------------------------- readable documents

    @admin.display(description="answer")
    def answer_html(self, case):
        return pretty_json(case.answer)

    @admin.display(description="reference path")
    def reference_path_html(self, case):
        return tool_path_html(case.reference_path)

    @admin.display(description="engine path")
    def engine_path_html(self, case):
        return tool_path_html(case.engine_path)

    @admin.display(description="required evidence")
    def required_evidence_html(self, case):
        return pretty_json(case.required_evidence)

    @admin.display(description="constraints")
    def constraints_html(self, case):
        return pretty_json(case.constraints)

    @admin.display(description="uniqueness")
    def uniqueness_html(self, case):
        return pretty_json(case.uniqueness)

    @admin.display(description="provenance")
    def provenance_html(self, case):
        return pretty_json(case.provenance)

    @admin.display(description="verification")
    def verification_html(self, case):
        v = case.verification or {}
        if not v:
            return "not verified yet"
        failures = format_html_join("", "<li>{}</li>", ((f,) for f in v.get("failures", [])))
        return format_html(
            "<p>{} ({} checks, {})</p><ul>{}</ul>",
            "passed" if v.get("ok") else "FAILED",
            v.get("checks", 0),
            v.get("at", "?"),
            failures,
        )

    @admin.display(description="audit history")
    def history_html(self, case):
        rows = (
            (
                e.at.strftime("%Y-%m-%d %H:%M:%S"),
                e.actor or "-",
                e.action,
                json.dumps(e.changes, indent=1, ensure_ascii=False, sort_keys=True) if e.changes else "",
                e.reason,
            )
            for e in case.events.select_related("actor")
        )
        body = format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td><pre>{}</pre></td><td>{}</td></tr>", rows)
        return format_html(
            "<table><tr><th>when</th><th>who</th><th>action</th><th>changes</th><th>reason</th></tr>{}</table>", body
        )

    # ---------------------------------------------------------------- actions

    @admin.action(description="Validate (verify, then mark validated)", permissions=["curate"])
    def validate_cases(self, request, queryset):
        done = []
        for case in queryset:
            try:
                case_validate(case=case, actor=request.user)
                done.append(case.case_id)
            except CaseVerificationError as exc:
                self.message_user(request, f"Not validated: {case.case_id}: {'; '.join(exc.failures)}", messages.ERROR)
        if done:
            self.message_user(request, f"Validated {len(done)}: {', '.join(done)}", messages.SUCCESS)

    @admin.action(description="Reject (asks for a reason)", permissions=["curate"])
    def reject_cases(self, request, queryset):
        form = RejectForm(request.POST if "apply" in request.POST else None)
        frozen = {case.case_id: names for case in queryset if (names := frozen_in(case))}
        if form.is_bound and form.is_valid():
            rejected = [
                case_reject(case=case, actor=request.user, reason=form.cleaned_data["reason"]) for case in queryset
            ]
            self.message_user(
                request, f"Rejected {len(rejected)} case{'s' if len(rejected) != 1 else ''}.", messages.SUCCESS
            )
            if frozen:
                self.message_user(request, f"{_frozen_warning(frozen)}; they stay in those releases.", messages.WARNING)
            return None
        return TemplateResponse(
            request,
            "admin/cases/case/reject_cases.html",
            {
                **self.admin_site.each_context(request),
                "title": "Reject cases",
                "opts": self.model._meta,
                "cases": queryset,
                "form": form,
                "frozen_warning": _frozen_warning(frozen) if frozen else "",
            },
        )

    @admin.action(description="Re-verify", permissions=["curate"])
    def reverify_cases(self, request, queryset):
        for case in queryset:
            was = case.status
            result = case_reverify(case=case, actor=request.user)
            if result.ok:
                self.message_user(request, f"Verification passed: {case.case_id}", messages.SUCCESS)
            else:
                back = " (back to draft)" if was != case.status else ""
                self.message_user(
                    request,
                    f"Verification failed{back}: {case.case_id}: {'; '.join(result.failures)}",
                    messages.WARNING,
                )

    @admin.action(description="Duplicate as draft", permissions=["curate"])
    def duplicate_cases(self, request, queryset):
        copies = [case_duplicate_as_draft(case=case, actor=request.user).case_id for case in queryset]
        self.message_user(request, f"Created drafts: {', '.join(copies)}", messages.SUCCESS)


def stale_quotes(case: Case, changes: dict) -> str:
    """A warning when an edit of the question leaves the answer's quoted constraints as they were: they quote the
    old question (``constraints_satisfied``, ``constraints``), so a curator should read them again. "" otherwise."""
    changed = {field for field, value in changes.items() if getattr(case, field) != value}  # the form says more
    if "question" not in changed or {"answer", "constraints"} & changed:
        return ""
    answer = case.answer if isinstance(case.answer, dict) else {}
    quoted = [str(text) for text in answer.get("constraints_satisfied") or [] if str(text).strip()]
    if not quoted and not case.constraints:
        return ""
    listed = "; ".join(f"“{Truncator(text).chars(80)}”" for text in quoted[:5])
    return (
        f"{case.case_id}: the question changed but the answer's constraints did not"
        + (f" (constraints_satisfied: {listed})" if listed else "")
        + ": check that they still say what the new question asks, and edit the answer or the constraints if not."
    )


def _frozen_warning(frozen: dict[str, list[str]]) -> str:
    listed = "; ".join(f"{case_id} (in {', '.join(names)})" for case_id, names in frozen.items())
    return (
        f"Frozen in a release: {listed}. A release keeps the snapshot it took, so rejecting keeps these cases out "
        "of future releases only"
    )


class RejectForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), help_text="Kept on the case and in its history.")
