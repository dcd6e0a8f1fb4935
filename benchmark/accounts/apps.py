from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """A user's REST API token."""

    name = "benchmark.accounts"
    label = "accounts"
    verbose_name = "Accounts"
