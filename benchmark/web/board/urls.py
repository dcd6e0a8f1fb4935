"""Routes of the board (see benchmark/web/urls.py): the leaderboard, model cards, a release's matrix and cost."""

from django.urls import path

from benchmark.web.board import views

urlpatterns = [
    path("", views.leaderboard_page, name="home"),
    path("models/<path:model>/", views.model_page, name="model"),
    path("releases/<slug:release_name>/matrix/", views.release_matrix, name="release-matrix"),
    path("releases/<slug:release_name>/cost/", views.release_cost, name="release-cost"),
]
