from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.utils.functional import lazy
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from benchmark.api.views import api_root
from lifeplanner_site.errors import api_not_found
from lifeplanner_site.health import health

handler400 = "lifeplanner_site.errors.bad_request"
handler404 = "lifeplanner_site.errors.page_not_found"
handler403 = "lifeplanner_site.errors.permission_denied"
handler500 = "lifeplanner_site.errors.server_error"

urlpatterns = [
    path("health/", health, name="health"),
    # Browsers ask for /favicon.ico on their own; the icon is static/favicon.svg (its hashed name in production).
    path("favicon.ico", RedirectView.as_view(url=lazy(static, str)("favicon.svg")), name="favicon"),
    path("", include("benchmark.web.urls")),
    path("api/", api_root, name="api-root"),
    path("api/v1/", include("benchmark.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="swagger-ui"),
    re_path(r"^api/(?P<path>.*)$", api_not_found),  # a JSON 404 whatever DEBUG says (handler404 is DEBUG off only)
    path("admin/", admin.site.urls),
]
