from django.apps import AppConfig


class EndpointsConfig(AppConfig):
    """Model endpoints, the LLM client, secrets at rest, the egress guard and rate caps."""

    name = "benchmark.endpoints"
    label = "endpoints"
    verbose_name = "Model endpoints"
