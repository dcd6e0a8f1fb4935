from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from lifeplanner_site.health import health

urlpatterns = [
    path("health/", health, name="health"),
    # Browsers ask for /favicon.ico on their own; the icon is static/favicon.svg (its hashed name in production).
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg")), name="favicon"),
    path("", include("benchmark.web.urls")),
    path("api/v1/", include("benchmark.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("admin/", admin.site.urls),
]
