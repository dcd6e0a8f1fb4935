from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from lifeplanner_site.health import health

urlpatterns = [
    path("health/", health, name="health"),
    path("", include("benchmark.web.urls")),
    path("api/v1/", include("benchmark.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("admin/", admin.site.urls),
]
