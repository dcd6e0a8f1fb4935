from django.apps import AppConfig


class WebConfig(AppConfig):
    """The site's pages: leaderboard, runs, replays, cases, comparison, submission."""

    name = "benchmark.web"
    label = "web"
    verbose_name = "Web"
