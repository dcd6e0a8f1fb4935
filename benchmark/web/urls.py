"""The site's pages. Each part keeps its own routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("benchmark.web.urls_board")),  # leaderboard (home), run pages, case browser
    path("", include("benchmark.web.urls_replay")),  # trajectory replay, run comparison
    path("", include("benchmark.web.urls_submit")),  # sign-in, model submission, live progress
    path("", include("benchmark.web.urls_insight")),  # hardest cases, score against cost, note reader
]
