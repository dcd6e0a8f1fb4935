from django.apps import AppConfig


class OperationsConfig(AppConfig):
    """Backups, restores, the migration policy, re-scoring and retention."""

    name = "benchmark.operations"
    label = "operations"
    verbose_name = "Operations"

    def ready(self) -> None:
        from . import tasks  # noqa: F401  registers the Celery tasks
