"""Routes of the REST API, mounted at /api/v1/ (schema at /api/schema/, docs at /api/docs/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import endpoints, views
from .params import SLUG

router = SimpleRouter()
router.register("releases", views.ReleaseViewSet, basename="release")
router.register(rf"releases/(?P<release_name>{SLUG})/cases", views.CaseViewSet, basename="case")
router.register("runs", views.RunViewSet, basename="run")
router.register("trajectories", views.TrajectoryViewSet, basename="trajectory")
router.register("endpoints", endpoints.OwnEndpointViewSet, basename="endpoint")

urlpatterns = [
    path("", views.ApiIndexView.as_view(), name="api-index"),
    *router.urls,
    path("leaderboard/", views.LeaderboardView.as_view(), name="leaderboard"),
]
