"""The site's URLs plus a view that raises and one that raises Http404 (tests/site/test_error_pages.py)."""

from django.http import Http404
from django.urls import path

from lifeplanner_site.urls import handler400, handler403, handler404, handler500
from lifeplanner_site.urls import urlpatterns as site_routes


def _boom(request):
    raise RuntimeError("boom: a secret of the traceback")


def _gone(request):
    raise Http404("no run 99999 that you can see")


urlpatterns = [path("boom/", _boom), path("gone/", _gone), *site_routes]
__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
