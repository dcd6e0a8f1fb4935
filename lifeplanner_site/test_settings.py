"""Test settings: only overrides of the main settings."""

from .dev_settings import *  # noqa: F401,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
