"""The Celery application (configured from the CELERY_* settings: queues, routes, beat schedule, limits).

Workers: ``celery -A lifeplanner_site worker -Q evaluation,scoring,housekeeping``; in the image,
``docker/entrypoint.sh worker QUEUES``. The scheduler: ``celery -A lifeplanner_site beat`` (one).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lifeplanner_site.settings")

app = Celery("lifeplanner")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
