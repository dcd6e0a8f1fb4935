"""Development settings: the production settings and the development tools (``devtools``: the benchmarks,
the profiler, the scale-out driver and the scripted endpoint). ``manage.py`` uses them unless
DJANGO_SETTINGS_MODULE says otherwise; the image sets ``lifeplanner_site.settings``, which leaves them out."""

from .settings import *  # noqa: F401,F403
from .settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "devtools"]
