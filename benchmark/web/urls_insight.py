"""Routes of this part of the site (see benchmark/web/urls.py): hardest cases, score against cost, note reader."""

from django.urls import path

from . import views_insight

urlpatterns = [
    path("releases/<slug:release_name>/matrix/", views_insight.release_matrix, name="release-matrix"),
    path("releases/<slug:release_name>/cost/", views_insight.release_cost, name="release-cost"),
    path("notes/<str:note_id>/", views_insight.note_page, name="note"),
]
