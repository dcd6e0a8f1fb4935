"""Routes of the replay (see benchmark/web/urls.py): a trajectory's replay, run comparison, the city's streets."""

from django.urls import path

from benchmark.web.replay import views

urlpatterns = [
    path("trajectories/<int:pk>/", views.trajectory_page, name="trajectory"),
    path("trajectories/<int:pk>/replay.json", views.trajectory_json, name="trajectory-json"),
    path("compare/", views.compare_page, name="compare"),
    path("city/<slug:name>/streets.geojson", views.city_streets, name="city-streets"),
]
