"""Routes of this part of the site (see benchmark/web/urls.py): sign-in, API token, one's endpoints,
model submission, live progress."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import views_accounts, views_submit

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/token/", views_submit.api_token, name="api-token"),
    path("accounts/endpoints/", views_accounts.my_endpoints, name="my-endpoints"),
    path(
        "accounts/endpoints/<int:endpoint_id>/remove-key/",
        views_accounts.endpoint_key_remove_view,
        name="endpoint-key-remove",
    ),
    path("accounts/endpoints/<int:endpoint_id>/delete/", views_accounts.endpoint_delete_view, name="endpoint-delete"),
    path("submit/", views_submit.submit, name="submit"),
    path("submit/connection-tests/<str:test_id>.json", views_submit.connection_test_json, name="connection-test"),
    path("submit/cancel/<int:run_id>/", views_submit.submission_cancel_view, name="submission-cancel"),
    path("runs/<int:run_id>/progress.json", views_submit.run_progress_json, name="run-progress"),
]
