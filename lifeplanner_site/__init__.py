from . import db_pool  # noqa: F401  a forked child forgets its parent's connection pools
from .celery import app as celery_app

__all__ = ("celery_app",)
