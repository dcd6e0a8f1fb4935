from django.apps import AppConfig


class JudgingConfig(AppConfig):
    name = "judging"
