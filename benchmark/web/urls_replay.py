"""Routes of this part of the site (see benchmark/web/urls.py): trajectory replay, run comparison, streets."""

from django.urls import path

from . import views_replay

urlpatterns = [
    path("trajectories/<int:pk>/", views_replay.trajectory_page, name="trajectory"),
    path("trajectories/<int:pk>/replay.json", views_replay.trajectory_json, name="trajectory-json"),
    path("compare/", views_replay.compare_page, name="compare"),
    path("city/<slug:name>/streets.geojson", views_replay.city_streets, name="city-streets"),
]
