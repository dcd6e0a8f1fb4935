"""Routes of the REST API, mounted at /api/v1/."""
urlpatterns = []
