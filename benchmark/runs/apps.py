from django.apps import AppConfig


class RunsConfig(AppConfig):
    """Agents, their toolbox, running (case, trial)s on workers, scoring and results."""

    name = "benchmark.runs"
    label = "runs"
    verbose_name = "Runs"

    def ready(self) -> None:
        from . import floors, tasks  # noqa: F401  registers the Celery tasks and the data engine's floor probe
