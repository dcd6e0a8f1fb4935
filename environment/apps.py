from django.apps import AppConfig


class EnvironmentConfig(AppConfig):
    name = "environment"
    verbose_name = "Environment (city, corpus, tools)"
