"""Model endpoints in the admin: a write-only API key; every save goes through the endpoint services.

The key is never rendered back, not even masked: the pages show only "key set" or "no key".
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters

from benchmark.endpoints.models import ModelEndpoint
from benchmark.endpoints.services import UNCHANGED, endpoint_check, endpoint_create, endpoint_update


class ModelEndpointForm(forms.ModelForm):
    """The fields are validated by ``endpoint_check``; the admin saves through the services."""

    # A plain text field: the services' guard explains a refused api_base better than URLField
    # would, and URLField refuses hosts without a dot (http://vllm:8000) that private setups use.
    api_base = forms.CharField(
        required=False,
        max_length=500,
        label="API base",
        help_text="Empty for the provider's default URL; otherwise http(s).",
    )
    api_key = forms.CharField(
        required=False,
        strip=True,
        label="API key",
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text="Write-only. Leave empty to keep the stored key.",
    )
    remove_api_key = forms.BooleanField(required=False, label="Remove the stored API key")

    class Meta:
        model = ModelEndpoint
        # api_base is the form field above, set by the services, not by the model form.
        fields = ["name", "model", "params", "concurrency", "requests_per_minute", "owner"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial.setdefault("api_base", self.instance.api_base)

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returns
        if self.errors:
            return data
        if data.get("api_key") and data.get("remove_api_key"):
            self.add_error("remove_api_key", "Either enter a new key or remove the stored one, not both.")
            return data
        try:
            endpoint_check(
                name=data.get("name"),
                model=data.get("model"),
                api_base=data.get("api_base", ""),
                params=data.get("params"),
                concurrency=data.get("concurrency"),
                requests_per_minute=data.get("requests_per_minute"),
                api_key=data.get("api_key"),
                endpoint=self.instance if self.instance.pk is not None else None,
                owner=data.get("owner"),
            )
        except ValidationError as exc:
            self.add_error(None, exc)
        return data

    def new_api_key(self):
        """What the services should do with the key: UNCHANGED, "" (remove) or the new key."""
        if self.cleaned_data.get("remove_api_key"):
            return ""
        return self.cleaned_data.get("api_key") or UNCHANGED


@admin.register(ModelEndpoint)
class ModelEndpointAdmin(admin.ModelAdmin):
    form = ModelEndpointForm
    list_display = [
        "name",
        "model",
        "api_base",
        "key_status",
        "concurrency",
        "requests_per_minute",
        "owner",
        "created_at",
    ]
    search_fields = ["name", "model"]
    readonly_fields = ["key_status", "created_at"]

    def get_fields(self, request, obj=None):
        fields = ["name", "model", "api_base", "api_key", "params", "concurrency", "requests_per_minute", "owner"]
        return fields + ["remove_api_key", "key_status", "created_at"] if obj is not None else fields

    @method_decorator(sensitive_post_parameters("api_key"))
    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        return super().changeform_view(request, object_id, form_url, extra_context)

    @admin.display(description="API key")
    def key_status(self, endpoint):
        return "key set" if endpoint.api_key_encrypted else "no key"

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        fields = {
            f: data.get(f)
            for f in ("name", "model", "api_base", "params", "concurrency", "requests_per_minute", "owner")
        }
        if change:
            endpoint_update(endpoint=obj, api_key=form.new_api_key(), **fields)
            return
        fields["owner"] = fields["owner"] or request.user
        key = form.new_api_key()
        saved = endpoint_create(api_key=None if key is UNCHANGED else key, **fields)
        # The admin goes on with ``obj`` (history, redirect): give it the saved row's state.
        for field in ModelEndpoint._meta.concrete_fields:
            setattr(obj, field.attname, getattr(saved, field.attname))
        obj._state.adding, obj._state.db = False, saved._state.db
