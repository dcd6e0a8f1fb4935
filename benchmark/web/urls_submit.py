"""Routes of this part of the site (see benchmark/web/urls.py): sign-in, API token, model submission,
live progress."""
from django.contrib.auth import views as auth_views
from django.urls import path

from . import views_submit

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/token/", views_submit.api_token, name="api-token"),
    path("submit/", views_submit.submit, name="submit"),
    path("runs/<int:run_id>/progress.json", views_submit.run_progress_json, name="run-progress"),
]
