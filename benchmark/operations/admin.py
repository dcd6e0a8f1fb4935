"""Re-scorings of runs in the admin: read-only records of what a metric or judge change did to a run."""

from django.contrib import admin

from benchmark.cases.admin.html import pretty_json
from benchmark.operations.models import RunRescore


@admin.register(RunRescore)
class RunRescoreAdmin(admin.ModelAdmin):
    """Records are written only by ``run_rescore`` (the ``rescore_run`` command or its task)."""

    list_display = ("id", "run", "created_at", "reason", "n_trajectories", "n_pass_changed", "n_metric_changed")
    list_filter = ("created_at",)
    search_fields = ("reason", "run__name")
    fields = (
        "run",
        "created_at",
        "created_by",
        "reason",
        "metrics",
        "n_trajectories",
        "n_pass_changed",
        "n_metric_changed",
        "versions_html",
        "changes_html",
        "aggregates_before_html",
        "aggregates_after_html",
    )
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="versions")
    def versions_html(self, obj):
        return pretty_json(obj.versions)

    @admin.display(description="changes (before, after)")
    def changes_html(self, obj):
        return pretty_json(obj.changes)

    @admin.display(description="aggregates before")
    def aggregates_before_html(self, obj):
        return pretty_json(obj.aggregates_before)

    @admin.display(description="aggregates after")
    def aggregates_after_html(self, obj):
        return pretty_json(obj.aggregates_after)
