"""The Celery application. Workers: celery -A lifeplanner_site worker."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lifeplanner_site.settings")

app = Celery("lifeplanner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
