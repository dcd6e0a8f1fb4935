"""Routes of this part of the site (see benchmark/web/urls.py): leaderboard, run pages, case browser."""

from django.urls import path

from . import views_board

urlpatterns = [
    path("", views_board.leaderboard_page, name="home"),
    path("runs/<int:run_id>/", views_board.run_page, name="run"),
    path("cases/", views_board.cases_page, name="cases"),
    path("cases/<slug:release_name>/<str:case_id>/", views_board.case_page, name="case"),
    path("cases/<str:case_id>/", views_board.case_latest, name="case_latest"),
]
