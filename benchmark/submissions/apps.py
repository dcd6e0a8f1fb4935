from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    """A user's endpoint submitted for evaluation: smoke test, then the full run."""

    name = "benchmark.submissions"
    label = "submissions"
    verbose_name = "Submissions"

    def ready(self) -> None:
        from benchmark.runs.signals import run_finished

        from .services import smoke_run_finished

        run_finished.connect(smoke_run_finished, dispatch_uid="submissions.smoke_run_finished")
