"""Routes of this part of the site (see benchmark/web/urls.py)."""
urlpatterns = []
