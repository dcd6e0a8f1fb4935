from django.apps import AppConfig


class EndpointsConfig(AppConfig):
    """Model endpoints, the LLM client, secrets at rest, the egress guard and rate caps."""

    name = "benchmark.endpoints"
    label = "endpoints"
    verbose_name = "Model endpoints"

    def ready(self) -> None:
        from . import tasks  # noqa: F401  the connection test's Celery task, queued by name
