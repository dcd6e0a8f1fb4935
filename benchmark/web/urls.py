"""The site's pages. Each part is a package here and keeps its own routes; the site-wide pages are routed here."""

from django.urls import include, path

from benchmark.web import about, glossary

urlpatterns = [
    path("", include("benchmark.web.board.urls")),  # leaderboard (home), model cards, a release's matrix and cost
    path("", include("benchmark.web.runs.urls")),  # a run's page, its failed cases as files, progress, its buttons
    path("", include("benchmark.web.replay.urls")),  # trajectory replay, run comparison, the city's streets
    path("", include("benchmark.web.cases.urls")),  # case browser, case pages, the note reader
    path("", include("benchmark.web.submit.urls")),  # sign-in, API token, one's endpoints, model submission
    path("about/", about.about_page, name="about"),
    path("glossary/", glossary.glossary_page, name="glossary"),
    path("glossary/metrics.md", glossary.metrics_doc, name="metrics_doc"),
]
