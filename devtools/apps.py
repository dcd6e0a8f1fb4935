from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    """Benchmarks, profiling, scale-out and the scripted endpoint; installed by dev_settings only."""

    name = "devtools"
    verbose_name = "Development tools"

    def ready(self) -> None:
        from celery.signals import worker_ready, worker_shutdown

        # With LIFEPLANNER_PROFILE_DIR set (``bench_evaluation --profile``), a worker profiles every thread from
        # when it is ready (warmed up) and writes the profile when it shuts down; nothing when it is unset.
        worker_ready.connect(_start_profiling, weak=False, dispatch_uid="devtools.profiling.start")
        worker_shutdown.connect(_stop_profiling, weak=False, dispatch_uid="devtools.profiling.stop")


def _start_profiling(**_) -> None:
    from devtools.profiling import profiling_start

    profiling_start()


def _stop_profiling(**_) -> None:
    from devtools.profiling import profiling_stop

    profiling_stop()
