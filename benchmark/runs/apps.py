from django.apps import AppConfig


class RunsConfig(AppConfig):
    """Runs of agents on releases: a trajectory's lifecycle, running (case, trial)s on workers, scoring, results."""

    name = "benchmark.runs"
    label = "runs"
    verbose_name = "Runs"

    def ready(self) -> None:
        # the Celery tasks, the data engine's floor probe and the paraphraser's model client
        from . import floors, tasks  # noqa: F401
        from .scoring import model_clients  # noqa: F401
