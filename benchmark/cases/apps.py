from django.apps import AppConfig


class CasesConfig(AppConfig):
    """Case documents, the data engine that writes them, verification, curation and releases."""

    name = "benchmark.cases"
    label = "cases"
    verbose_name = "Cases"
