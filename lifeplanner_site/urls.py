from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("benchmark.web.urls")),
    path("api/v1/", include("benchmark.api.urls")),
    path("admin/", admin.site.urls),
]
