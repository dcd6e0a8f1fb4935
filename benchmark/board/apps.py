from django.apps import AppConfig


class BoardConfig(AppConfig):
    """The leaderboard, its search, who may see what and run moderation; no models (it reads runs')."""

    name = "benchmark.board"
    label = "board"
    verbose_name = "Leaderboard"
