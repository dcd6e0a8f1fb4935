from django.apps import AppConfig


class AgentsConfig(AppConfig):
    """The agents a run can name and what each is given (RunConfig, the toolbox); no models."""

    name = "benchmark.agents"
    label = "agents"
    verbose_name = "Agents"
