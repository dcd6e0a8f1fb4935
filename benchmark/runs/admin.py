"""Human reference scores for judge calibration: curators enter them, judges are measured against them."""

from django.contrib import admin

from benchmark.runs.models import HumanScore


@admin.register(HumanScore)
class HumanScoreAdmin(admin.ModelAdmin):
    list_display = ("case", "metric", "score", "annotator", "created_at")
    list_filter = ("metric", "case__category", "case__level")
    search_fields = ("case__case_id", "note")
    raw_id_fields = ("case",)
    readonly_fields = ("annotator", "created_at")

    def save_model(self, request, obj, form, change):
        if not change:
            obj.annotator = request.user
        super().save_model(request, obj, form, change)
