from django.apps import AppConfig


class ExternalConfig(AppConfig):
    """External agents over MCP with run tokens, and uploaded runs; no models (a run's tokens are the run's)."""

    name = "benchmark.external"
    label = "external"
    verbose_name = "External agents and uploads"
