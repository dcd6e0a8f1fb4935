"""Routes of submitting (see benchmark/web/urls.py): sign-in, API token, one's endpoints, model submission."""

from django.contrib.auth import views as auth_views
from django.urls import path

from benchmark.web.submit import accounts, views

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/token/", accounts.api_token, name="api-token"),
    path("accounts/endpoints/", accounts.my_endpoints, name="my-endpoints"),
    path(
        "accounts/endpoints/<int:endpoint_id>/remove-key/",
        accounts.endpoint_key_remove_view,
        name="endpoint-key-remove",
    ),
    path("accounts/endpoints/<int:endpoint_id>/delete/", accounts.endpoint_delete_view, name="endpoint-delete"),
    path("submit/", views.submit, name="submit"),
    path("submit/connection-tests/<str:test_id>.json", views.connection_test_json, name="connection-test"),
    path("submit/cancel/<int:run_id>/", views.submission_cancel_view, name="submission-cancel"),
]
