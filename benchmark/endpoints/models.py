"""Model endpoints: a model behind litellm, its key encrypted at rest."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ModelEndpoint(models.Model):
    """A model behind litellm. The API key is encrypted at rest and never rendered back.

    Names are unique per owner (another user's names cannot be probed). An endpoint that runs
    still reference is deleted softly: ``deleted_at`` is set and its key wiped, so the runs keep
    their endpoint and the name is free again.
    """

    name = models.CharField(max_length=100)
    model = models.CharField(max_length=200, help_text="litellm model string, e.g. openai/gpt-4o-mini")
    api_base = models.URLField(max_length=500, blank=True)
    api_key_encrypted = models.TextField(blank=True, editable=False)
    params = models.JSONField(default=dict, blank=True, help_text="Extra litellm parameters.")
    card = models.JSONField(
        default=dict,
        db_default=models.Value({}, output_field=models.JSONField()),  # the previous code inserts rows without it
        blank=True,
        help_text="What the submitter declares of the model (endpoints/card.py).",
    )
    concurrency = models.PositiveIntegerField(default=4, help_text="Requests in flight at once, across workers.")
    requests_per_minute = models.PositiveIntegerField(null=True, blank=True, help_text="Across all workers.")
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True, help_text="Set when its owner deleted it.")

    class Meta:
        db_table = "benchmark_modelendpoint"
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "name"],
                condition=models.Q(deleted_at__isnull=True),
                nulls_distinct=False,
                name="endpoint_name_unique_per_owner",
            )
        ]

    def __str__(self) -> str:
        return self.name
