"""Routes of a run's pages (see benchmark/web/urls.py): its report, failed cases as files, progress, buttons."""

from django.urls import path

from benchmark.web.runs import actions, views

urlpatterns = [
    path("runs/<int:run_id>/", views.run_page, name="run"),
    path("runs/<int:run_id>/failures.<str:fmt>", views.run_failures_download, name="run_failures"),
    path("runs/<int:run_id>/progress.json", views.run_progress_json, name="run-progress"),
    path("runs/<int:run_id>/cancel/", actions.run_cancel_view, name="run_cancel"),
    path("runs/<int:run_id>/unlist/", actions.run_unlist_view, name="run_unlist"),
]
