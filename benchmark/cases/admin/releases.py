"""Releases in the admin: freeze validated cases; afterwards read-only, hidden snapshots for curators only."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.utils.html import format_html
from django.utils.text import Truncator

from benchmark.cases.models import Case, Release, ReleaseCase
from benchmark.cases.permissions import is_curator
from benchmark.cases.services import release_check, release_exposure_warning, release_freeze

from .html import pretty_json


class ReleaseFreezeForm(forms.ModelForm):
    """Freeze chosen validated cases as a new release (through ``release_freeze``)."""

    freeze_cases = forms.ModelMultipleChoiceField(
        queryset=Case.objects.filter(status=Case.VALIDATED), widget=forms.SelectMultiple(attrs={"size": 15})
    )

    class Meta:
        model = Release
        fields = ["name", "split", "description"]

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returns
        if not self.errors:
            try:
                release_check(name=data["name"], split=data["split"], cases=data["freeze_cases"])
            except ValidationError as exc:
                self.add_error(None, exc)
        return data


class ReleaseCaseInline(admin.TabularInline):
    model = ReleaseCase
    fields = ("position", "case", "snapshot_html")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_view_permission(self, request, obj=None):
        """Snapshots of a hidden release hold its answers: curators only."""
        if not request.user.has_perm("cases.view_release"):
            return False
        return obj is None or obj.split == Release.PUBLIC or is_curator(request.user)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description="snapshot")
    def snapshot_html(self, entry):
        return format_html(
            "<details><summary>{}</summary>{}</details>",
            Truncator(entry.snapshot.get("question", "")).chars(100),
            pretty_json(entry.snapshot),
        )


@admin.register(Release)
class ReleaseAdmin(admin.ModelAdmin):
    list_display = ["name", "split", "case_count", "content_hash_short", "created_at"]
    list_filter = ["split"]
    inlines = [ReleaseCaseInline]
    FROZEN = ["name", "split", "content_hash", "city_name", "city_version", "description", "created_by", "created_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(case_count=Count("entries"))

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []

    def get_fields(self, request, obj=None):
        return ["name", "split", "description", "freeze_cases"] if obj is None else self.FROZEN

    def get_readonly_fields(self, request, obj=None):
        return [] if obj is None else self.FROZEN

    def get_form(self, request, obj=None, change=False, **kwargs):
        if obj is None:
            kwargs["form"] = ReleaseFreezeForm
        return super().get_form(request, obj, change, **kwargs)

    def has_change_permission(self, request, obj=None):
        return False  # frozen: a release never changes after it is created

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        release = release_freeze(
            name=obj.name,
            split=obj.split,
            cases=form.cleaned_data["freeze_cases"],
            actor=request.user,
            description=obj.description,
        )
        obj.pk = release.pk
        obj.refresh_from_db()
        warning = release_exposure_warning(release=release)
        if warning:
            self.message_user(request, warning, level=messages.WARNING)

    @admin.display(description="cases", ordering="case_count")
    def case_count(self, release):
        return release.case_count

    @admin.display(description="content hash")
    def content_hash_short(self, release):
        return release.content_hash[:12]
