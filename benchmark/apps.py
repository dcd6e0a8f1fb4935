from django.apps import AppConfig


class BenchmarkConfig(AppConfig):
    """The migration history of the tables the benchmark apps took over (their tables keep the
    ``benchmark_`` prefix): benchmark.0011 hands each model to its app without touching a row."""

    name = "benchmark"
