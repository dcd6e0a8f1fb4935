"""Routes of this part of the site (see benchmark/web/urls.py): leaderboard, run pages, case browser, about."""

from django.urls import path

from . import about, glossary, views_board, views_cases, views_downloads, views_run_actions

urlpatterns = [
    path("", views_board.leaderboard_page, name="home"),
    path("runs/<int:run_id>/", views_board.run_page, name="run"),
    path("runs/<int:run_id>/failures.<str:fmt>", views_downloads.run_failures_download, name="run_failures"),
    path("runs/<int:run_id>/cancel/", views_run_actions.run_cancel_view, name="run_cancel"),
    path("runs/<int:run_id>/unlist/", views_run_actions.run_unlist_view, name="run_unlist"),
    path("about/", about.about_page, name="about"),
    path("models/<path:model>/", views_board.model_page, name="model"),
    path("glossary/", glossary.glossary_page, name="glossary"),
    path("glossary/metrics.md", glossary.metrics_doc, name="metrics_doc"),
    path("cases/", views_cases.cases_page, name="cases"),
    path("cases/<slug:release_name>/<str:case_id>/", views_cases.case_page, name="case"),
    path("cases/<str:case_id>/", views_cases.case_latest, name="case_latest"),
]
