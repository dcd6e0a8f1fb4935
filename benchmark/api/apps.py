from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The REST API."""

    name = "benchmark.api"
    label = "api"
    verbose_name = "API"
